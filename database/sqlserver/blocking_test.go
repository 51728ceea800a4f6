package sqlserver_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/sqlserver"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
)

// These tests provoke SQL Server's blocking behaviour on purpose, two sessions in a
// known order, and check what the load driver sees: the error number, its class and
// how many attempts a retry loop with the workload's policy (txn.MaxAttempts, retry
// on database.Retry) needs. A session waits for the other by polling the server's
// DMVs (sys.dm_exec_requests.blocking_session_id), never by sleeping; that needs
// VIEW SERVER STATE (VIEW SERVER PERFORMANCE STATE on 2022), and the tests skip with
// one line when the login cannot see other sessions.

// maxAttempts is txn.MaxAttempts (this package may not import txn).
const maxAttempts = 10

// blockingDB returns a pool on a fresh database holding table blk with rows 1 and 2,
// v = 0, and a pool to watch sessions from.
func blockingDB(t *testing.T, params string) database.DB {
	t.Helper()
	dsn := testdb.SQLServerDB(t)
	db := Open(t, dsn+params)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, s := range []string{
		"CREATE TABLE blk (id INT NOT NULL PRIMARY KEY CLUSTERED, v INT NOT NULL)",
		"INSERT INTO blk (id, v) VALUES (1, 0), (2, 0)",
	} {
		if _, err := db.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return db
}

// session is one transaction on its own connection, run by a goroutine step by step:
// the test sends it statements in the order it wants and reads each result.
type session struct {
	spid  int
	steps chan func(tx database.Tx) error
	errs  chan error
	done  chan error
}

// begin starts a transaction at iso on a connection of db and returns once the
// session knows its @@SPID.
func begin(t *testing.T, ctx context.Context, db database.DB, iso database.Isolation) *session {
	t.Helper()
	s := &session{steps: make(chan func(database.Tx) error), errs: make(chan error), done: make(chan error, 1)}
	ready := make(chan error, 1)
	go func() {
		s.done <- db.InTx(ctx, iso, func(tx database.Tx) error {
			if err := tx.QueryRow(ctx, "SELECT @@SPID").Scan(&s.spid); err != nil {
				ready <- err
				return err
			}
			ready <- nil
			for step := range s.steps {
				err := step(tx)
				s.errs <- err
				if err != nil {
					return err
				}
			}
			return nil
		})
	}()
	if err := <-ready; err != nil {
		t.Fatalf("begin: %v", err)
	}
	return s
}

// do runs one statement in the session and waits for it.
func (s *session) do(sql string, args ...any) error {
	s.start(sql, args...)
	return <-s.errs
}

// start sends one statement without waiting; wait collects its result.
func (s *session) start(sql string, args ...any) {
	s.steps <- func(tx database.Tx) error {
		_, err := tx.Exec(context.Background(), sql, args...)
		return err
	}
}

func (s *session) wait() error { return <-s.errs }

// commit ends the session's transaction and returns InTx's result.
func (s *session) commit() error {
	close(s.steps)
	return <-s.done
}

// blockingViews are the DMVs and columns the blocking tests watch other sessions
// through; a server without one of them (a T-SQL server that is not Microsoft's)
// cannot show blocking, and the tests skip naming what is missing.
var blockingViews = []string{
	"SELECT TOP (0) session_id FROM sys.dm_exec_sessions",
	"SELECT TOP (0) session_id, blocking_session_id, wait_type FROM sys.dm_exec_requests",
	"SELECT TOP (0) resource_type, request_mode, request_status, request_session_id FROM sys.dm_tran_locks",
}

// requireSessionsVisible skips the test, after ending the other session, when the
// server lacks a view the test watches through, or the login sees only its own
// session in them: blocking could not be observed.
func requireSessionsVisible(t *testing.T, ctx context.Context, db database.DB, other *session) {
	t.Helper()
	for _, q := range blockingViews {
		rows, err := db.Query(ctx, q)
		if err == nil {
			rows.Close()
			continue
		}
		if sqlserver.Unavailable(err) {
			_ = other.commit()
			t.Skipf("the server cannot show blocking (%s): %s: %v", sqlserver.Reason(err), q, err)
		}
		t.Fatalf("%s: %v", q, err)
	}
	var n int
	if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM sys.dm_exec_sessions WHERE session_id = @p1", other.spid).Scan(&n); err != nil {
		t.Fatalf("read sys.dm_exec_sessions: %v", err)
	}
	if n == 0 {
		_ = other.commit()
		t.Skip("the login sees only its own session in sys.dm_exec_sessions (needs VIEW SERVER STATE): blocking test skipped")
	}
}

