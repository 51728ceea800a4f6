package run

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/results"
)

// runWith is a result of one step at 8 users whose window held checkpoints (0: none).
func runWith(checkpoints int64) *results.Run {
	return &results.Run{Steps: []results.Step{
		{Users: 4, MeasuredS: 60, Background: &results.Background{}},
		{Users: 8, MeasuredS: 60, Background: &results.Background{Checkpoints: checkpoints, CheckpointBuffers: 1204}},
	}}
}

// logTo collects afterRepeat's lines.
func logTo(lines *[]string) func(string, ...any) {
	return func(format string, args ...any) { *lines = append(*lines, fmt.Sprintf(format, args...)) }
}

func TestReplacerSetsAsideWithinBudget(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "h810.json")
	write := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// An earlier series' set-aside run of repeat 3 keeps its name and its content.
	write(filepath.Join(dir, "h810-disturbed-r3.json"), "earlier")
	rep := &replacer{budget: 2}
	var lines []string

	f := repeatFiles{base: base, k: 2, n: 3, out: repeatPath(base, 2), capture: filepath.Join(dir, "io", "r2")}
	if err := os.MkdirAll(f.capture, 0o755); err != nil {
		t.Fatal(err)
	}
	write(f.out, "first")
	if again, err := rep.afterRepeat(logTo(&lines), f, runWith(0)); again || err != nil || len(lines) != 0 {
		t.Fatalf("an undisturbed repeat: again %v, err %v, said %q", again, err, lines)
	}
	if again, err := rep.afterRepeat(logTo(&lines), f, runWith(1)); !again || err != nil {
		t.Fatalf("a disturbed repeat within the budget: again %v, err %v", again, err)
	}
	want := "repeat 2 of 3 was disturbed at 8 users (checkpoint (1204 buffers written)); running it again (1 of 2 replacements used); its file is kept as h810-disturbed-r2.json"
	if len(lines) != 1 || lines[0] != want {
		t.Errorf("said %q, want %q", lines, want)
	}
	f.setAsideBefore++
	write(f.out, "second")
	if err := os.MkdirAll(f.capture, 0o755); err != nil {
		t.Fatal(err)
	}
	if again, err := rep.afterRepeat(logTo(&lines), f, runWith(2)); !again || err != nil {
		t.Fatalf("the second replacement: again %v, err %v", again, err)
	}
	for path, text := range map[string]string{"h810-disturbed-r2.json": "first", "h810-disturbed-r2-2.json": "second"} {
		if got, err := os.ReadFile(filepath.Join(dir, path)); err != nil || string(got) != text {
			t.Errorf("%s: %q, %v; want %q", path, got, err, text)
		}
	}
	for _, d := range []string{"disturbed-r2", "disturbed-r2-2"} {
		if fi, err := os.Stat(filepath.Join(dir, "io", d)); err != nil || !fi.IsDir() {
			t.Errorf("capture folder io/%s not set aside: %v", d, err)
		}
	}
	if _, err := os.Stat(f.out); !os.IsNotExist(err) {
		t.Errorf("%s still there after it was set aside: %v", f.out, err)
	}

	// The budget is spent: repeat 3 is kept, said with the budget's end; a later one
	// is kept too, the budget's end not said again.
	lines = nil
	f3 := repeatFiles{base: base, k: 3, n: 3, out: repeatPath(base, 3)}
	write(f3.out, "third")
	for i := 0; i < 2; i++ {
		if again, err := rep.afterRepeat(logTo(&lines), f3, runWith(1)); again || err != nil {
			t.Fatalf("a disturbed repeat past the budget: again %v, err %v", again, err)
		}
	}
	if len(lines) != 2 || !strings.Contains(lines[0], "repeat 3 of 3 was disturbed at 8 users (checkpoint (1204 buffers written)); kept as it is: the 2 replacement(s) --replace-disturbed allows are used") ||
		strings.Contains(lines[1], "allows") {
		t.Errorf("past the budget said:\n%s", strings.Join(lines, "\n"))
	}
	if got, err := os.ReadFile(f3.out); err != nil || string(got) != "third" {
		t.Errorf("the kept repeat's file: %q, %v", got, err)
	}

	// Setting aside never writes over a file: the earlier series' one stays, the
	// new one takes the next free name.
	rep = &replacer{budget: 1}
	lines = nil
	if again, err := rep.afterRepeat(logTo(&lines), f3, runWith(1)); !again || err != nil {
		t.Fatalf("again %v, err %v", again, err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "h810-disturbed-r3.json")); string(got) != "earlier" {
		t.Errorf("an earlier set-aside run was written over: %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "h810-disturbed-r3-2.json")); string(got) != "third" || !strings.HasSuffix(lines[0], "kept as h810-disturbed-r3-2.json") {
		t.Errorf("the set-aside run: %q, said %q", got, lines)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "h810-r*.json")); len(m) != 0 {
		t.Errorf("a glob of kept repeats matches set-aside runs: %v", m)
	}
}

func TestReplacerBudgetZeroKeepsQuietly(t *testing.T) {
	rep := &replacer{}
	var lines []string
	if again, err := rep.afterRepeat(logTo(&lines), repeatFiles{base: "/nonexistent/x.json", k: 1, n: 2, out: "/nonexistent/x-r1.json"}, runWith(1)); again || err != nil || len(lines) != 0 {
		t.Errorf("without --replace-disturbed: again %v, err %v, said %q", again, err, lines)
	}
}

func TestDisturbedPath(t *testing.T) {
	for _, c := range []struct {
		out  string
		k, j int
		want string
	}{
		{"run.json", 2, 1, "run-disturbed-r2.json"},
		{"run.json", 2, 2, "run-disturbed-r2-2.json"},
		{"d/h810.json", 10, 3, "d/h810-disturbed-r10-3.json"},
		{"noext", 1, 1, "noext-disturbed-r1"},
	} {
		if got := disturbedPath(c.out, c.k, c.j); got != c.want {
			t.Errorf("disturbedPath(%q, %d, %d) = %q, want %q", c.out, c.k, c.j, got, c.want)
		}
	}
}
