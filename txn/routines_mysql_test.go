package txn

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testmdb"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/schema"
)

// mariadbLoaded returns two databases on the test MariaDB (internal/testkit/testmdb), each a
// copy of a load at the test scale and seed (testdb.MariaDBLoaded), and the first's
// DSN. The copies have the tables, their indexes, foreign keys and rows and the
// trade-id sequence, not the routines, which the test installs.
func mariadbLoaded(t *testing.T) (dsn string, loaded, copied database.DB) {
	t.Helper()
	dsn = testdb.MariaDBLoaded(t)
	loaded = testmdb.Open(t, dsn, database.Options{MaxConns: loader.MaxConnections})
	copied = testmdb.Open(t, testdb.MariaDBLoaded(t), database.Options{MaxConns: 4})
	return dsn, loaded, copied
}

// mariadbModes is the cross-mode test's MariaDB (docs/workload.md §13): two copies of
// the test load (the server mode on the first; its DSN goes to *dsn), every table
// fingerprinted whole by its row count and CHECKSUM TABLE (MariaDB has no row
// versions telling the rows a run wrote; both start from the same rows), but for the
// load marker, which holds the load's times, not rows the workload writes.
func mariadbModes(dsn *string) modeEngine {
	return modeEngine{
		open: func(t *testing.T) (database.DB, database.DB) {
			var loaded, copied database.DB
			*dsn, loaded, copied = mariadbLoaded(t)
			return copied, loaded
		},
		sql:          mustRender(database.MySQL),
		mark:         func(*testing.T, database.DB) int64 { return 0 },
		fingerprints: mariadbFingerprints,
		noViolations: mustNoViolations,
	}
}

func mariadbFingerprints(db database.DB, _ int64) (map[string]string, error) {
	ctx := context.Background()
	out := map[string]string{}
	for _, tb := range append(schema.Tables(), schema.MetaTables()...) {
		if tb.Name == schema.LoadMarkerTable {
			continue
		}
		var n int64
		var name, sum string
		if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM "+tb.Name).Scan(&n); err != nil {
			return nil, fmt.Errorf("%s: %w", tb.Name, err)
		}
		if err := db.QueryRow(ctx, "CHECKSUM TABLE "+tb.Name).Scan(&name, &sum); err != nil {
			return nil, fmt.Errorf("%s: %w", tb.Name, err)
		}
		out[tb.Name] = fmt.Sprintf("%d rows, %s", n, sum)
	}
	return out, nil
}

// TestMariaDBFramesServerDoesTheClientsWork is the cross-mode test on MariaDB: every
// transaction in client mode and through the stored procedures of
// txn/routines/mysql.sql, with the same outcomes, outputs, checks (SQLSTATE BBC0n)
// and intended rollbacks (BBR01), and the same rows in every table after. On the same
// load it then makes a procedure lose a write conflict (1020, as the client mode's
// retry test does) and time out on a row lock (1205), each retried.
func TestMariaDBFramesServerDoesTheClientsWork(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the test scale into MariaDB; skipped with -short")
	}
	var dsn string
	framesServerDoesTheClientsWork(t, mariadbModes(&dsn))
	if t.Failed() {
		return
	}
	t.Run("a write conflict inside a procedure is retried", func(t *testing.T) {
		db := testmdb.Open(t, dsn, database.Options{MaxConns: 4})
		retryOnSerializationFailure(t, db, newTestExecutor(db, 7, WithFrames(ServerFrames)))
	})
	t.Run("a lock wait timeout inside a procedure is retried", func(t *testing.T) { mariadbRetriesALockWaitTimeout(t, dsn) })
}

// mariadbRetriesALockWaitTimeout: a server-mode Trade-Update frame 1 whose procedure
// waits on a row lock another session holds gets the lock wait timeout (1205, the
// session's innodb_lock_wait_timeout set to 1 s through the DSN), is classified as a
// retry and runs again; the other session lets go once a second attempt waits, so the
// transaction succeeds, every trade's executor name toggled once (the timed-out
// attempt's updates were rolled back).
func mariadbRetriesALockWaitTimeout(t *testing.T, dsn string) {
	ctx := context.Background()
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	db := testmdb.Open(t, dsn+sep+"innodb_lock_wait_timeout=1", database.Options{MaxConns: 2})
	other := testmdb.Open(t, dsn, database.Options{MaxConns: 2})
	e := newTestExecutor(db, 7, WithFrames(ServerFrames))
	var in TradeLookupInput
	for in.Frame != 1 {
		in = e.gen.TradeUpdate()
	}
	names := func() []string {
		var out []string
		for _, id := range in.TradeIDs {
			out = append(out, q1[string](t, other, "SELECT t_exec_name FROM trade WHERE t_id = ?", id))
		}
		return out
	}
	before := names()
	// The holder writes the name the trade has: only its lock matters.
	finish := holdTradeRow(ctx, other, in.TradeIDs[len(in.TradeIDs)-1], before[len(before)-1], func(holder int64) error {
		return waitForInnoDBWaiters(ctx, other, holder, 2) // the timed-out attempt and its retry
	})
	o, res, err := e.tradeUpdate(ctx, in)
	if err := finish(); err != nil {
		t.Fatal(err)
	}
	if err != nil || res.Updated != len(in.TradeIDs) {
		t.Fatalf("Trade-Update: %v, updated %d of %d", err, res.Updated, len(in.TradeIDs))
	}
	if o.Attempts < 2 || o.Statements != o.Attempts {
		t.Fatalf("attempts %d, statements %d; want at least two attempts (a lock wait timeout, a retry), one call each", o.Attempts, o.Statements)
	}
	for i, name := range names() {
		if want := toggleExecName(before[i]); name != want {
			t.Errorf("trade %d: executor name %q, want %q (toggled once)", in.TradeIDs[i], name, want)
		}
	}
}

// TestMariaDBRoutinesInstallAndVersion is the install test (routinesInstallAndVersion)
// on MariaDB, where every CREATE commits, so concurrent installs take turns under a
// named lock rather than a transaction; the marker is looked up in the session's
// database only, so another database of the server has none.
func TestMariaDBRoutinesInstallAndVersion(t *testing.T) {
	db := testmdb.Open(t, testmdb.DSN(t), database.Options{MaxConns: 6})
	other := testmdb.Open(t, testmdb.DSN(t), database.Options{MaxConns: 1})
	routinesInstallAndVersion(t, db, func() int {
		return q1[int](t, db, `SELECT COUNT(*) FROM information_schema.routines
WHERE routine_schema = DATABASE() AND routine_name LIKE 'bb\_%'`)
	}, func() {
		if v, _, err := InstalledRoutines(context.Background(), other); err != nil || v != 0 {
			t.Fatalf("another database of the server: version %d, %v; want none", v, err)
		}
	})
}
