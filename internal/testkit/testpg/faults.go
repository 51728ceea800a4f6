package testpg

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/prometheus/procfs"
)

// Fault injection for the tests of issue 8: real faults on the real server, never a
// mock. Each helper needs the managed cluster this process started (restart, pause)
// or only SQL (terminate).

// TerminateBackends ends every other backend connected to dsn's database, as an
// operator's pg_terminate_backend would, and returns how many it ended.
func TerminateBackends(t testing.TB, dsn string) int {
	t.Helper()
	return QueryInt(t, dsn, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`)
}

// childrenOf returns the processes whose parent is pid, from /proc.
func childrenOf(pid int) []int {
	var kids []int
	procs, _ := procfs.AllProcs()
	for _, p := range procs {
		if st, err := p.Stat(); err == nil && st.PPID == pid {
			kids = append(kids, p.PID)
		}
	}
	return kids
}

// procStat reads a process's /proc/PID/stat; ok is false when the process is gone
// or there is no /proc.
func procStat(pid int) (procfs.ProcStat, bool) {
	p, err := procfs.NewProc(pid)
	if err != nil {
		return procfs.ProcStat{}, false
	}
	st, err := p.Stat()
	return st, err == nil
}

// stopAndConfirm sends SIGSTOP to pids and waits until the kernel reports each one
// stopped (state T) or gone (exited). A signal is delivered when the process is next
// scheduled, which on a busy machine may take a while; only a confirmed stop is a
// stalled server.
func stopAndConfirm(pids []int) error {
	for _, p := range pids {
		_ = syscall.Kill(p, syscall.SIGSTOP)
	}
	deadline := time.Now().Add(time.Minute)
	for _, p := range pids {
		for {
			st, ok := procStat(p)
			// Z: a backend that exited; a stopped postmaster cannot reap it.
			if !ok || strings.Contains("TtZX", st.State) {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("server process %d still running (state %s) a minute after SIGSTOP", p, st.State)
			}
			time.Sleep(time.Millisecond)
		}
	}
	return nil
}

// Stall is when a paused server was confirmed stopped: from the moment the kernel
// reported its last process stopped to the moment before the first SIGCONT.
type Stall struct{ From, Until time.Time }

// Duration is how long the server was confirmed stopped; 0 when the pause failed.
func (s Stall) Duration() time.Duration { return s.Until.Sub(s.From) }

// Pause stops every process of the managed server for at least d (SIGSTOP, then
// SIGCONT): a stalled server, as a saturated array or a hung controller looks to
// clients. It returns when the server was confirmed stopped. That, not a latency a
// client happened to see, proves the stall: on a busy machine the signals and the
// clients' timings both move.
//
// The server is the process's shared one, so the caller must own it for the while:
// no test that runs in parallel (t.Parallel) may use it. Tests that only need
// in-flight transactions to hang can hold locks in their own database instead. It
// skips the test when the tests do not run their own cluster. On failure it marks
// the test failed and returns a zero Stall, so it may run in a goroutine of the test.
func Pause(t testing.TB, d time.Duration) Stall {
	t.Helper()
	return pause(t, d, func() {})
}

// PauseAsync pauses the server for d (Pause) in the background. stopped is closed
// once every server process is confirmed stopped (or the pause failed); stall waits
// for the server to run again and returns the Stall.
func PauseAsync(t testing.TB, d time.Duration) (stopped <-chan struct{}, stall func() Stall) {
	t.Helper()
	if Cluster(t) == nil {
		t.Skip("pausing the server needs the tests' own managed cluster (unset " + EnvDSN + ")")
	}
	st, done := make(chan struct{}), make(chan struct{})
	var s Stall
	go func() {
		defer close(done)
		s = pause(t, d, func() { close(st) })
	}()
	return st, func() Stall { <-done; return s }
}

// pause is Pause, calling stopped once the whole server is confirmed stopped (or
// the pause failed).
func pause(t testing.TB, d time.Duration, stopped func()) Stall {
	t.Helper()
	var once sync.Once
	defer once.Do(stopped)
	c := Cluster(t)
	if c == nil {
		t.Skip("pausing the server needs the tests' own managed cluster (unset " + EnvDSN + ")")
	}
	pm, err := c.PostmasterPID()
	if err != nil {
		t.Errorf("pause: %v", err)
		return Stall{}
	}
	// The postmaster first, confirmed stopped before its children are listed: a
	// stopped postmaster forks no backend the list would miss.
	pids := []int{pm}
	resume := func() {
		for _, p := range pids {
			_ = syscall.Kill(p, syscall.SIGCONT)
		}
	}
	defer resume()
	if err := stopAndConfirm(pids); err != nil {
		t.Errorf("pause: %v", err)
		return Stall{}
	}
	kids := childrenOf(pm)
	pids = append(pids, kids...)
	if err := stopAndConfirm(kids); err != nil {
		t.Errorf("pause: %v", err)
		return Stall{}
	}
	s := Stall{From: time.Now()}
	once.Do(stopped)
	time.Sleep(d)
	s.Until = time.Now()
	resume()
	return s
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