// waitBlocked polls until session waiter is waiting on a lock that blocker holds.
// The bound only turns a hang into a failure; on a busy server it is far away.
func waitBlocked(t *testing.T, ctx context.Context, db database.DB, waiter, blocker int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var n int
		err := db.QueryRow(ctx, `SELECT COUNT(*) FROM sys.dm_exec_requests
			WHERE session_id = @p1 AND blocking_session_id = @p2 AND wait_type LIKE 'LCK[_]M[_]%'`, waiter, blocker).Scan(&n)
		if err != nil {
			t.Fatalf("poll sys.dm_exec_requests: %v", err)
		}
		if n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("session %d never waited on a lock of session %d", waiter, blocker)
		}
		time.Sleep(10 * time.Millisecond) // a poll interval, not a wait for an event
	}
}

// retry runs body in transactions at iso the way txn's executor does: again on
// database.Retry, up to maxAttempts. before runs ahead of each attempt. It returns the
// attempts made, the errors of the failed ones and the final error.
func retry(ctx context.Context, db database.DB, iso database.Isolation, before func(attempt int), body func(attempt int, tx database.Tx) error) (int, []error, error) {
	var failed []error
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		if before != nil {
			before(attempt)
		}
		err := db.InTx(ctx, iso, func(tx database.Tx) error { return body(attempt, tx) })
		if err == nil {
			return attempt, failed, nil
		}
		if database.Classify(err) != database.Retry {
			return attempt, failed, err
		}
		failed = append(failed, err)
	}
	return maxAttempts, failed, fmt.Errorf("gave up after %d attempts", maxAttempts)
}

func values(t *testing.T, ctx context.Context, db database.DB) (v1, v2 int) {
	t.Helper()
	if err := db.QueryRow(ctx, "SELECT (SELECT v FROM blk WHERE id = 1), (SELECT v FROM blk WHERE id = 2)").Scan(&v1, &v2); err != nil {
		t.Fatal(err)
	}
	return v1, v2
}

