package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
)

// holdingRun is a run of dsn in a child process that holds the database until the
// test interrupts it, and the words that name it as the holder.
type holdingRun struct {
	*child
	named []string
}

// startHoldingRun starts a run with one long step and waits until its holder row is
// in the database (the run holds its lock before it writes the row).
func startHoldingRun(t *testing.T, dsn string) holdingRun {
	t.Helper()
	args := runArgs(dsn, filepath.Join(t.TempDir(), "holder.json"), "1")
	for i, a := range args {
		if a == "--step" {
			args[i+1] = "10m" // it runs until the test interrupts it
		}
	}
	c := startChild(t, args...)
	pid := c.cmd.Process.Pid
	db := testpg.OpenDB(t, dsn, database.Options{MaxConns: 1})
	deadline := time.Now().Add(3 * time.Minute)
	for {
		var n int
		// The table does not exist before the run's first row: an error is "not yet".
		err := db.QueryRow(context.Background(), "SELECT count(*) FROM bb_run WHERE pid = $1", pid).Scan(&n)
		if err == nil && n == 1 {
			break
		}
		select {
		case <-c.done:
			t.Fatalf("the holding run ended (exit %d) before its holder row appeared:\n%s", c.code, c.output())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no holder row of pid %d after 3 minutes (last error: %v):\n%s", pid, err, c.output())
		}
	}
	host, _ := os.Hostname()
	return holdingRun{child: c, named: []string{"host " + host, fmt.Sprintf("pid %d", pid), "started "}}
}

// stop interrupts the run and checks it ends as an interrupted run does.
func (h holdingRun) stop(t *testing.T) {
	t.Helper()
	h.signal(t, syscall.SIGINT)
	if code := h.wait(t); code != exitInterrupted {
		t.Errorf("the holding run: exit %d after the interrupt\n%s", code, h.output())
	}
}

// While a run holds the database, load --drop and schema drop refuse, naming the
// run's host, pid and start, and every table stays with its rows.
func TestDropRefusedWhileARunHolds(t *testing.T) {
	t.Parallel()
	dsn := testdb.Loaded(t)
	h := startHoldingRun(t, dsn)
	customers := testpg.QueryInt(t, dsn, "SELECT count(*) FROM customer")
	for _, name := range []string{"load --drop", "schema drop"} {
		code, stdout, stderr := dropCommand(name, dsn)
		if code != exitRuntime {
			t.Errorf("%s while a run holds the database: exit %d\n%s\n%s", name, code, stdout, stderr)
		}
		t.Logf("%s: %s", name, stderr)
		for _, want := range append([]string{"a brokerbench run holds"}, h.named...) {
			if !strings.Contains(stderr, want) {
				t.Errorf("%s did not name the holder (%q):\n%s", name, want, stderr)
			}
		}
		if got := testpg.QueryInt(t, dsn, "SELECT count(*) FROM customer"); got != customers {
			t.Errorf("after %s customer holds %d rows of %d", name, got, customers)
		}
	}
	h.stop(t)
}
