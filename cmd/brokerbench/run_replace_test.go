package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

func TestReplaceDisturbedUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--replace-disturbed", "1"}, "--replace-disturbed needs --repeat 2 or more"},
		{[]string{"--repeat", "3", "--replace-disturbed", "-1"}, "--replace-disturbed must be 0 or more, got -1"},
	} {
		args := append([]string{"run", "--db", "postgres://127.0.0.1:1/none"}, c.args...)
		code, out, errOut := runMain(args...)
		if code != 2 || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, want 2 and one line %q\nstdout:\n%s\nstderr:\n%s", c.args, code, c.want, out, errOut)
		}
	}
}

// TestRunReplacesDisturbedRepeat disturbs every window on a private server: the test
// issues a CHECKPOINT every half second for as long as the run lasts, so every step's
// window holds a completed checkpoint (one of a small, mostly clean database takes far
// less than the 3 s window). With --repeat 2
// --replace-disturbed 1, repeat 1 is set aside and runs again, the replacement is
// kept because the budget is spent, and repeat 2 is kept too. --settle off: a server
// checkpointing without pause may never hold still, and settling is not what this
// test checks.
func TestRunReplacesDisturbedRepeat(t *testing.T) {
	t.Parallel()
	c := testpg.PrivateCluster(t)
	dsn := testdb.LoadedTaken(t, c.URL("postgres"), "brokerbench")
	dir := t.TempDir()
	out := filepath.Join(dir, "h810.json")

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	checkpoints := make(chan error, 1)
	go func() {
		db, err := database.Open(ctx, c.URL("postgres"), database.Options{MaxConns: 1, AppName: "test checkpoints"})
		if err != nil {
			checkpoints <- err
			return
		}
		defer db.Close()
		// Paced, not synchronised: a checkpoint every half second puts several in each
		// 3 s window and leaves the machine's disk to the other tests between them.
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			if _, err := db.Exec(ctx, "CHECKPOINT"); err != nil && ctx.Err() == nil {
				checkpoints <- err
				return
			}
			select {
			case <-ctx.Done():
				checkpoints <- nil
				return
			case <-tick.C:
			}
		}
	}()
	code, stdout, stderr := runMain("run", "--db", dsn, "--users", "2", "--step", "3s", "--warmup", "1s", "--rate", "20",
		"--no-check", "--settle", "off", "--repeat", "2", "--replace-disturbed", "1", "--out", out)
	stop()
	if err := <-checkpoints; err != nil {
		t.Fatalf("the test's checkpoints: %v", err)
	}
	if code != 0 {
		t.Fatalf("run: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"repeat 1 of 2 was disturbed at 2 users (checkpoint (",
		"running it again (1 of 1 replacements used); its file is kept as h810-disturbed-r1.json",
		"kept as it is: the 1 replacement(s) --replace-disturbed allows are used (compare names it)",
		"repeat 2 of 2 was disturbed at 2 users (checkpoint (",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the log lacks %q:\n%s", want, stderr)
		}
	}
	for name, replaced := range map[string]int{"h810-disturbed-r1.json": 0, "h810-r1.json": 1, "h810-r2.json": 0} {
		r, err := results.Read(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if r.Repeat == nil || r.Repeat.Replaced != replaced || len(r.Steps) != 1 || !figures.Disturbed(&r.Steps[0]) {
			t.Errorf("%s: repeat %+v, %d steps, want %d replaced and a disturbed step", name, r.Repeat, len(r.Steps), replaced)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "h810*.json")); len(m) != 3 {
		t.Errorf("files %v, want the two kept repeats and one set aside", m)
	}
}
