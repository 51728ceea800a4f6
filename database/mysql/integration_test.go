package mysql_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/mysql"
	_ "github.com/brokerbench/brokerbench/database/postgres" // the reference load
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testmdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/txn"
)

func TestMain(m *testing.M) {
	code := testpg.Main(m)
	testmdb.Stop()
	os.Exit(code)
}

// TestLoadRunCheckOnMariaDB loads the test scale into MariaDB through LOAD DATA from
// the loader's readers, and checks on that one load: exact cardinalities and a clean
// `check`; a fingerprint of every table equal to PostgreSQL's load of the same seed;
// every customer and timer transaction run for real; `check` still clean after them;
// the server facts and the storage figures.
func TestLoadRunCheckOnMariaDB(t *testing.T) {
	loadRunCheck(t, testmdb.DSN(t), "MariaDB", 100600)
}

// MySQLEnv names a MySQL 8.0+ database (mysql://user:password@host:port/db) that
// TestLoadRunCheckOnMySQL drops and loads; no MySQL server is started by the tests
// (Debian has none), so the test skips without it, as the SQL Server ones do.
const MySQLEnv = "BROKERBENCH_MYSQL_DSN"

// TestLoadRunCheckOnMySQL runs TestLoadRunCheckOnMariaDB's checks on a real MySQL,
// whose trade ids come from the counter table (no sequences).
func TestLoadRunCheckOnMySQL(t *testing.T) {
	dsn := os.Getenv(MySQLEnv)
	if dsn == "" {
		t.Skipf("%s is not set", MySQLEnv)
	}
	db := testmdb.Open(t, dsn, database.Options{MaxConns: 2})
	// A database brokerbench never loaded has nothing of it to drop.
	if err := loader.Drop(context.Background(), db); err != nil && !errors.Is(err, loader.ErrNotLoaded) {
		t.Fatal(err)
	}
	loadRunCheck(t, dsn, "MySQL", 80000)
}

