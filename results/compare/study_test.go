package compare_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/studyfixture"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
)

// writeStudy writes the fixture's study folder and returns it.
func writeStudy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := studyfixture.Write(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// keepRepeats marks every run after repeat n failed, as a study interrupted there.
func keepRepeats(t *testing.T, dir string, n int) {
	t.Helper()
	rec, err := results.ReadStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rec.Runs {
		if rec.Runs[i].Repeat > n {
			rec.Runs[i].Status = results.StudyRunFailed
		}
	}
	if err := results.WriteStudy(dir, rec); err != nil {
		t.Fatal(err)
	}
}

// TestCompareStudy: every workload is compared across the systems, the baseline
// first, each side's repeats its done runs; the slow system reads worse where the
// throttle binds and its twin within noise.
func TestCompareStudy(t *testing.T) {
	dir := writeStudy(t)
	s, err := compare.CompareStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{studyfixture.Base, studyfixture.Slow, studyfixture.Same}; !slices.Equal(s.Systems, want) {
		t.Fatalf("systems %q, want %q", s.Systems, want)
	}
	if len(s.Workloads) != 3 || s.Workloads[0].Runs == nil || s.Workloads[1].Disks == nil || s.Workloads[2].Disks == nil {
		t.Fatalf("workloads not compared by kind: %+v", s.Workloads)
	}
	oltp := s.Workloads[0].Runs
	if len(oltp.Inputs) != 3 || oltp.Inputs[1].Name() != studyfixture.Slow || len(oltp.Inputs[1].All()) != 3 {
		t.Errorf("the OLTP sides are not the systems with their 3 repeats: %+v", oltp.Inputs)
	}
	hs := s.Headlines()
	if len(hs) != 2 {
		t.Fatalf("headlines %q", hs)
	}
	for _, want := range []string{"h810 vs h800: oltp: tpsE at 8 users -40 % [", "worse;", "profiles: database IOPS -", "streaming IOPS", "replay: IOPS of captured"} {
		if !strings.Contains(hs[0], want) {
			t.Errorf("the slow system's headline lacks %q: %s", want, hs[0])
		}
	}
	if !strings.Contains(hs[0], "~ within noise") || strings.Contains(hs[1], "worse") || strings.Contains(hs[1], "better") {
		t.Errorf("the streaming profile or the twin system is judged: %q", hs)
	}
	pct, where, ok := s.WidestDetectable([]string{"tps", "disk.iops"})
	if !ok || pct <= 0 || pct > 50 || !strings.Contains(where, " vs h800, ") {
		t.Errorf("WidestDetectable = %.1f %q %v", pct, where, ok)
	}
	for _, bad := range [][]string{nil, {"nosuch"}, {"disk.nosuch"}} {
		if _, _, ok := s.WidestDetectable(bad); ok {
			t.Errorf("WidestDetectable(%q) is ok", bad)
		}
	}
}

// TestCompareStudyFewRepeats: two repeats give intervals but no verdict, said in
// the headline; one gives no interval, so no detectable difference yet.
func TestCompareStudyFewRepeats(t *testing.T) {
	dir := writeStudy(t)
	keepRepeats(t, dir, 2)
	s, err := compare.CompareStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	if h := s.Headlines()[0]; !strings.Contains(h, "no verdict: 2 repeats a side; a verdict needs 3") {
		t.Errorf("headline %q does not say why there is no verdict", h)
	}
	if _, _, ok := s.WidestDetectable([]string{"tps_e", "disk.latency"}); !ok {
		t.Error("two repeats a side have no detectable difference")
	}
	keepRepeats(t, dir, 1)
	if s, err = compare.CompareStudy(dir); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := s.WidestDetectable([]string{"tps"}); ok {
		t.Error("one run a side has a detectable difference")
	}
}

// TestCompareStudyBadFiles: a done run's file missing, corrupt or of the wrong
// kind is an error naming it; a system without a done run is missing, in words.
func TestCompareStudyBadFiles(t *testing.T) {
	dir := writeStudy(t)
	slow := filepath.Join(dir, studyfixture.FileOf(studyfixture.Slow, "oltp", 2))
	if err := os.WriteFile(slow, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := compare.CompareStudy(dir); err == nil || !strings.Contains(err.Error(), slow) {
		t.Errorf("a corrupt file: %v", err)
	}
	if err := os.Remove(slow); err != nil {
		t.Fatal(err)
	}
	if _, err := compare.CompareStudy(dir); err == nil || !strings.Contains(err.Error(), slow) || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("a missing file: %v", err)
	}
	disk := filepath.Join(dir, studyfixture.FileOf(studyfixture.Slow, "profiles", 1))
	if err := os.Rename(disk, slow); err != nil {
		t.Fatal(err)
	}
	if _, err := compare.CompareStudy(dir); err == nil || !strings.Contains(err.Error(), "a storage-profile file") {
		t.Errorf("a file of another kind: %v", err)
	}

	dir = writeStudy(t)
	rec, _ := results.ReadStudy(dir)
	for i := range rec.Runs {
		if rec.Runs[i].System == studyfixture.Same && rec.Runs[i].Workload == "replay" {
			rec.Runs[i].Status = results.StudyRunInterrupted
		}
	}
	if err := results.WriteStudy(dir, rec); err != nil {
		t.Fatal(err)
	}
	s, err := compare.CompareStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m := s.Workloads[2].Missing; len(m) != 1 || m[0] != "h800b has no finished run of replay" || len(s.Workloads[2].Inputs()) != 2 {
		t.Errorf("missing %q, %d sides", m, len(s.Workloads[2].Inputs()))
	}
	if _, _, ok := s.WidestDetectable([]string{"disk.iops"}); ok {
		t.Error("a system without runs of a workload has a detectable difference")
	}
}
