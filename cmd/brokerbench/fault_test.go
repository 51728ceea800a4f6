package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/results"
)

// childArgsEnv carries the command line of a brokerbench the tests start as a child
// process (the test binary run again): signals and SIGKILL need a process of their own.
const childArgsEnv = "BROKERBENCH_FAULT_CHILD_ARGS"

// TestFaultChild is the child's body; it does nothing in a normal test run.
func TestFaultChild(t *testing.T) {
	enc := os.Getenv(childArgsEnv)
	if enc == "" {
		t.Skip("only the child process of the fault tests runs this")
	}
	var args []string
	if err := json.Unmarshal([]byte(enc), &args); err != nil {
		t.Fatal(err)
	}
	os.Exit(Main(args, os.Stdout, os.Stderr))
}

// child is a running brokerbench process with its output captured.
type child struct {
	cmd         *exec.Cmd
	mu          sync.Mutex
	stdout, err bytes.Buffer
	lines       chan string // stderr, line by line
	done        chan struct{}
	code        int
}

func startChild(t *testing.T, args ...string) *child {
	t.Helper()
	return startChildVia(t, os.Args[0], args...)
}

// startChildVia starts the child through program, a wrapper that execs this test
// binary with its arguments (testloop.Throttle's, to run it in a blkio group).
func startChildVia(t *testing.T, program string, args ...string) *child {
	t.Helper()
	enc, _ := json.Marshal(args)
	cmd := exec.Command(program, "-test.run=^TestFaultChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), childArgsEnv+"="+string(enc))
	c := &child{cmd: cmd, lines: make(chan string, 1000), done: make(chan struct{})}
	cmd.Stdout = &lockedWriter{mu: &c.mu, w: &c.stdout}
	pr, pw := io.Pipe()
	cmd.Stderr = io.MultiWriter(&lockedWriter{mu: &c.mu, w: &c.err}, pw)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			select {
			case c.lines <- sc.Text():
			default:
			}
		}
	}()
	go func() {
		_ = cmd.Wait()
		pw.Close()
		c.code = cmd.ProcessState.ExitCode()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			c.code = 128 + int(ws.Signal())
		}
		close(c.done)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-c.done
	})
	return c
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// waitLine waits for a stderr line containing each of parts; the child failing first
// ends the test.
func (c *child) waitLine(t *testing.T, parts ...string) {
	t.Helper()
	s := strings.Join(parts, " … ")
	timeout := time.After(2 * time.Minute)
	for {
		select {
		case l := <-c.lines:
			if containsAll(l, parts) {
				return
			}
		case <-c.done:
			t.Fatalf("the child ended (exit %d) before printing %q:\n%s", c.code, s, c.output())
		case <-timeout:
			t.Fatalf("no %q from the child:\n%s", s, c.output())
		}
	}
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// wait waits for the child to end and returns its exit code (128+n for signal n).
func (c *child) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-c.done:
		return c.code
	case <-time.After(2 * time.Minute):
		t.Fatalf("the child did not end:\n%s", c.output())
		return -1
	}
}

func (c *child) stdoutString() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stdout.String()
}

func (c *child) stderrString() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err.String()
}

func (c *child) output() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return "stdout:\n" + c.stdout.String() + "\nstderr:\n" + c.err.String()
}

func (c *child) signal(t *testing.T, s syscall.Signal) {
	t.Helper()
	if err := c.cmd.Process.Signal(s); err != nil {
		t.Fatal(err)
	}
}

// runArgs is a short run of the loaded database into out, paced to 20 transaction
// starts a second: the fault tests check signals and files, not throughput, and a run
// at full speed would burn both cores of the machine for every second of its steps.
// 20 a second still gives every step dozens of transactions.
func runArgs(dsn, out string, users string) []string {
	return []string{"run", "--db", dsn, "--users", users, "--step", "3s", "--warmup", "1s", "--rate", "20", "--io-device", "none", "--no-check", "--out", out}
}

// TestFaultSIGTERM: SIGTERM (as a service manager or `timeout` sends it) during the
// second step keeps the first, marks the second partial, and exits 130.
func TestFaultSIGTERM(t *testing.T) {
	t.Parallel()
	dsn := testdb.Loaded(t)
	out := filepath.Join(t.TempDir(), "term.json")
	// Long steps: the signal must land inside step 2 even when a busy machine is slow
	// to deliver it.
	args := runArgs(dsn, out, "2,3,4")
	for i, a := range args {
		if a == "--step" {
			args[i+1] = "10s"
		}
	}
	c := startChild(t, args...)
	c.waitLine(t, "step 2/3", "measuring") // the live line, once step 2's window is open
	c.signal(t, syscall.SIGTERM)
	if code := c.wait(t); code != exitInterrupted {
		t.Fatalf("exit %d, want %d\n%s", code, exitInterrupted, c.output())
	}
	r, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Interrupted || len(r.Steps) != 2 || r.Steps[0].Partial || !r.Steps[1].Partial || r.Steps[0].TPS <= 0 {
		t.Errorf("interrupted %v, steps %+v", r.Interrupted, r.Steps)
	}
}

