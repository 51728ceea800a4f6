package main

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/pgmanaged"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/results"
)

// stallRun starts a long run (20 paced 3 s steps) as a child process on a private
// server, its --pgdata, with grace as --reconnect-grace, and returns once its first
// step is in the result file: the server the tests stop is then one the run was
// measuring.
func stallRun(t *testing.T, grace string) (*pgmanaged.Cluster, *child, string) {
	t.Helper()
	c := testpg.PrivateCluster(t)
	testdb.LoadedTaken(t, c.URL("postgres"), "brokerbench")
	out := filepath.Join(t.TempDir(), "stall.json")
	users := strings.TrimSuffix(strings.Repeat("2,", 20), ",")
	ch := startChild(t, "run", "--pgdata", c.DataDir, "--users", users, "--step", "3s", "--warmup", "1s", "--rate", "20",
		"--io-device", "none", "--reconnect-grace", grace, "--out", out)
	waitRunFile(t, ch, out, func(r *results.Run) bool { return len(r.Steps) >= 1 })
	return c, ch, out
}

// waitRunFile polls the run's result file until ok holds; the run ending first, or
// three minutes passing, fails the test.
func waitRunFile(t *testing.T, ch *child, out string, ok func(*results.Run) bool) *results.Run {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if r, err := results.Read(out); err == nil && ok(r) {
			return r
		}
		select {
		case <-ch.done:
			t.Fatalf("the run ended (exit %d) first:\n%s", ch.code, ch.output())
		default:
		}
	}
	t.Fatalf("the run's file never got there:\n%s", ch.output())
	return nil
}

// TestStallServerLost: the whole server is stopped (SIGSTOP) after the first step
// and stays stopped past the grace period. The run ends by itself, exit 1, saying
// the server stopped answering (not that it refused), keeps the finished step and
// skips the check; it does not wait for the server to continue.
func TestStallServerLost(t *testing.T) {
	t.Parallel()
	c, ch, out := stallRun(t, "3s")
	resume := testpg.StopCluster(t, c)
	stopped := time.Now()
	code := ch.wait(t) // the server stays stopped until the run ended: a run that waits for it fails here
	took := time.Since(stopped)
	resume()
	if code != exitRuntime {
		t.Fatalf("exit %d, want %d\n%s", code, exitRuntime, ch.output())
	}
	stderr := ch.stderrString()
	for _, want := range []string{"the server stopped answering at ", "no answer to them or to the liveness probe for 3s", "the consistency check was skipped"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "refused") {
		t.Errorf("a stopped server was reported as refusing:\n%s", stderr)
	}
	// The grace, the 3 s before a silence counts, and the shutdown: a minute is
	// generous on a busy machine and far below waiting for the server.
	if took > time.Minute {
		t.Errorf("the run took %s to give the stopped server up", took)
	}
	r, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if first := r.Steps[0]; first.Partial || first.TPS <= 0 {
		t.Errorf("step 1 %+v: the finished step was not kept whole", first)
	}
	last := r.Steps[len(r.Steps)-1]
	if last.Partial && !slices.Contains(last.Flags, results.FlagServerLost) {
		t.Errorf("the cut step's flags %v lack %s", last.Flags, results.FlagServerLost)
	}
	t.Logf("gave up %s after the stop: %s", took.Round(time.Second), strings.TrimSpace(stderr[strings.LastIndex(stderr, "brokerbench: "):]))
}

// TestStallRiddenOut: the server is stopped for 6 s, well within a minute's grace.
// The run rides it out: the step the silence ended in is flagged server-stall with
// its length (in the file and its printed row), and the run measures again after.
func TestStallRiddenOut(t *testing.T) {
	t.Parallel()
	c, ch, out := stallRun(t, "1m")
	resume := testpg.StopCluster(t, c)
	time.Sleep(6 * time.Second) // the stall's length, not a synchronisation
	resume()
	back := time.Now()
	r := waitRunFile(t, ch, out, func(r *results.Run) bool {
		last := r.Steps[len(r.Steps)-1]
		return last.StartedAt.After(back) && last.TPS > 0 &&
			slices.ContainsFunc(r.Steps, func(st results.Step) bool { return st.Faults != nil && st.Faults.ServerStalls > 0 })
	})
	ch.signal(t, syscall.SIGINT)
	if code := ch.wait(t); code != exitInterrupted {
		t.Errorf("exit %d after the interrupt\n%s", code, ch.output())
	}
	var stalls int
	for i, st := range r.Steps {
		f := st.Faults
		if f == nil {
			continue
		}
		if f.ServerLost || f.ServerOutages > 0 {
			t.Errorf("step %d faults %+v: a stall taken for a lost or refusing server", i+1, f)
		}
		if f.ServerStalls > 0 {
			stalls += f.ServerStalls
			// At least the 6 s the server was confirmed stopped, less the probe's
			// second; the upper bound only catches a stall that never ended.
			if f.ServerStallS < 5 || f.ServerStallS > 40 || !slices.Contains(st.Flags, results.FlagServerStall) {
				t.Errorf("step %d: stall of %.1f s, flags %v", i+1, f.ServerStallS, st.Flags)
			}
		}
	}
	if stalls != 1 {
		t.Errorf("%d stalls recorded, want 1\n%s", stalls, ch.output())
	}
	if !strings.Contains(ch.stdoutString(), "server-stall: no answer for ") {
		t.Errorf("no step row shows the stall:\n%s", ch.stdoutString())
	}
}

