package sqlserver_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/sqlserver"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/schema"
)

// These tests run against the SQL Server named by BROKERBENCH_SQLSERVER_DSN and skip
// with one line when it is unset.

func Open(t *testing.T, dsn string) database.DB {
	t.Helper()
	return testpg.OpenDB(t, dsn, database.Options{MaxConns: 4, AppName: "brokerbench-test"})
}

// sliceSource is a RowSource over generated rows.
type sliceSource struct {
	n, i int
	row  func(i int) []any
	cur  []any
}

func (s *sliceSource) Next() bool {
	if s.i >= s.n {
		return false
	}
	s.cur = s.row(s.i)
	s.i++
	return true
}
func (s *sliceSource) Values() ([]any, error) { return s.cur, nil }
func (s *sliceSource) Err() error             { return nil }

func TestSQLServerDialect(t *testing.T) {
	dsn := testdb.SQLServerDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	db := Open(t, dsn)
	if db.Name() != database.SQLServer {
		t.Fatalf("dialect %s", db.Name())
	}
	if tg := db.Target(); strings.Contains(tg, "password") || !strings.Contains(tg, "database bbtest_") {
		t.Errorf("target %q", tg)
	}

	// Schema: every table and the trade-id sequence.
	ddl := sqlserver.Engine.DDL
	// The loader's path: heaps first, keys after the data.
	kd, ok := ddl.(database.KeyDeferrer)
	if !ok {
		t.Fatal("the SQL Server DDL does not defer keys")
	}
	tables := append(schema.Tables(), schema.MetaTables()...)
	for _, tb := range tables {
		if _, err := db.Exec(ctx, kd.CreateTableWithoutKey(tb)); err != nil {
			t.Fatalf("create %s: %v", tb.Name, err)
		}
	}
	for _, s := range []string{ddl.DropSequence(schema.TradeIDSequence), ddl.CreateSequence(schema.TradeIDSequence, 500)} {
		if _, err := db.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}

	// Bulk: a fixed table with BIT columns, then a table large enough for two
	// batches with DECIMAL, DATETIME2, INT and a NULL-able column.
	tt := []struct {
		id, name     string
		sell, market bool
	}{{"TMB", "Market-Buy", false, true}, {"TMS", "Market-Sell", true, true}, {"TLB", "Limit-Buy", false, false}}
	n, err := db.Bulk(ctx, "trade_type", []string{"tt_id", "tt_name", "tt_is_sell", "tt_is_mrkt"}, &sliceSource{n: len(tt), row: func(i int) []any {
		return []any{tt[i].id, tt[i].name, tt[i].sell, tt[i].market}
	}})
	if err != nil || n != int64(len(tt)) {
		t.Fatalf("bulk trade_type: %d rows, %v", n, err)
	}
	const chargeRows = 3
	n, err = db.Bulk(ctx, "charge", []string{"ch_tt_id", "ch_c_tier", "ch_chrg"}, &sliceSource{n: chargeRows, row: func(i int) []any {
		return []any{tt[i].id, int16(i + 1), 2.5 + float64(i)}
	}})
	if err != nil || n != chargeRows {
		t.Fatalf("bulk charge: %d rows, %v", n, err)
	}
	const lastTrades = 150_000 // more than one bulk batch
	base := time.Date(2005, 1, 3, 9, 0, 0, 0, time.UTC)
	n, err = db.Bulk(ctx, "last_trade", []string{"lt_s_symb", "lt_dts", "lt_price", "lt_open_price", "lt_vol"}, &sliceSource{n: lastTrades, row: func(i int) []any {
		return []any{symbolOf(i), base.Add(time.Duration(i) * time.Millisecond), float64(2000+i%1000) / 100, 25.37, int64(i)}
	}})
	if err != nil || n != lastTrades {
		t.Fatalf("bulk last_trade: %d rows, %v", n, err)
	}
	var count int64
	var sumPrice, sumOpen string
	var maxDts time.Time
	if err := db.QueryRow(ctx, "SELECT COUNT_BIG(*), CAST(SUM(lt_price) AS varchar(40)), CAST(SUM(lt_open_price) AS varchar(40)), MAX(lt_dts) FROM last_trade").
		Scan(&count, &sumPrice, &sumOpen, &maxDts); err != nil {
		t.Fatal(err)
	}
	// sum over i of (2000 + i%1000)/100 for 150 full cycles of 1000.
	if count != lastTrades || sumPrice != "3749250.00" || sumOpen != "3805500.00" {
		t.Errorf("last_trade: count %d, sum price %s, sum open %s (decimals must arrive exact)", count, sumPrice, sumOpen)
	}
	if want := base.Add((lastTrades - 1) * time.Millisecond); !maxDts.Equal(want) {
		t.Errorf("max lt_dts %v, want %v (DATETIME2 wall clock)", maxDts, want)
	}
	var tier int
	var chrg string
	if err := db.QueryRow(ctx, "SELECT ch_c_tier, CAST(ch_chrg AS varchar(20)) FROM charge WHERE ch_tt_id = CAST(@p1 AS VARCHAR(3))", "TLB").Scan(&tier, &chrg); err != nil || tier != 3 || chrg != "4.50" {
		t.Errorf("charge TLB: tier %d chrg %s err %v", tier, chrg, err)
	}

	// Post-load DDL: keys, then indexes, then the foreign keys whose tables are loaded.
	for _, tb := range tables {
		if _, err := db.Exec(ctx, kd.AddPrimaryKey(tb)); err != nil {
			t.Fatalf("add key of %s: %v", tb.Name, err)
		}
	}
	babelfish := serverProduct(t, ctx, db) == sqlserver.BabelfishProduct
	var fill int
	if err := db.QueryRow(ctx, "SELECT fill_factor FROM sys.indexes WHERE name = 'pk_broker'").Scan(&fill); babelfish && err == nil && fill == 0 {
		t.Logf("Babelfish reports no fill factor in sys.indexes (its gap): not checked")
	} else if err != nil || fill != 10 {
		t.Errorf("broker key fill factor %d (%v), want 10", fill, err)
	}
	if sz, ok := db.(database.Sizer); !ok {
		t.Error("no table sizes")
	} else if heap, total, err := sz.TableBytes(ctx, "last_trade"); babelfish && errors.Is(err, database.ErrUnavailable) {
		t.Logf("table sizes unavailable, as on Babelfish (no sys.allocation_units): %v", err)
	} else if err != nil || heap < 150_000*30 || total < heap {
		t.Errorf("last_trade size: heap %d total %d (%v)", heap, total, err)
	}
	for _, tb := range tables {
		for _, s := range ddl.Indexes(tb) {
			if _, err := db.Exec(ctx, s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
	}
	for _, tb := range tables {
		if tb.Name == "charge" {
			for _, s := range ddl.ForeignKeys(tb) {
				if _, err := db.Exec(ctx, s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
		}
	}

	// The sequence hands out the start value first.
	var next int64
	if err := db.QueryRow(ctx, "SELECT NEXT VALUE FOR "+schema.TradeIDSequence).Scan(&next); err != nil || next != 500 {
		t.Errorf("NEXT VALUE FOR: %d, %v", next, err)
	}

	// InTx commits, ErrRollback rolls back, and no row is ErrNoRows.
	err = db.InTx(ctx, database.RepeatableRead, func(tx database.Tx) error {
		n, err := tx.Exec(ctx, "UPDATE last_trade SET lt_vol = lt_vol + @p1 WHERE lt_s_symb = CAST(@p2 AS VARCHAR(15))", int64(10), symbolOf(7))
		if err == nil && n != 1 {
			t.Errorf("update affected %d rows", n)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.InTx(ctx, database.Serializable, func(tx database.Tx) error {
		if _, err := tx.Exec(ctx, "UPDATE last_trade SET lt_vol = 0 WHERE lt_s_symb = CAST(@p1 AS VARCHAR(15))", symbolOf(7)); err != nil {
			return err
		}
		return database.ErrRollback
	})
	if !errors.Is(err, database.ErrRollback) || database.Classify(err) != database.Rollback {
		t.Fatalf("intended rollback: %v", err)
	}
	var vol int64
	if err := db.QueryRow(ctx, "SELECT lt_vol FROM last_trade WHERE lt_s_symb = CAST(@p1 AS VARCHAR(15))", symbolOf(7)).Scan(&vol); err != nil || vol != 17 {
		t.Errorf("lt_vol = %d (%v), want 17: commit kept, rollback undone", vol, err)
	}
	if err := db.QueryRow(ctx, "SELECT lt_vol FROM last_trade WHERE lt_s_symb = CAST(@p1 AS VARCHAR(15))", "NOPE").Scan(&vol); !errors.Is(err, database.ErrNoRows) {
		t.Errorf("missing row: %v, want ErrNoRows", err)
	}

	// Classification: a lock timeout is Retry (1222, or Babelfish's spelling of it), a
	// duplicate key Fatal.
	held := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- db.InTx(ctx, database.RepeatableRead, func(tx database.Tx) error {
			if _, err := tx.Exec(ctx, "UPDATE last_trade SET lt_vol = lt_vol + 1 WHERE lt_s_symb = CAST(@p1 AS VARCHAR(15))", symbolOf(8)); err != nil {
				close(held)
				return err
			}
			close(held)
			<-release
			return nil
		})
	}()
	<-held
	err = db.InTx(ctx, database.ReadCommitted, func(tx database.Tx) error {
		if _, err := tx.Exec(ctx, "SET LOCK_TIMEOUT 200"); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "UPDATE last_trade SET lt_vol = 1 WHERE lt_s_symb = CAST(@p1 AS VARCHAR(15))", symbolOf(8))
		return err
	})
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("lock holder: %v", err)
	}
	if sqlserver.Reason(err) != "lock timeout" || database.Classify(err) != database.Retry || !babelfish && sqlserver.ErrorNumber(err) != 1222 {
		t.Errorf("lock timeout: %v (number %d, class %s), want a lock timeout (1222 on SQL Server), retry", err, sqlserver.ErrorNumber(err), database.Classify(err))
	}
	_, err = db.Exec(ctx, "INSERT INTO trade_type (tt_id, tt_name, tt_is_sell, tt_is_mrkt) VALUES (@p1, @p2, @p3, @p4)", "TMB", "dup", false, false)
	if database.Classify(err) != database.Fatal || sqlserver.ErrorNumber(err) != 2627 {
		t.Errorf("duplicate key: %v, want fatal 2627", err)
	}

	info, err := db.Server(ctx)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case babelfish:
		// Recorded as itself, what it emulates kept apart, its differences noted.
		if info.Version == "" || info.Num == 0 || info.Settings["emulated_sqlserver_version"] == "" || len(info.Notes) == 0 {
			t.Errorf("Babelfish server info %+v", info)
		}
	case info.Product != "SQL Server" || info.Version == "" || info.Num < 1500000 || info.Edition == "":
		t.Errorf("server info %+v", info)
	}
	if info.Settings["recovery_model"] == "" || info.Settings["read_committed_mode"] == "" {
		t.Errorf("settings %v", info.Settings)
	}
	// The harness sets these where the server lets it (testdb.SQLServerDB).
	if testdb.SQLServerProbe(t).AlterSet && (info.Settings["recovery_model"] != "SIMPLE" || info.Settings["allow_snapshot_isolation"] != "ON") {
		t.Errorf("settings %v, want SIMPLE recovery and snapshot isolation allowed", info.Settings)
	}
	t.Logf("%s %s %s (%d), settings %v, notes %q", info.Product, info.Version, info.Edition, info.Num, info.Settings, info.Notes)

	// Drop works in any order (referencing keys are removed first).
	for _, tb := range tables {
		if _, err := db.Exec(ctx, ddl.DropTable(tb)); err != nil {
			t.Fatalf("drop %s: %v", tb.Name, err)
		}
	}
}

// TestSQLServerSnapshotMode opens the same database in the snapshot read-committed
// mode: read-only work runs at SNAPSHOT, writers stay at READ COMMITTED (a writer at
// SNAPSHOT would meet update conflicts that read committed never raises). It also
// checks the refusal of a mode the database cannot honour.
func TestSQLServerSnapshotMode(t *testing.T) {
	dsn := testdb.SQLServerDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	requireSnapshotAllowed(t, dsn)
	db := Open(t, dsn+"&"+sqlserver.ReadCommittedParam+"=snapshot")
	// sys.dm_exec_sessions.transaction_isolation_level: 2 read committed, 5 snapshot.
	for _, c := range []struct {
		iso  database.Isolation
		want int
	}{{database.ReadOnlyCommitted, 5}, {database.ReadCommitted, 2}} {
		var level int
		err := db.InTx(ctx, c.iso, func(tx database.Tx) error {
			return tx.QueryRow(ctx, "SELECT transaction_isolation_level FROM sys.dm_exec_sessions WHERE session_id = @@SPID").Scan(&level)
		})
		if err != nil || level != c.want {
			t.Errorf("%s in snapshot mode ran at level %d (%v), want %d", c.iso, level, err, c.want)
		}
	}
	info, err := db.Server(ctx)
	if err != nil || info.Settings["read_committed_mode"] != "snapshot" {
		t.Errorf("mode not recorded: %v %v", info.Settings, err)
	}
	// The mode the database cannot honour is refused: rcsi where
	// READ_COMMITTED_SNAPSHOT is OFF (a new database on SQL Server), locking where it
	// is ON (Babelfish reports it ON for every database).
	var rcsiOn bool
	if err := db.QueryRow(ctx, "SELECT is_read_committed_snapshot_on FROM sys.databases WHERE database_id = DB_ID()").Scan(&rcsiOn); err != nil {
		t.Fatal(err)
	}
	mode, want := "rcsi", "READ_COMMITTED_SNAPSHOT ON"
	if rcsiOn {
		mode, want = "locking", "READ_COMMITTED_SNAPSHOT OFF"
	}
	_, err = database.Open(ctx, dsn+"&"+sqlserver.ReadCommittedParam+"="+mode, database.Options{})
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%s on a database without %s: %v", mode, want, err)
	}
}

// serverProduct is the product the engine records for the test server.
func serverProduct(t *testing.T, ctx context.Context, db database.DB) string {
	t.Helper()
	info, err := db.Server(ctx)
	if err != nil {
		t.Fatalf("describe the server: %v", err)
	}
	return info.Product
}

// requireSnapshotAllowed skips a test that needs ALLOW_SNAPSHOT_ISOLATION ON when the
// server refused to set it on the test database (testdb.SQLServerDB logs why).
func requireSnapshotAllowed(t *testing.T, dsn string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db := Open(t, dsn)
	var state string
	if err := db.QueryRow(ctx, "SELECT snapshot_isolation_state_desc FROM sys.databases WHERE database_id = DB_ID()").Scan(&state); err != nil {
		t.Fatalf("read snapshot_isolation_state_desc: %v", err)
	}
	if state != "ON" {
		t.Skipf("the test database has ALLOW_SNAPSHOT_ISOLATION %s (the server refused ALTER DATABASE ... SET): snapshot test skipped", state)
	}
}

func symbolOf(i int) string {
	const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	b := []byte("S")
	for {
		b = append(b, letters[i%26])
		i /= 26
		if i == 0 {
			return string(b)
		}
	}
}

// TestSQLServerTryLock: a run's mark (sp_getapplock with no wait) is taken when free,
// refused at once while another session holds it, and free again after the release.
func TestSQLServerTryLock(t *testing.T) {
	dsn := testdb.SQLServerDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	first, second := Open(t, dsn).(database.Locker), Open(t, dsn).(database.Locker)
	unlock, held, err := first.TryLock(ctx, "brokerbench test lock")
	if err != nil || !held {
		t.Fatalf("a free lock: held %v, %v", held, err)
	}
	if _, held, err := second.TryLock(ctx, "brokerbench test lock"); err != nil || held {
		t.Errorf("a lock another session holds: held %v, %v; want refused", held, err)
	}
	unlock()
	unlock2, held, err := second.TryLock(ctx, "brokerbench test lock")
	if err != nil || !held {
		t.Fatalf("a released lock: held %v, %v", held, err)
	}
	unlock2()
}
