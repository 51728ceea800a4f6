package txn

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testdb"
	"github.com/brokerbench/brokerbench/internal/testmdb"
	"github.com/brokerbench/brokerbench/loader"
)

// TestOnLoadedMariaDB runs the database tests every engine shares on a MariaDB load
// of the test scale and seed (the harness's server, a database of the test's own):
// each transaction's effects on the rows, a write conflict rerun as on PostgreSQL
// (innodb_snapshot_isolation, docs/mysql.md §3), the concurrent mix with its
// invariants, and check.
func TestOnLoadedMariaDB(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the test scale into MariaDB; skipped with -short")
	}
	db := testmdb.Open(t, testmdb.DSN(t), database.Options{MaxConns: loader.MaxConnections + 4})
	if _, err := loader.Load(context.Background(), db, loader.Options{Scale: testdb.Scale, Seed: testdb.Seed, ToolVersion: "test"}, nil); err != nil {
		t.Fatal(err)
	}
	onLoaded(t, db)
}

// innodbLocksIdle is how often waitForInnoDBLockWait polls: InnoDB refreshes its
// lock tables in information_schema only after they went unread for 100 ms
// (trx0i_s.cc, so that one query's joins read one copy), and a faster poll keeps
// reading the same stale copy; at 10 ms the wait showed after 20 s or not at all.
const innodbLocksIdle = 150 * time.Millisecond

// waitForInnoDBLockWait polls InnoDB's transactions until one waits for a lock that
// the connection holder's transaction holds: the event the test synchronises on,
// not a sleep. It gives up after two minutes.
func waitForInnoDBLockWait(ctx context.Context, db database.DB, holder int64) error {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var n int
		if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM information_schema.innodb_lock_waits w
			JOIN information_schema.innodb_trx b ON b.trx_id = w.blocking_trx_id
			WHERE b.trx_mysql_thread_id = ?`, holder).Scan(&n); err != nil {
			return fmt.Errorf("poll information_schema.innodb_lock_waits: %w", err)
		}
		if n > 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no transaction waited on connection %d's lock within two minutes", holder)
		}
		time.Sleep(innodbLocksIdle)
	}
}