// TestFaultSecondSignal: with the run's transactions stalled in flight, the first
// Ctrl-C waits for them (their grace period); the second exits at once with 130, and
// the result file written after the last finished step is intact.
//
// The stall is a lock on the trade table of the test's own database, not a paused server:
// the server is shared with the package's parallel tests, and a lock lets the test
// see from pg_stat_activity that the run's sessions wait before it signals.
func TestFaultSecondSignal(t *testing.T) {
	t.Parallel()
	dsn := testdb.Loaded(t)
	out := filepath.Join(t.TempDir(), "twice.json")
	// Long steps: step 2 must still be running when the signals come, however slow a
	// busy machine is to take the locks.
	args := runArgs(dsn, out, "2,2,2")
	for i, a := range args {
		if a == "--step" {
			args[i+1] = "10s"
		}
	}
	c := startChild(t, args...)
	c.waitLine(t, "step 2/3")
	release := lockTrades(t, dsn)
	defer release()
	waitForLockWaits(t, dsn, "brokerbench run", 2) // both users hang in flight
	c.signal(t, syscall.SIGINT)
	c.waitLine(t, "finishing in-flight work")
	c.signal(t, syscall.SIGINT)
	code := c.wait(t)
	release()
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d\n%s", code, exitInterrupted, c.output())
	}
	o := c.output()
	if !strings.Contains(o, "second interrupt; exiting now") || strings.Contains(o, "finished step(s) written") {
		t.Errorf("the second signal did not end the process at once:\n%s", o)
	}
	r, err := results.Read(out)
	if err != nil {
		t.Fatalf("the result file after the second signal: %v", err)
	}
	if len(r.Steps) != 1 || r.Steps[0].Partial {
		t.Errorf("steps %+v: want the first, finished one", r.Steps)
	}
}

// lockTrades takes an exclusive lock on the trade table of dsn's database in a
// transaction it keeps open, so every transaction that reads or writes trades (most
// of the mix) hangs; release (idempotent) rolls it back. One table: the lock waits
// only for the transactions in flight and, holding nothing while it waits, cannot
// deadlock with them (locks on several tables could, and each deadlock costs a
// second of detection on a busy machine).
func lockTrades(t *testing.T, dsn string) (release func()) {
	t.Helper()
	rel, err := holdLock(dsn, "LOCK TABLE trade IN ACCESS EXCLUSIVE MODE")
	if err != nil {
		t.Fatalf("lock the trade table: %v", err)
	}
	return func() {
		if err := rel(); err != nil {
			t.Errorf("release the trade table: %v", err)
		}
	}
}

