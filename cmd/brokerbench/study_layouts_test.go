package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/internal/testkit/testloop"
	"github.com/brokerbench/brokerbench/results"
)

// TestStudyTwoLayouts is the study end to end on two emulated layouts: two loop
// devices with a file system each, the second throttled by a blkio group (the
// whole study runs in it, and the group caps only the second device). The plan
// runs a short OLTP ramp on a managed PostgreSQL on each, storage profiles at
// depths 1 and 16, and a replay of the block I/O the study captured during the
// first system's first ramp, twice, interleaved. It is interrupted
// after its first two runs and resumed: the finished runs' files are kept as they
// were, the first system's database is not loaded again, and every run is done
// once. The report judges nothing on two repeats a side and says so; what the
// throttle guarantees, it shows: the throttled layout's IOPS at 16 outstanding far
// below the other's (a ceiling holds on a busy machine; the free side is far
// above it on any).
func TestStudyTwoLayouts(t *testing.T) {
	if testing.Short() {
		t.Skip("a study of a few minutes; skipped with -short")
	}
	t.Parallel()
	needFioBinary(t)
	const capIOPS = 300
	fast, slow := testloop.New(t, 1200), testloop.New(t, 1200) // the load takes some 470 MB
	inGroup := testloop.Throttle(t, slow, capIOPS, os.Args[0])
	base := t.TempDir()
	plan := filepath.Join(base, "layouts.yaml")
	writeFile(t, plan, fmt.Sprintf(`name: layouts
out: layouts
repeats: 2
tags: {lab: ci}
load: {customers: 1000, trade-days: 5}
systems:
  - {name: fast, dir: %s, tags: {layout: free}}
  - {name: throttled, dir: %s, tags: {layout: throttled}}
workloads:
  - name: oltp
    run: {users: "2,4", step: 6s, warmup: 2s, no-check: true}
  - name: profiles
    disk: {profile: [database], depths: "1,16", size: 16MiB, ramp: 1s, measure: 2s}
  - name: replay
    replay: {capture: oltp, depth: 4, span: "0:64MiB"}
`, fast.Mount, slow.Mount))
	dir := filepath.Join(base, "layouts")

	first := startChildVia(t, inGroup, "study", plan)
	waitDone(t, dir, 2, first)
	if err := first.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code := first.wait(t); code != exitInterrupted {
		t.Fatalf("interrupted study: exit %d, want %d\n%s", code, exitInterrupted, first.output())
	}
	rec, err := results.ReadStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	kept := map[string][32]byte{}
	for _, r := range rec.Runs {
		if r.Done() {
			kept[r.File] = sha256.Sum256(readFile(t, filepath.Join(dir, r.File)))
		}
	}
	if len(kept) < 2 || rec.Stopped == "" || !rec.Systems[0].Loaded {
		t.Fatalf("after the interruption: %d runs done, stopped %q, loaded %v; want 2 or more, a reason, the first system loaded", len(kept), rec.Stopped, rec.Systems[0].Loaded)
	}

	resumed := startChildVia(t, inGroup, "study", plan, "--resume")
	waitEnd(t, resumed, 15*time.Minute)
	if code := resumed.wait(t); code != 0 {
		t.Fatalf("resumed study: exit %d\n%s", code, resumed.output())
	}
	out := resumed.output()
	if strings.Contains(out, "loading the database of fast") {
		t.Errorf("the resumed study loaded fast's database again:\n%s", out)
	}
	rec, err = results.ReadStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	for file, sum := range kept {
		if sha256.Sum256(readFile(t, filepath.Join(dir, file))) != sum {
			t.Errorf("%s, finished before the interruption, changed on resume", file)
		}
	}
	checkInterleaved(t, rec)

	code, stdout, stderr := runMain("compare", dir)
	if code != 0 || !strings.Contains(stdout, "throttled vs fast") {
		t.Fatalf("compare %s: exit %d, want the headline of throttled vs fast\n%s%s", dir, code, stdout, stderr)
	}
	var rep struct {
		Headlines []string `json:"headlines"`
		Workloads []struct {
			Name  string `json:"name"`
			Cells []struct {
				Step, Figure, System string
				Value                float64
				Change               *float64 `json:"change_percent"`
				Verdict, Reason      string
			} `json:"cells"`
		} `json:"workloads"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, "report.json")), &rep); err != nil {
		t.Fatalf("the study's report.json: %v", err)
	}
	found := false
	for _, w := range rep.Workloads {
		for _, c := range w.Cells {
			if c.System != "throttled" || c.Change == nil {
				continue
			}
			if c.Verdict != "no verdict" || !strings.Contains(c.Reason, "2 repeats a side") && !strings.Contains(c.Reason, "noise") && !strings.Contains(c.Reason, "zero") {
				t.Errorf("%s %s %s: verdict %q (%s) from 2 repeats a side", w.Name, c.Step, c.Figure, c.Verdict, c.Reason)
			}
			if w.Name == "profiles" && c.Step == "database, 16 outstanding" && c.Figure == "disk.iops" {
				found = true
				// The cap holds each direction to capIOPS: reads and writes together to
				// twice it. Far below the free layout only when the busy machine left
				// the free runs far above it (freeAbove).
				ceiling := 2 * capIOPS * 1.1
				if c.Value > ceiling || *c.Change > -50 && freeAbove(t, dir, rec, 4*ceiling) {
					t.Errorf("throttled IOPS at 16 outstanding %.0f (%+.0f %%): want at most the %d IOPS a direction of the cap, far below the free layout", c.Value, *c.Change, capIOPS)
				}
			}
		}
	}
	if !found || len(rep.Headlines) == 0 || !strings.Contains(rep.Headlines[0], "throttled vs fast") {
		t.Errorf("no throttled IOPS cell at 16 outstanding, or no headline: %v", rep.Headlines)
	}
	for _, f := range []string{"report.txt", "report.html", "report.csv", "report.json"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("the study wrote no %s: %v", f, err)
		}
	}
}

// freeAbove tells whether every fast profiles run did at least floor IOPS at
// database, 16 outstanding: then the throttled mean, under a quarter of it, is
// more than 50 % below.
func freeAbove(t *testing.T, dir string, rec *results.Study, floor float64) bool {
	t.Helper()
	for _, r := range rec.DoneRuns("fast", "profiles") {
		run, err := results.Read(filepath.Join(dir, r.File))
		if err != nil {
			t.Fatal(err)
		}
		st := results.StepAt(run.Disk, results.DiskKey{Profile: "database", Depth: 16})
		if st == nil {
			t.Fatalf("fast's %s has no step at database, 16 outstanding", r.File)
		}
		if st.IOPS < floor {
			t.Logf("fast's %s: %.0f IOPS at database, 16 outstanding, below %.0f: the change is not asserted", r.File, st.IOPS, floor)
			return false
		}
	}
	return true
}

// waitDone waits until the study record in dir holds n finished runs; the study
// ending first fails the test.
func waitDone(t *testing.T, dir string, n int, c *child) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Minute)
	for time.Now().Before(deadline) {
		if rec, err := results.ReadStudy(dir); err == nil {
			done := 0
			for _, r := range rec.Runs {
				if r.Done() {
					done++
				}
			}
			if done >= n {
				return
			}
		}
		select {
		case <-c.done:
			t.Fatalf("the study ended (exit %d) before %d runs were done:\n%s", c.code, n, c.output())
		case <-time.After(200 * time.Millisecond):
		}
	}
	t.Fatalf("the study did not finish %d runs in 15 minutes:\n%s", n, c.output())
}

// waitEnd waits up to d for the child to end (wait's own bound is shorter).
func waitEnd(t *testing.T, c *child, d time.Duration) {
	t.Helper()
	select {
	case <-c.done:
	case <-time.After(d):
		t.Fatalf("the study did not end in %s:\n%s", d, c.output())
	}
}

// checkInterleaved: every (system, workload, repeat) is done exactly once, and the
// done runs ran repeat by repeat, the systems in the file's order within each.
func checkInterleaved(t *testing.T, rec *results.Study) {
	t.Helper()
	var order []string
	seen := map[string]bool{}
	for _, r := range rec.Runs {
		if !r.Done() {
			continue
		}
		key := fmt.Sprintf("%s/%s/r%d", r.System, r.Workload, r.Repeat)
		if seen[key] {
			t.Errorf("%s done twice", key)
		}
		seen[key] = true
		order = append(order, fmt.Sprintf("%s r%d", r.System, r.Repeat))
	}
	order = slices.Compact(order)
	want := []string{"fast r1", "throttled r1", "fast r2", "throttled r2"}
	if len(seen) != 12 || !slices.Equal(order, want) {
		t.Errorf("%d runs done in the order %v; want 12, in %v", len(seen), order, want)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