// TestStallInterrupted: Ctrl-C while the server is stopped ends the run (exit 130)
// with its finished steps, without waiting for the server: it stays stopped until
// the run has ended.
func TestStallInterrupted(t *testing.T) {
	t.Parallel()
	c, ch, out := stallRun(t, "5m")
	resume := testpg.StopCluster(t, c)
	defer resume()
	ch.signal(t, syscall.SIGINT)
	signalled := time.Now()
	if code := ch.wait(t); code != exitInterrupted {
		t.Fatalf("exit %d, want %d\n%s", code, exitInterrupted, ch.output())
	}
	t.Logf("ended %s after the interrupt", time.Since(signalled).Round(100*time.Millisecond))
	r, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Interrupted || len(r.Steps) == 0 || r.Steps[0].Partial || r.Steps[0].TPS <= 0 {
		t.Errorf("interrupted %v, %d steps: want the finished first step kept", r.Interrupted, len(r.Steps))
	}
}

// TestStallSlowServerNotLost: every table of the run's database is locked by
// another session until the run's transactions have waited twice the grace period.
// The server is slow, not stopped (it answers the liveness probe), so the run is not
// ended or flagged; it measures again once the locks go.
func TestStallSlowServerNotLost(t *testing.T) {
	t.Parallel()
	c, ch, out := stallRun(t, "3s")
	dsn := c.URL("brokerbench")
	release := lockAllTables(t, dsn)
	defer release()
	admin := testpg.OpenDB(t, dsn, database.Options{MaxConns: 1})
	// Timed by the server: the longest lock wait of the run's sessions.
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(100 * time.Millisecond) {
		var waited float64
		if err := admin.QueryRow(context.Background(), `SELECT COALESCE(max(extract(epoch FROM now() - state_change)), 0)::float8
			FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'brokerbench run' AND wait_event_type = 'Lock'`).Scan(&waited); err != nil {
			t.Fatal(err)
		}
		if waited > 6 {
			break
		}
		select {
		case <-ch.done:
			t.Fatalf("the run ended (exit %d) while its server was only slow:\n%s", ch.code, ch.output())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run's sessions never waited 6 s on the locks:\n%s", ch.output())
		}
	}
	release()
	back := time.Now()
	r := waitRunFile(t, ch, out, func(r *results.Run) bool {
		last := r.Steps[len(r.Steps)-1]
		return last.StartedAt.After(back) && last.TPS > 0
	})
	ch.signal(t, syscall.SIGINT)
	if code := ch.wait(t); code != exitInterrupted {
		t.Errorf("exit %d after the interrupt\n%s", code, ch.output())
	}
	for i, st := range r.Steps {
		if f := st.Faults; f != nil && (f.ServerLost || f.ServerStalls > 0 || f.ServerOutages > 0) {
			t.Errorf("step %d of a slow server: faults %+v", i+1, f)
		}
	}
	if strings.Contains(ch.stderrString(), "stopped answering") {
		t.Errorf("a slow server was called stopped:\n%s", ch.stderrString())
	}
}

// lockAllTables takes an exclusive lock on every table of dsn's database in a
// transaction it keeps open; release (idempotent) rolls it back. The run's
// transactions in flight may deadlock with the locks as they are taken: the server
// then cancels one side, and the locks are taken again.
func lockAllTables(t *testing.T, dsn string) (release func()) {
	t.Helper()
	var tables string
	db := testpg.OpenDB(t, dsn, database.Options{MaxConns: 1})
	if err := db.QueryRow(context.Background(), `SELECT string_agg(quote_ident(tablename), ', ' ORDER BY tablename)
		FROM pg_tables WHERE schemaname = current_schema()`).Scan(&tables); err != nil {
		t.Fatal(err)
	}
	for attempt := 0; ; attempt++ {
		release, err := holdLock(dsn, "LOCK TABLE "+tables+" IN ACCESS EXCLUSIVE MODE")
		if err == nil {
			return func() { _ = release() }
		}
		if database.Classify(err) != database.Retry || attempt == 20 {
			t.Fatalf("lock every table: %v", err)
		}
	}
}

// holdLock runs stmt in a transaction held open until release, which ends it
// (idempotent) and returns the transaction's error.
func holdLock(dsn, stmt string) (release func() error, err error) {
	ctx := context.Background()
	db, err := database.Open(ctx, dsn, database.Options{MaxConns: 1})
	if err != nil {
		return nil, err
	}
	held, done, stop := make(chan struct{}), make(chan error, 1), make(chan struct{})
	go func() {
		done <- db.InTx(ctx, database.ReadCommitted, func(tx database.Tx) error {
			if _, err := tx.Exec(ctx, stmt); err != nil {
				return err
			}
			close(held)
			<-stop
			return nil
		})
	}()
	select {
	case <-held:
	case err := <-done:
		db.Close()
		return nil, err
	}
	var once sync.Once
	var txErr error
	return func() error {
		once.Do(func() {
			close(stop)
			txErr = <-done
			db.Close()
		})
		return txErr
	}, nil
}
