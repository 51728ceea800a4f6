package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
)

// TestSecondRunRefused: a second unsharded run on a database a run holds refuses
// before its first step, naming the first run's host, pid and start; the first goes
// on undisturbed (its Trade-Cleanup and the second's would cancel each other's
// pending trades) and ends as an interrupted run does.
func TestSecondRunRefused(t *testing.T) {
	t.Parallel()
	dsn := testdb.Loaded(t)
	first := startHoldingRun(t, dsn)
	out := filepath.Join(t.TempDir(), "second.json")
	code, stdout, stderr := runMain(runArgs(dsn, out, "1")...)
	if code != exitRuntime {
		t.Fatalf("the second run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	t.Logf("the second run: %s", stderr)
	for _, want := range append([]string{"another brokerbench run is active on"}, first.named...) {
		if !strings.Contains(stderr, want) {
			t.Errorf("the second run did not name the first (%q):\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "step 1/") {
		t.Errorf("the second run started a step:\n%s", stderr)
	}
	first.stop(t)
	if strings.Contains(first.output(), "another brokerbench run") {
		t.Errorf("the first run, alone when it started, was told of another:\n%s", first.output())
	}
}
