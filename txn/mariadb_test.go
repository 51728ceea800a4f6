package txn

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testmdb"
	"github.com/brokerbench/brokerbench/loader"
)

// TestOnLoadedMariaDB runs the database tests every engine shares on a copy of a
// MariaDB load of the test scale and seed (testdb.MariaDBLoaded, a database of the
// test's own): each transaction's effects on the rows, a write conflict rerun as on
// PostgreSQL (innodb_snapshot_isolation, docs/mysql.md §3), the concurrent mix with
// its invariants, and check.
func TestOnLoadedMariaDB(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the test scale into MariaDB; skipped with -short")
	}
	onLoaded(t, testmdb.Open(t, testdb.MariaDBLoaded(t), database.Options{MaxConns: loader.MaxConnections + 4}))
}

// innodbLocksIdle is how often waitForInnoDBWaiters polls: InnoDB refreshes its
// lock tables in information_schema only after they went unread for 100 ms
// (trx0i_s.cc, so that one query's joins read one copy), and a faster poll keeps
// reading the same stale copy; at 10 ms the wait showed after 20 s or not at all.
const innodbLocksIdle = 150 * time.Millisecond

// waitForInnoDBLockWait polls InnoDB's lock waits until one transaction waits for
// a lock that the connection holder's transaction holds: the event the test
// synchronises on, not a sleep.
func waitForInnoDBLockWait(ctx context.Context, db database.DB, holder int64) error {
	return waitForInnoDBWaiters(ctx, db, holder, 1)
}

// waitForInnoDBWaiters polls InnoDB's lock waits until n different transactions
// have waited on a lock the connection holder holds (a retried transaction waits
// again under a new id). Only waits on holder's locks count: InnoDB's
// information_schema copy can still show an earlier test's wait. It gives up after
// two minutes.
func waitForInnoDBWaiters(ctx context.Context, db database.DB, holder int64, n int) error {
	deadline := time.Now().Add(2 * time.Minute)
	seen := map[string]bool{}
	for len(seen) < n {
		rows, err := db.Query(ctx, `SELECT w.requesting_trx_id FROM information_schema.innodb_lock_waits w
			JOIN information_schema.innodb_trx b ON b.trx_id = w.blocking_trx_id
			WHERE b.trx_mysql_thread_id = ?`, holder)
		err = scanRows(rows, err, func(r database.Rows) error {
			var id string
			err := r.Scan(&id)
			seen[id] = true
			return err
		})
		if err != nil {
			return fmt.Errorf("poll information_schema.innodb_lock_waits: %w", err)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d transactions waited on connection %d's lock within two minutes, want %d", len(seen), holder, n)
		}
		time.Sleep(innodbLocksIdle)
	}
	return nil
}