func loadRunCheck(t *testing.T, dsn, product string, minVersion int) {
	ctx := context.Background()
	db := testmdb.Open(t, dsn, database.Options{MaxConns: loader.MaxConnections + 4})
	st, err := loader.Load(ctx, db, loader.Options{Scale: testdb.Scale, Seed: testdb.Seed, ToolVersion: "test"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, ts := range st.Tables {
		if schema.RowsExact(ts.Name) && ts.Rows != testdb.Scale.Rows(ts.Name) {
			t.Errorf("%s: %d rows, the scale says %d", ts.Name, ts.Rows, testdb.Scale.Rows(ts.Name))
		}
	}
	for _, ph := range st.Phases {
		t.Logf("load phase %s: %.1f s", ph.Name, ph.Duration.Seconds())
	}
	mustCheck(t, db)

	t.Run("fingerprints equal PostgreSQL's", func(t *testing.T) {
		pg := testpg.OpenDB(t, testdb.Loaded(t), database.Options{MaxConns: 4})
		for _, tb := range schema.Tables() {
			want, wantRows := fingerprint(t, pg, tb)
			got, gotRows := fingerprint(t, db, tb)
			if got != want || gotRows != wantRows {
				t.Errorf("%s: %s %d rows %s, PostgreSQL %d rows %s; first difference: %s", tb.Name, product, gotRows, got[:12], wantRows, want[:12], firstDiff(t, pg, db, tb))
			}
		}
	})

	// information_schema.tables lists every database of the server: the loader looks
	// at its own database only (Engine.TablesScope), so a second brokerbench database
	// on the server neither sees this load nor is refused because of it.
	t.Run("a second database on the server does not see this load", func(t *testing.T) {
		if product != "MariaDB" {
			t.Skip("the second database is made on the managed MariaDB")
		}
		if tables, err := loader.ExistingTables(ctx, db); err != nil || len(tables) < len(schema.Tables()) {
			t.Fatalf("the loaded database lists %v, %v", tables, err)
		}
		other := testmdb.Open(t, testmdb.DSN(t), database.Options{MaxConns: 2})
		if tables, err := loader.ExistingTables(ctx, other); err != nil || len(tables) != 0 {
			t.Errorf("an empty database on the same server lists %v, %v", tables, err)
		}
		if _, err := loader.ReadMarker(ctx, other); !errors.Is(err, loader.ErrNoLoad) {
			t.Errorf("the empty database's marker: %v, want ErrNoLoad", err)
		}
		if _, err := loader.Preflight(ctx, other, loader.Options{Scale: testdb.Scale, Seed: testdb.Seed}); err != nil {
			t.Errorf("a load into the empty database is refused: %v", err)
		}
	})

	t.Run("every transaction", func(t *testing.T) {
		st, err := txn.StatementsFor(database.MySQL)
		if err != nil {
			t.Fatal(err)
		}
		// Trade-Cleanup is the run's once-only start (the driver runs it on one
		// executor before the users): once here too.
		if _, err := txn.NewExecutor(db, st, testdb.Scale, 42, 99).Run(ctx, txn.TradeCleanup); err != nil {
			t.Fatalf("Trade-Cleanup: %v", err)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				e := txn.NewExecutor(db, st, testdb.Scale, 42, w)
				for round := 0; round < 15; round++ {
					for k := txn.Kind(0); k < txn.NumKinds; k++ {
						if k == txn.MarketFeed || k == txn.TradeResult || k == txn.TradeCleanup {
							continue // the market emulator's: the cmd quickstart test runs them
						}
						o, err := e.Run(ctx, k)
						if err != nil {
							errs <- fmt.Errorf("worker %d %s: %w", w, k, err)
							return
						}
						if o.Statements == 0 {
							errs <- fmt.Errorf("worker %d %s ran no statement", w, k)
							return
						}
					}
				}
			}(w)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		var orders int64
		if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM trade WHERE t_id >= ?", testdb.Scale.FirstRunTradeID()).Scan(&orders); err != nil {
			t.Fatal(err)
		}
		if orders == 0 {
			t.Error("no Trade-Order made a trade with a sequence id")
		}
		mustCheck(t, db)
	})

	t.Run("server facts and storage figures", func(t *testing.T) {
		info, err := db.Server(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if info.Product != product || info.Num < minVersion || info.DataDir == "" {
			t.Errorf("server: %+v", info)
		}
		for _, k := range []string{"innodb_buffer_pool_size", "innodb_flush_log_at_trx_commit", "innodb_doublewrite", "innodb_flush_method"} {
			if info.Settings[k] == "" {
				t.Errorf("setting %s missing: %v", k, info.Settings)
			}
		}
		r, err := db.(database.IOStatsOpener).OpenIOStats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		c, err := r.ReadIO(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Groups) != 2 || c.Groups[0].WriteBytes == 0 || c.Groups[1].WriteBytes == 0 || !c.HasWAL || c.WALBytes == 0 || c.Commits == 0 {
			t.Errorf("I/O counters after a load: %+v", c)
		}
		cache, err := r.(database.CacheStatsReader).ReadCache(ctx)
		if err != nil || cache.Hits == 0 {
			t.Errorf("cache counters %+v, %v", cache, err)
		}
		size, err := database.DatabaseBytes(ctx, db)
		if err != nil || size < 10<<20 {
			t.Errorf("database size %d, %v", size, err)
		}
		// The engine's measured size model (Engine.Sizes) holds for this load.
		model := loader.SizeModelFor(string(database.MySQL))
		if off := float64(model.Bytes(testdb.Scale)-size) / float64(size); !model.Measured || off > 0.10 || off < -0.10 {
			t.Errorf("size model %d bytes (measured %v), loaded %d: %+.1f %%", model.Bytes(testdb.Scale), model.Measured, size, off*100)
		}
	})
	// Last: it replaces the load's sequence with the counter table.
	t.Run("trade ids from MySQL's counter", func(t *testing.T) { counterTradeOrders(t, db, dsn) })
}

// counterTradeOrders runs Trade-Orders on a pool that takes trade ids from MySQL's
// counter table instead of the sequence (forced on MariaDB; docs/mysql.md §2): the
// counter replaces the sequence, the orders' trades take ids from the pool's block,
// a second pool (another driver) takes the next block, and `check` stays clean.
func counterTradeOrders(t *testing.T, db database.DB, dsn string) {
	ctx := context.Background()
	cdb, err := mysql.Open(ctx, dsn, database.Options{MaxConns: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer cdb.Close()
	cdb.UseCounter()
	var start int64
	if err := db.QueryRow(ctx, "SELECT MAX(t_id) + 1 FROM trade").Scan(&start); err != nil {
		t.Fatal(err)
	}
	loaded, err := database.DDLOf(db) // the sequence, or on MySQL the load's counter
	if err != nil {
		t.Fatal(err)
	}
	ddl, err := database.DDLOf(cdb)
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{loaded.DropSequence(schema.TradeIDSequence), ddl.CreateSequence(schema.TradeIDSequence, start)} {
		if _, err := cdb.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	st, err := txn.StatementsFor(database.MySQL)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := txn.NewExecutor(cdb, st, testdb.Scale, 43, w)
			for range 10 {
				if _, err := e.Run(ctx, txn.TradeOrder); err != nil {
					errs <- fmt.Errorf("worker %d: %w", w, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var n, lo, hi int64
	if err := db.QueryRow(ctx, "SELECT COUNT(*), COALESCE(MIN(t_id), 0), COALESCE(MAX(t_id), 0) FROM trade WHERE t_id >= ?", start).Scan(&n, &lo, &hi); err != nil {
		t.Fatal(err)
	}
	// 40 orders, some rolled back on purpose (their ids are skipped): one block.
	if n == 0 || lo < start || hi >= start+1000 {
		t.Errorf("%d trades with ids %d..%d, want some within the first block %d..%d", n, lo, hi, start, start+999)
	}
	other, err := mysql.Open(ctx, dsn, database.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	other.UseCounter()
	// Its one connection is in a transaction, as a Trade-Order's is when it asks: the
	// block is taken on a connection of its own, or this would wait for ever.
	wait, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	var id int64
	err = other.InTx(wait, database.ReadCommitted, func(tx database.Tx) error {
		var one int
		if err := tx.QueryRow(wait, "SELECT 1").Scan(&one); err != nil {
			return err
		}
		id, err = other.IDAllocator().NextID(wait, schema.TradeIDSequence)
		return err
	})
	if err != nil || id != start+1000 {
		t.Errorf("a second pool's first id, its one connection in a transaction: %d, %v; want the next block's %d", id, err, start+1000)
	}
	var next int64
	if err := db.QueryRow(ctx, "SELECT next_id FROM "+schema.TradeIDSequence).Scan(&next); err != nil || next != start+2000 {
		t.Errorf("the counter after two blocks: %d, %v; want %d", next, err, start+2000)
	}
	mustCheck(t, db)
}

func mustCheck(t *testing.T, db database.DB) {
	t.Helper()
	v, err := txn.Check(context.Background(), db, testdb.Scale)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range v {
		t.Errorf("violation: %s", x)
	}
}

// fingerprint hashes every row of tb in key order, each value in one text form
// whatever the engine returned it as (decimals at the column's scale, times in UTC).
func fingerprint(t *testing.T, db database.DB, tb schema.Table) (string, int64) {
	t.Helper()
	rows, err := db.Query(context.Background(), "SELECT "+strings.Join(tb.ColumnNames(), ", ")+" FROM "+tb.Name+" ORDER BY "+strings.Join(tb.PrimaryKey, ", "))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	h := sha256.New()
	var n int64
	vals := make([]sql.NullString, len(tb.Columns))
	dest := make([]any, len(vals))
	for i := range vals {
		dest[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			t.Fatal(err)
		}
		for i, c := range tb.Columns {
			fmt.Fprintf(h, "%s\x1f", canonical(c.Type, vals[i]))
		}
		h.Write([]byte{'\n'})
		n++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil)), n
}

// firstDiff returns the first row whose canonical text differs between a and b.
func firstDiff(t *testing.T, a, b database.DB, tb schema.Table) string {
	ra, rb := canonicalRows(t, a, tb), canonicalRows(t, b, tb)
	for i := 0; i < min(len(ra), len(rb)); i++ {
		if ra[i] != rb[i] {
			return fmt.Sprintf("row %d: PostgreSQL %q, MariaDB %q", i, ra[i], rb[i])
		}
	}
	return "none in the common rows"
}

func canonicalRows(t *testing.T, db database.DB, tb schema.Table) []string {
	rows, err := db.Query(context.Background(), "SELECT "+strings.Join(tb.ColumnNames(), ", ")+" FROM "+tb.Name+" ORDER BY "+strings.Join(tb.PrimaryKey, ", "))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	vals := make([]sql.NullString, len(tb.Columns))
	dest := make([]any, len(vals))
	for i := range vals {
		dest[i] = &vals[i]
	}
	var out []string
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for i, c := range tb.Columns {
			fmt.Fprintf(&b, "%s|", canonical(c.Type, vals[i]))
		}
		out = append(out, b.String())
	}
	return out
}

// canonical writes a value the same way for both engines' text.
func canonical(typ schema.Type, v sql.NullString) string {
	if !v.Valid {
		return "NULL"
	}
	s := v.String
	switch typ.Kind {
	case schema.Decimal:
		// PostgreSQL keeps a numeric's own display scale (a zero loaded as 0 reads
		// "0" in a NUMERIC(5,2)); InnoDB pads to the column's.
		whole, frac, _ := strings.Cut(s, ".")
		for len(frac) < typ.Scale {
			frac += "0"
		}
		if frac == "" {
			return whole
		}
		return whole + "." + frac
	case schema.Bool:
		switch strings.ToLower(s) {
		case "1", "true", "t":
			return "true"
		}
		return "false"
	case schema.Timestamp, schema.Date:
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999", "2006-01-02T15:04:05.999999", time.DateOnly} {
			if tm, err := time.Parse(layout, s); err == nil {
				return tm.UTC().Format("2006-01-02 15:04:05.000000")
			}
		}
	}
	return s
}

// TestErrorClassesProvoked: a deadlock and a lock wait timeout between two real
// sessions are retried (and succeed when retried), a duplicate key is fatal and a
// killed connection is a connection fault.
func TestErrorClassesProvoked(t *testing.T) {
	ctx := context.Background()
	m, err := mysql.Open(ctx, testmdb.DSN(t), database.Options{MaxConns: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for _, s := range []string{"CREATE TABLE k (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB", "INSERT INTO k VALUES (1, 0), (2, 0)"} {
		if _, err := m.Exec(ctx, s); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("deadlock", func(t *testing.T) {
		// A locks 1 then 2, B locks 2 then 1; each waits at its second lock until the
		// other holds its first, so InnoDB must pick a victim.
		aHas, bHas := make(chan struct{}), make(chan struct{})
		errs := make(chan error, 2)
		lockBoth := func(first, second int, mine, theirs chan struct{}) {
			errs <- m.InTx(ctx, database.RepeatableRead, func(tx database.Tx) error {
				if _, err := tx.Exec(ctx, "UPDATE k SET v = v + 1 WHERE id = ?", first); err != nil {
					return err
				}
				close(mine)
				<-theirs
				_, err := tx.Exec(ctx, "UPDATE k SET v = v + 1 WHERE id = ?", second)
				return err
			})
		}
		go lockBoth(1, 2, aHas, bHas)
		go lockBoth(2, 1, bHas, aHas)
		e1, e2 := <-errs, <-errs
		victim := e1
		if victim == nil {
			victim = e2
		}
		if (e1 == nil) == (e2 == nil) || mysql.Reason(victim) != "deadlock" || database.Classify(victim) != database.Retry {
			t.Fatalf("want one deadlock victim classed retry; got %v and %v", e1, e2)
		}
		// The retry of the victim's work succeeds.
		if err := m.InTx(ctx, database.RepeatableRead, func(tx database.Tx) error {
			_, err := tx.Exec(ctx, "UPDATE k SET v = v + 1 WHERE id IN (1, 2)")
			return err
		}); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("lock wait timeout", func(t *testing.T) {
		held, release := make(chan struct{}), make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- m.InTx(ctx, database.ReadCommitted, func(tx database.Tx) error {
				if _, err := tx.Exec(ctx, "UPDATE k SET v = v + 1 WHERE id = 1"); err != nil {
					return err
				}
				close(held)
				<-release
				return nil
			})
		}()
		<-held
		conn, err := m.DB.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, "SET SESSION innodb_lock_wait_timeout = 1"); err != nil {
			t.Fatal(err)
		}
		_, err = conn.ExecContext(ctx, "UPDATE k SET v = v + 1 WHERE id = 1")
		if mysql.Reason(err) != "lock wait timeout" || database.Classify(err) != database.Retry {
			t.Fatalf("blocked update: %v, want a lock wait timeout classed retry", err)
		}
		close(release)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if _, err := conn.ExecContext(ctx, "UPDATE k SET v = v + 1 WHERE id = 1"); err != nil {
			t.Fatalf("the retry after the lock was released: %v", err)
		}
	})

	t.Run("duplicate key", func(t *testing.T) {
		_, err := m.Exec(ctx, "INSERT INTO k VALUES (1, 0)")
		if mysql.Reason(err) != "duplicate key" || database.Classify(err) != database.Fatal {
			t.Fatalf("duplicate key: %v classed %s", err, database.Classify(err))
		}
	})

	t.Run("killed connection", func(t *testing.T) {
		conn, err := m.DB.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		var id int64
		if err := conn.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
			t.Fatal(err)
		}
		if _, err := m.Exec(ctx, fmt.Sprintf("KILL %d", id)); err != nil {
			t.Fatal(err)
		}
		_, err = conn.ExecContext(ctx, "SELECT 1")
		if err == nil || database.Classify(err) != database.Connection {
			t.Fatalf("statement on a killed connection: %v classed %s", err, database.Classify(err))
		}
	})
}

// TestManagedServerAccounts: the managed server lets no one in without the
// password: no anonymous account, no account without a password or with socket
// authentication only, and a wrong password is refused.
func TestManagedServerAccounts(t *testing.T) {
	s := testmdb.Server(t)
	db := testmdb.Open(t, s.URL("mysql"), database.Options{MaxConns: 1})
	rows, err := db.Query(context.Background(), `SELECT user, host, COALESCE(JSON_VALUE(priv, '$.plugin'), ''),
  COALESCE(JSON_VALUE(priv, '$.authentication_string'), ''), COALESCE(JSON_VALUE(priv, '$.account_locked'), 'false'),
  COALESCE(JSON_VALUE(priv, '$.is_role'), 'false')
FROM mysql.global_priv`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	logins := 0
	for rows.Next() {
		var user, host, plugin, auth, locked, role string
		if err := rows.Scan(&user, &host, &plugin, &auth, &locked, &role); err != nil {
			t.Fatal(err)
		}
		if locked == "true" || locked == "1" || role == "true" || role == "1" {
			continue
		}
		logins++
		if user == "" || auth == "" || plugin == "unix_socket" {
			t.Errorf("account %s@%s logs in without a password (plugin %q)", user, host, plugin)
		}
	}
	if logins == 0 {
		t.Error("no account can log in at all")
	}
	if st, err := os.Stat(s.PassFile()); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("password file: %v, %v", st, err)
	}
	// Neither root on the socket without a password (the install's socket
	// authentication) nor a wrong password gets in.
	if db, err := database.Open(context.Background(), "mysql://root@unix("+s.Socket+")/mysql", database.Options{MaxConns: 1}); err == nil {
		db.Close()
		t.Error("root got in on the socket without a password")
	}
	bad := strings.Replace(s.URL("mysql"), "@127.0.0.1", "x@127.0.0.1", 1)
	if db, err := database.Open(context.Background(), bad, database.Options{MaxConns: 1}); err == nil {
		db.Close()
		t.Error("a wrong password was let in")
	} else if errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("wrong password: %v", err)
	}
}

// TestForeignKeyCheckFindsOrphans: the load adds foreign keys unchecked and checks
// them itself; the check fails, naming the key, on a row without a parent. Both ways
// of adding them unchecked run: MariaDB's (SET STATEMENT, through Exec) and MySQL's
// (through Maintenance, on a session with foreign_key_checks off), the latter forced
// on MariaDB; after it the pool's sessions still check keys.
func TestForeignKeyCheckFindsOrphans(t *testing.T) {
	for _, counter := range []bool{false, true} {
		t.Run(fmt.Sprintf("counter=%v", counter), func(t *testing.T) { foreignKeyCheckFindsOrphans(t, counter) })
	}
}

func foreignKeyCheckFindsOrphans(t *testing.T, counter bool) {
	ctx := context.Background()
	my, err := mysql.Open(ctx, testmdb.DSN(t), database.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(my.Close)
	if counter {
		my.UseCounter()
	}
	var db database.DB = my
	var sector, industry schema.Table
	for _, tb := range schema.Tables() {
		switch tb.Name {
		case "sector":
			sector = tb
		case "industry":
			industry = tb
		}
	}
	ddl, err := database.DDLOf(db)
	if err != nil {
		t.Fatal(err)
	}
	fv := ddl.(database.FKValidator)
	for _, stmt := range []string{ddl.CreateTable(sector), ddl.CreateTable(industry),
		"INSERT INTO sector VALUES ('EN', 'Energy')", "INSERT INTO industry VALUES ('OG', 'Oil', 'EN'), ('XX', 'Orphan', 'ZZ')"} {
		if _, err := db.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	mt := db.(database.Maintainer)
	for _, stmt := range fv.ForeignKeysNotValid(industry) {
		// As the loader runs them (loader/postload.go).
		if err := mt.Maintenance(ctx, stmt, 0); err != nil {
			t.Fatalf("unchecked key: %v", err)
		}
	}
	check := fv.ValidateForeignKeys(industry)[0]
	if err := mt.Maintenance(ctx, check, 0); err == nil || !strings.Contains(err.Error(), "fk_industry_1") {
		t.Fatalf("check with an orphan: %v", err)
	}
	if _, err := db.Exec(ctx, "DELETE FROM industry WHERE in_id = 'XX'"); err != nil {
		t.Fatal(err)
	}
	if err := mt.Maintenance(ctx, check, 0); err != nil {
		t.Fatalf("check without orphans: %v", err)
	}
	for range 3 { // the pool's sessions, whichever the statement gets
		if _, err := db.Exec(ctx, "INSERT INTO industry VALUES ('YY', 'Orphan', 'ZZ')"); mysql.ErrorNumber(err) != 1452 {
			t.Fatalf("an orphan inserted after the keys were added: %v, want error 1452", err)
		}
	}
}

// TestReadCommittedWithoutSetTransaction: a read-committed transaction begins with
// START TRANSACTION alone, no SET statement before it (Com_set_option of the session
// stays), and still reads at READ COMMITTED: it sees a row another session committed
// after its first read, where a repeatable-read transaction, which is named, keeps
// its snapshot.
func TestReadCommittedWithoutSetTransaction(t *testing.T) {
	dsn := testmdb.DSN(t)
	ctx := context.Background()
	db := testmdb.Open(t, dsn, database.Options{MaxConns: 1})
	other := testmdb.Open(t, dsn, database.Options{MaxConns: 1})
	if _, err := db.Exec(ctx, "CREATE TABLE rc_probe (id INT PRIMARY KEY, v INT) ENGINE=InnoDB"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, "INSERT INTO rc_probe VALUES (1, 0)"); err != nil {
		t.Fatal(err)
	}
	setOptions := func() int64 {
		var name string
		var n int64
		if err := db.QueryRow(ctx, "SHOW SESSION STATUS LIKE 'Com_set_option'").Scan(&name, &n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// read reads v twice in a transaction of level iso, with another session's
	// committed update between the two reads.
	read := func(iso database.Isolation, bump int) (first, second int) {
		err := db.InTx(ctx, iso, func(tx database.Tx) error {
			if err := tx.QueryRow(ctx, "SELECT v FROM rc_probe WHERE id = 1").Scan(&first); err != nil {
				return err
			}
			if _, err := other.Exec(ctx, "UPDATE rc_probe SET v = ? WHERE id = 1", bump); err != nil {
				return err
			}
			return tx.QueryRow(ctx, "SELECT v FROM rc_probe WHERE id = 1").Scan(&second)
		})
		if err != nil {
			t.Fatal(err)
		}
		return first, second
	}
	before := setOptions()
	if first, second := read(database.ReadCommitted, 1); first != 0 || second != 1 {
		t.Errorf("read committed read %d then %d, want 0 then the other session's 1", first, second)
	}
	if after := setOptions(); after != before {
		t.Errorf("a read-committed transaction sent %d SET statements, want none", after-before)
	}
	if first, second := read(database.RepeatableRead, 2); first != 1 || second != 1 {
		t.Errorf("repeatable read read %d then %d, want its snapshot's 1 twice", first, second)
	}
}
