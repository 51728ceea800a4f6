package testpg

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
)

// Fault injection for the tests of issue 8: real faults on the real server, never a
// mock. Each helper needs the managed cluster this process started (restart, pause)
// or only SQL (terminate).

// TerminateBackends ends every other backend connected to dsn's database, as an
// operator's pg_terminate_backend would, and returns how many it ended.
func TerminateBackends(t testing.TB, dsn string) int {
	t.Helper()
	db, err := database.Open(context.Background(), dsn, database.Options{MaxConns: 1})
	if err != nil {
		t.Fatalf("terminate backends: %v", err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(context.Background(), `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`).Scan(&n); err != nil {
		t.Fatalf("terminate backends: %v", err)
	}
	return n
}

// serverPIDs returns the postmaster and its children.
func serverPIDs(postmaster int) []int {
	pids := []int{postmaster}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// Fields after the command name (which may hold spaces) start after ") ".
		s := string(b)
		i := strings.LastIndex(s, ") ")
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+2:])
		if len(f) > 1 {
			if ppid, _ := strconv.Atoi(f[1]); ppid == postmaster {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

// Pause stops every process of the managed server for d (SIGSTOP, then SIGCONT): a
// stalled server, as a saturated array or a hung controller looks to clients. It
// skips the test when the tests do not run their own cluster.
func Pause(t testing.TB, d time.Duration) {
	t.Helper()
	c := Cluster(t)
	if c == nil {
		t.Skip("pausing the server needs the tests' own managed cluster (unset " + EnvDSN + ")")
	}
	pm, err := c.PostmasterPID()
	if err != nil {
		t.Fatalf("pause: %v", err)
	}
	pids := serverPIDs(pm)
	for _, p := range pids {
		_ = syscall.Kill(p, syscall.SIGSTOP)
	}
	time.Sleep(d)
	for _, p := range pids {
		_ = syscall.Kill(p, syscall.SIGCONT)
	}
}

// PauseAsync pauses the server for d starting after delay, without blocking.
func PauseAsync(t testing.TB, delay, d time.Duration) <-chan struct{} {
	t.Helper()
	if Cluster(t) == nil {
		t.Skip("pausing the server needs the tests' own managed cluster (unset " + EnvDSN + ")")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(delay)
		Pause(t, d)
	}()
	return done
}

// Restart restarts the managed server (fast shutdown: every connection is cut).
func Restart(t testing.TB) {
	t.Helper()
	c := Cluster(t)
	if c == nil {
		t.Skip("restarting the server needs the tests' own managed cluster (unset " + EnvDSN + ")")
	}
	if err := c.Restart(context.Background()); err != nil {
		t.Fatalf("restart: %v", err)
	}
}

// ErrorSummary is a small helper for messages.
func ErrorSummary(err error) string { return fmt.Sprintf("%v (class %s)", err, database.Classify(err)) }