// TestSQLServerUpdLockRowLockBlocks: the workload's FOR UPDATE translation, WITH
// (UPDLOCK, ROWLOCK), takes an update lock on the one key it reads and holds it to
// commit: a second UPDLOCK read of the same row waits (on a KEY resource, mode U),
// one of another row and a plain read of the same row do not.
func TestSQLServerUpdLockRowLockBlocks(t *testing.T) {
	db := blockingDB(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	a := begin(t, ctx, db, database.ReadCommitted)
	if err := a.do("SELECT v FROM blk WITH (UPDLOCK, ROWLOCK) WHERE id = 1"); err != nil {
		t.Fatalf("A locks row 1: %v", err)
	}
	requireSessionsVisible(t, ctx, db, a)
	b := begin(t, ctx, db, database.ReadCommitted)
	// Should ROWLOCK not hold, these would wait: a lock timeout turns that into 1222
	// instead of a hang.
	for _, s := range []string{"SET LOCK_TIMEOUT 30000", "SELECT v FROM blk WITH (UPDLOCK, ROWLOCK) WHERE id = 2", "SELECT v FROM blk WHERE id = 1"} {
		if err := b.do(s); err != nil {
			t.Fatalf("B: %s: %v (number %d)", s, err, sqlserver.ErrorNumber(err))
		}
	}
	b.start("UPDATE blk SET v = v + 1 WHERE id = 1")
	waitBlocked(t, ctx, db, b.spid, a.spid)
	var resource, mode string
	err := db.QueryRow(ctx, `SELECT TOP (1) resource_type, request_mode FROM sys.dm_tran_locks
		WHERE request_session_id = @p1 AND request_status = 'WAIT'`, b.spid).Scan(&resource, &mode)
	if err != nil || resource != "KEY" || mode != "U" {
		t.Errorf("B waits on %q in mode %q (%v), want a KEY lock in mode U", resource, mode, err)
	}
	if err := a.commit(); err != nil {
		t.Fatalf("A commit: %v", err)
	}
	if err := b.wait(); err != nil {
		t.Fatalf("B's update after A committed: %v", err)
	}
	if err := b.commit(); err != nil {
		t.Fatalf("B commit: %v", err)
	}
	if v1, v2 := values(t, ctx, db); v1 != 1 || v2 != 0 {
		t.Errorf("v = %d, %d; want 1, 0", v1, v2)
	}
}

// TestSQLServerLockTimeoutIsRetried: with SET LOCK_TIMEOUT, a request that waits too
// long fails with 1222, classified Retry; SQL Server cancels only the statement, the
// retry rolls the transaction back and runs again, and succeeds once the holder has
// committed: 2 attempts.
func TestSQLServerLockTimeoutIsRetried(t *testing.T) {
	db := blockingDB(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	a := begin(t, ctx, db, database.ReadCommitted)
	if err := a.do("UPDATE blk SET v = v + 1 WHERE id = 1"); err != nil {
		t.Fatalf("A locks row 1: %v", err)
	}
	var aErr error
	attempts, failed, err := retry(ctx, db, database.ReadCommitted,
		func(attempt int) {
			if attempt == 2 { // the holder goes away only after the first timeout
				aErr = a.commit()
			}
		},
		func(attempt int, tx database.Tx) error {
			if _, err := tx.Exec(ctx, "SET LOCK_TIMEOUT 500"); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "UPDATE blk SET v = v + 10 WHERE id = 1")
			return err
		})
	if aErr != nil {
		t.Fatalf("A commit: %v", aErr)
	}
	if err != nil || attempts != 2 || len(failed) != 1 {
		t.Fatalf("%d attempts, failures %v, final %v; want 2 attempts, the first a lock timeout", attempts, failed, err)
	}
	// 1222 on SQL Server; another T-SQL server may spell it otherwise (Babelfish:
	// its unmapped number with PostgreSQL's lock timeout), the meaning is the same.
	if n := sqlserver.ErrorNumber(failed[0]); sqlserver.Reason(failed[0]) != "lock timeout" || database.Classify(failed[0]) != database.Retry {
		t.Errorf("first attempt: %v (number %d, class %s), want a lock timeout (1222), retry", failed[0], n, database.Classify(failed[0]))
	}
	if v1, _ := values(t, ctx, db); v1 != 11 {
		t.Errorf("v = %d, want 11: A's +1 and one +10", v1)
	}
}

// TestSQLServerDeadlockVictimIsRetried: A locks row 1, B row 2, A waits for row 2,
// then B asks for row 1. B runs at DEADLOCK_PRIORITY LOW, so the lock monitor makes
// it the victim: 1205, classified Retry, its transaction already rolled back by the
// server; A then finishes, and B's second attempt succeeds. Each row ends with A's +1
// and exactly one +10 of B.
func TestSQLServerDeadlockVictimIsRetried(t *testing.T) {
	db := blockingDB(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	a := begin(t, ctx, db, database.ReadCommitted)
	if err := a.do("UPDATE blk SET v = v + 1 WHERE id = 1"); err != nil {
		t.Fatalf("A locks row 1: %v", err)
	}
	requireSessionsVisible(t, ctx, db, a)
	// Before the second attempt A must be done: its update of row 2 was freed by the
	// deadlock, and B's second attempt would otherwise wait for A's commit.
	var aWait, aCommit error
	finishA := func(attempt int) {
		if attempt == 2 {
			aWait = a.wait()
			aCommit = a.commit()
		}
	}
	attempts, failed, err := retry(ctx, db, database.ReadCommitted, finishA, func(attempt int, tx database.Tx) error {
		if _, err := tx.Exec(ctx, "SET DEADLOCK_PRIORITY LOW"); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE blk SET v = v + 10 WHERE id = 2"); err != nil {
			return err
		}
		if attempt == 1 {
			var spid int
			if err := tx.QueryRow(ctx, "SELECT @@SPID").Scan(&spid); err != nil {
				return err
			}
			a.start("UPDATE blk SET v = v + 1 WHERE id = 2")
			waitBlocked(t, ctx, db, a.spid, spid)
		}
		_, err := tx.Exec(ctx, "UPDATE blk SET v = v + 10 WHERE id = 1")
		return err
	})
	if aWait != nil {
		t.Fatalf("A's update of row 2: %v (number %d): A, not B, was chosen as victim", aWait, sqlserver.ErrorNumber(aWait))
	}
	if aCommit != nil {
		t.Fatalf("A commit: %v", aCommit)
	}
	if err != nil || attempts != 2 || len(failed) != 1 {
		t.Fatalf("%d attempts, failures %v, final %v; want 2 attempts, the first a deadlock victim", attempts, failed, err)
	}
	if n := sqlserver.ErrorNumber(failed[0]); n != 1205 || database.Classify(failed[0]) != database.Retry {
		t.Errorf("first attempt: %v (number %d, class %s), want 1205 retry", failed[0], n, database.Classify(failed[0]))
	}
	if v1, v2 := values(t, ctx, db); v1 != 11 || v2 != 11 {
		t.Errorf("v = %d, %d; want 11, 11: the victim's first attempt must leave nothing behind", v1, v2)
	}
}

// TestSQLServerSnapshotUpdateConflictIsRetried: a transaction at SNAPSHOT reads a row,
// another session updates and commits it, and the first then updates it: 3960
// (update conflict), classified Retry, the transaction rolled back by the server; the
// second attempt takes a new snapshot and succeeds. The snapshot read-committed mode
// runs ReadOnlyCommitted at SNAPSHOT, which is how this test gets a SNAPSHOT
// transaction; the workload itself never writes there.
func TestSQLServerSnapshotUpdateConflictIsRetried(t *testing.T) {
	dsn := testdb.SQLServerDB(t)
	requireSnapshotAllowed(t, dsn)
	plain := Open(t, dsn)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	for _, s := range []string{
		"CREATE TABLE blk (id INT NOT NULL PRIMARY KEY CLUSTERED, v INT NOT NULL)",
		"INSERT INTO blk (id, v) VALUES (1, 0), (2, 0)",
	} {
		if _, err := plain.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	snap := Open(t, dsn+"&"+sqlserver.ReadCommittedParam+"=snapshot")
	var concurrent error
	attempts, failed, err := retry(ctx, snap, database.ReadOnlyCommitted, nil, func(attempt int, tx database.Tx) error {
		var v int
		if err := tx.QueryRow(ctx, "SELECT v FROM blk WHERE id = 1").Scan(&v); err != nil { // the snapshot starts here
			return err
		}
		if attempt == 1 {
			// Another session changes the row and commits; SNAPSHOT takes no shared
			// locks, so it does not wait for this transaction.
			if _, concurrent = plain.Exec(ctx, "UPDATE blk SET v = v + 1 WHERE id = 1"); concurrent != nil {
				return concurrent
			}
		}
		_, err := tx.Exec(ctx, "UPDATE blk SET v = @p1 WHERE id = 1", v+10)
		return err
	})
	if concurrent != nil {
		t.Fatalf("the concurrent update: %v", concurrent)
	}
	if err != nil || attempts != 2 || len(failed) != 1 {
		t.Fatalf("%d attempts, failures %v, final %v; want 2 attempts, the first an update conflict", attempts, failed, err)
	}
	// 3960 on SQL Server; where SNAPSHOT is PostgreSQL's repeatable read (Babelfish)
	// the same conflict is a serialization failure.
	n := sqlserver.ErrorNumber(failed[0])
	if n != 3960 && sqlserver.Reason(failed[0]) != "serialization failure" || database.Classify(failed[0]) != database.Retry {
		t.Errorf("first attempt: %v (number %d, class %s), want an update conflict (3960), retry", failed[0], n, database.Classify(failed[0]))
	}
	if v1, _ := values(t, ctx, plain); v1 != 11 {
		t.Errorf("v = %d, want 11: the committed +1, then +10 on the new snapshot (no lost update)", v1)
	}
}
