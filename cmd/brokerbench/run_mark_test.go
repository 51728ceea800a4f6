package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testdb"
)

// TestSecondRunWarns: two runs on one database at once. The second says that another
// run is active and what that does to the figures; the first, alone when it started,
// says nothing of the kind. The first is a child process that holds its lock from
// before its first step until it is interrupted.
func TestSecondRunWarns(t *testing.T) {
	t.Parallel()
	dsn := testdb.Loaded(t)
	dir := t.TempDir()
	first := runArgs(dsn, filepath.Join(dir, "first.json"), "1")
	for i, a := range first {
		if a == "--step" {
			first[i+1] = "10m" // it runs until the test interrupts it
		}
	}
	c := startChild(t, first...)
	c.waitLine(t, "step 1/1") // its live line: the run is past open, its lock held
	code, stdout, stderr := runMain(runArgs(dsn, filepath.Join(dir, "second.json"), "1")...)
	if code != 0 {
		t.Fatalf("the second run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	const warned = "another brokerbench run is active on this database"
	if !strings.Contains(stderr, warned) || !strings.Contains(stderr, "Trade-Cleanup cancels the other's pending trades") {
		t.Errorf("the second run did not warn:\n%s", stderr)
	}
	c.signal(t, syscall.SIGINT)
	if code := c.wait(t); code != exitInterrupted {
		t.Errorf("the first run: exit %d after the interrupt\n%s", code, c.output())
	}
	if strings.Contains(c.output(), warned) {
		t.Errorf("the first run, alone when it started, warned:\n%s", c.output())
	}
}