// waitForLockWaits polls pg_stat_activity until at least n sessions of dsn's
// database named app wait on a lock.
func waitForLockWaits(t *testing.T, dsn, app string, n int) {
	t.Helper()
	ctx := context.Background()
	db, err := database.Open(ctx, dsn, database.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		var waiting int
		if err := db.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND application_name = $1 AND wait_event_type = 'Lock'`, app).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of the %q sessions wait on a lock after two minutes, want %d", waiting, app, n)
		}
	}
}

// TestFaultKilled: SIGKILL (no chance to clean up) during a run leaves the result
// file as written after the last finished step: complete and readable, never
// truncated, because every write replaces the file atomically.
func TestFaultKilled(t *testing.T) {
	t.Parallel()
	dsn := testdb.Loaded(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "killed.json")
	c := startChild(t, runArgs(dsn, out, "2,2,2,2")...)
	// Killed right as step 3 starts: step 2's rewrite of the file has just happened.
	c.waitLine(t, "step 3/4")
	c.signal(t, syscall.SIGKILL)
	if code := c.wait(t); code != 128+int(syscall.SIGKILL) {
		t.Fatalf("exit %d\n%s", code, c.output())
	}
	r, err := results.Read(out)
	if err != nil {
		t.Fatalf("the result file after SIGKILL: %v", err)
	}
	if len(r.Steps) != 2 || r.Interrupted || !r.FinishedAt.IsZero() {
		t.Errorf("%d steps, interrupted %v, finished %v: want the two finished steps of an unfinished run", len(r.Steps), r.Interrupted, r.FinishedAt)
	}
	for i, st := range r.Steps {
		if st.Partial || st.TPS <= 0 {
			t.Errorf("step %d: %+v", i+1, st)
		}
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != "killed.json" {
			t.Logf("left beside the result file: %s", e.Name())
		}
	}
}

// TestFaultLoadCut: the server drops the loader's connections in the middle of the
// COPY phase. The load ends with one clear line and exit 1; the next load finds the
// unfinished one and names --resume and --drop; `load --resume` continues it from the
// segments committed before the cut and completes, and check passes. That completed
// load is also the package's end-to-end check of the load command
// (checkLoadEndToEnd: its summary, --quiet, --seed and the marker).
func TestFaultLoadCut(t *testing.T) {
	t.Parallel()
	dsn := testpg.NewDB(t)
	load := []string{"--db", dsn, "load", "--customers", "1000", "--trade-days", "5", "--seed", "7", "--quiet"}

	type res struct {
		code     int
		out, err string
	}
	done := make(chan res, 1)
	go func() {
		code, out, errb := runMain(load...)
		done <- res{code, out, errb}
	}()
	admin := testpg.OpenDB(t, dsn, database.Options{MaxConns: 1})
	// Cut once rows are being copied: the loader's sessions are in COPY.
	var cut int
	for deadline := time.Now().Add(time.Minute); cut == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var copying int
		if err := admin.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND application_name = 'brokerbench load' AND query ILIKE 'COPY%'`).Scan(&copying); err != nil {
			t.Fatal(err)
		}
		if copying > 0 {
			cut = testpg.TerminateBackends(t, dsn)
		}
	}
	r := <-done
	if cut == 0 {
		t.Fatalf("never saw the loader copy rows; load exit %d: %s", r.code, r.err)
	}
	if r.code != exitRuntime {
		t.Fatalf("load cut mid-COPY: exit %d, want 1\n%s\n%s", r.code, r.out, r.err)
	}
	oneErrorLine(t, r.err, "brokerbench: ", "lost the connection", "unfinished", "--resume", "--drop")
	if strings.Contains(r.err, ".go:") || strings.Contains(r.err, "goroutine ") {
		t.Errorf("a stack trace: %s", r.err)
	}
	t.Logf("cut load: %s", strings.TrimSpace(r.err))

	code, _, errb := runMain(load...)
	if code == 0 {
		t.Fatal("a load over the unfinished one succeeded without --drop")
	}
	oneErrorLine(t, errb, "unfinished", "--resume", "--drop")

	code, out, errb := runMain(append(load, "--resume")...)
	if code != 0 {
		t.Fatalf("load --resume after the cut: exit %d\n%s\n%s", code, out, errb)
	}
	checkLoadEndToEnd(t, dsn, code, out, errb)
	code, out, errb = runMain("--db", dsn, "check")
	if code != 0 || !strings.HasPrefix(out, "OK: ") {
		t.Errorf("check after load --resume: exit %d\n%s\n%s", code, out, errb)
	}
}

// TestFaultRunBackendsKilled: an operator kills every session of the database in
// the middle of a run's step. The run goes on and completes with exit 0, the
// result file reads back with the faults in the step that saw them, the report
// shows them, and the consistency check after the run passes.
func TestFaultRunBackendsKilled(t *testing.T) {
	t.Parallel()
	dsn := testdb.Loaded(t)
	out := filepath.Join(t.TempDir(), "killed-backends.json")
	// Six-second steps: the cut must land in step 1's window (1 s to 6 s) however
	// late a busy machine lets the test see the sessions. Paced, as runArgs: 100
	// starts a second keep the pool's sessions busy (a transaction every 10 ms, so a
	// killed session is found dead at its next use, not pinged and replaced first)
	// without burning both cores for the run's 14 seconds.
	args := []string{"run", "--db", dsn, "--users", "3,3", "--step", "6s", "--warmup", "1s", "--rate", "100", "--io-device", "none", "--out", out}
	admin := testpg.OpenDB(t, dsn, database.Options{MaxConns: 1})
	killed := make(chan int, 1)
	go func() {
		// The users' pool grows to its three sessions once the step's users run;
		// once the server says they have been connected for 1.5 s, the step is past
		// its 1 s warm-up and measuring (timed by the server, not by a sleep that a
		// busy machine stretches).
		for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			var n int
			if err := admin.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity
				WHERE datname = current_database() AND application_name = 'brokerbench run'
				AND backend_start < now() - interval '1.5 seconds'`).Scan(&n); err != nil || n >= 3 {
				break
			}
		}
		killed <- testpg.TerminateBackends(t, dsn)
	}()
	code, stdout, stderr := runMain(args...)
	if n := <-killed; n == 0 {
		t.Fatal("no backend was terminated")
	}
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "check: OK") {
		t.Errorf("no passing check after the run:\n%s", stdout)
	}
	r, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Steps) != 2 || r.Interrupted {
		t.Fatalf("%d steps, interrupted %v", len(r.Steps), r.Interrupted)
	}
	f := r.Steps[0].Faults
	if f == nil || f.ByClass["connection"] == 0 {
		t.Errorf("step 1 faults %+v: the killed sessions were not counted", f)
	}
	if r.Steps[1].TPS <= 0 {
		t.Errorf("step 2: %+v", r.Steps[1])
	}
	t.Logf("step 1 faults %+v; step 2 faults %+v", f, r.Steps[1].Faults)
}
