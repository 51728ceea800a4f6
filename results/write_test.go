package results_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
)

// TestWriteKeepsAnExistingFile: a run with no step yet never replaces a file at its
// path (someone's earlier result, or not a result at all), and the first step's
// write does, keeping the file's permissions; no temporary file is left either way.
func TestWriteKeepsAnExistingFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mine.json")
	if err := os.WriteFile(path, []byte("the user's own notes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := runfixture.SampleRun("started", nil, 1, 1, 1)
	empty.Steps = []results.Step{}
	if err := results.Write(path, empty); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "the user's own notes\n" {
		t.Fatalf("a run without steps replaced the file: %q", data)
	}
	if err := results.Write(path, runfixture.SampleRun("one step", []int{8}, 1, 1, 1)); err != nil {
		t.Fatal(err)
	}
	got, err := results.Read(path)
	if err != nil || got.Label != "one step" {
		t.Fatalf("after the first step: %v, %+v", err, got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's 0600", fi.Mode().Perm())
	}
	// A new file without steps is written (a bad --out fails at once), 0644.
	fresh := filepath.Join(dir, "fresh.json")
	if err := results.Write(fresh, empty); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(fresh); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("new file: %v, %v", err, fi)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("folder holds %d entries, want the two files", len(entries))
	}
}

// TestWriteRemovesStaleTemps: a temporary file a killed write of the same result
// file left (our name for it, unlocked, older than staleTempAge) is removed by the
// next write; one of another output, one not named as ours, a fresh one and one a
// live writer holds locked all stay.
func TestWriteRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	old := time.Now().Add(-time.Hour)
	mk := func(name string, age time.Time) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(`{"format": 1, "la`), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, age, age); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stale := mk(".r.json.tmp-1234567", old)
	other := mk(".s.json.tmp-1234567", old)
	notOurs := mk(".r.json.tmp-notes", old)
	fresh := mk(".r.json.tmp-7654321", time.Now())
	locked := mk(".r.json.tmp-5555555", old)
	f, err := os.Open(locked)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Another open file description, as a live writer's process holds.
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	if err := results.Write(path, runfixture.SampleRun("r", []int{8}, 1, 1, 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("the stale temporary file is still there")
	}
	for _, p := range []string{other, notOurs, fresh, locked} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
}

// TestWriteReplacesItsOwnFile: a run's first write makes its file before any step; its
// last, interrupted with still no step, replaces that file, which is its own; a file
// put there since by someone else is not replaced by a run with nothing measured.
func TestWriteReplacesItsOwnFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "run.json")
	if err := results.Write(p, &results.Run{Label: "waiting"}); err != nil {
		t.Fatal(err)
	}
	if err := results.Write(p, &results.Run{Label: "waiting", Interrupted: true}); err != nil {
		t.Fatal(err)
	}
	if r, err := results.Read(p); err != nil || !r.Interrupted {
		t.Fatalf("own file not replaced: %v %+v", err, r)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("someone's notes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := results.Write(p, &results.Run{Label: "waiting", Interrupted: true}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "someone's notes\n" {
		t.Errorf("a file put there since was replaced by a run with nothing measured: %q", b)
	}
}
