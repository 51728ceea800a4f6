package mysql

import (
	"context"
	"database/sql"
	sqldriver "database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"time"

	driver "github.com/go-sql-driver/mysql"

	"github.com/brokerbench/brokerbench/database"
)

// DB is a MySQL or MariaDB pool: database/sql with go-sql-driver/mysql. The driver
// is configured for the benchmark whatever the DSN says: times parsed as UTC wall
// clock (the schema's DATETIME has no zone, like PostgreSQL's TIMESTAMP), the
// session's time zone UTC, and parameters interpolated by the client, so a statement
// with arguments is one round trip rather than prepare, execute and close.
type DB struct {
	DB     *sql.DB
	target string
	// cfg is the driver configuration, password included; it is kept only to open
	// the I/O statistics connection and is never printed.
	cfg *driver.Config
	// mariadb is set when the server says it is MariaDB (server.go).
	mariadb bool
	// ids hands out trade ids from a counter table on a server without sequences
	// (MySQL, counter.go); nil where NEXT VALUE FOR reads a sequence.
	ids *idBlocks
	// readCommitted: every connection starts with READ COMMITTED as its session's
	// default isolation (session.go).
	readCommitted bool
	// snapshotChecks: every connection runs with innodb_snapshot_isolation ON, so a
	// repeatable-read write to a row changed since the snapshot fails (1020) and is
	// rerun instead of overwriting the newer row (docs/mysql.md §3).
	snapshotChecks bool
	// unchecked prefixes every statement of an insert-only transaction where
	// snapshotChecks is set: SET STATEMENT turns the checks off for that statement
	// alone, with no round trip of its own (uncheckedPrefix).
	unchecked string
}

var (
	_ database.DB           = (*DB)(nil)
	_ database.PoolStatser  = (*DB)(nil)
	_ database.ServerDDLer  = (*DB)(nil)
	_ database.IDAllocating = (*DB)(nil)
)

// defaultIdle keeps connections open between transactions when the caller does not
// size the pool (database/sql keeps 2 idle by default).
const defaultIdle = 64

func open(ctx context.Context, dsn string, o database.Options) (database.DB, error) {
	m, err := Open(ctx, dsn, o)
	if err != nil {
		return nil, err // a nil *DB in a DB interface would not compare equal to nil
	}
	return m, nil
}

// Open connects to a mysql:// DSN (dsn.go). Code outside database/... goes through
// database.Open; tests that need the pool itself call this.
func Open(ctx context.Context, dsn string, o database.Options) (*DB, error) {
	cfg, dsnTimeout, err := parseDSN(dsn)
	if err != nil {
		return nil, database.InvalidDSN("invalid MySQL DSN %s: %v", database.Redact(dsn), err)
	}
	timeout := o.ConnectTimeout(dsnTimeout)
	configure(cfg, timeout, o.AppName)
	target := describe(cfg)
	conn, err := driver.NewConnector(cfg)
	if err != nil {
		return nil, database.InvalidDSN("invalid MySQL DSN %s: %s", database.Redact(dsn), database.ScrubSecret(err.Error(), cfg.Passwd))
	}
	pctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	db, err := ping(pctx, conn, o)
	if err != nil {
		return nil, database.ConnectError(ctx, pctx, "MySQL", target, timeout, database.Scrubbed(err, cfg.Passwd))
	}
	m := &DB{DB: db, target: target, cfg: cfg}
	if err := m.identify(pctx); err != nil {
		db.Close()
		return nil, err
	}
	if err := m.sessionDefaults(pctx, o); err != nil {
		m.DB.Close()
		return nil, err
	}
	return m, nil
}

// configure sets what the benchmark relies on. LOAD DATA LOCAL INFILE needs no file
// allow-list: the bulk path reads registered readers only (bulk.go).
func configure(cfg *driver.Config, timeout time.Duration, appName string) {
	cfg.ParseTime = true
	cfg.Loc = time.UTC
	cfg.InterpolateParams = true
	// An UPDATE's row count is the rows it matched, as PostgreSQL and SQL Server
	// count them: MySQL's own counts only the rows whose values changed, and the
	// workload checks that its updates found their rows.
	cfg.ClientFoundRows = true
	cfg.Timeout = timeout
	cfg.DialFunc = database.Dialer().DialContext // TCP keepalives (database.KeepAlive)
	// The driver logs a broken connection ("[mysql] packets.go: ...") to stderr as
	// well as returning it; the run counts and reports what it returns, and a raw
	// line would break the live line and the one-line error rule.
	cfg.Logger = &driver.NopLogger{}
	if cfg.Params == nil {
		cfg.Params = map[string]string{}
	}
	cfg.Params["time_zone"] = "'+00:00'"
	if appName != "" && cfg.ConnectionAttributes == "" {
		// Shown in performance_schema.session_connect_attrs; the attribute list is
		// comma- and colon-separated.
		cfg.ConnectionAttributes = "program_name:" + strings.NewReplacer(",", " ", ":", " ").Replace(appName)
	}
}

// snapshotIsolation is MariaDB's session variable for first-updater-wins
// repeatable read (a variable, not a constant, only so that a test can name one no
// server has and take the path of a server without it).
var snapshotIsolation = "innodb_snapshot_isolation"

// erUnknownVariable is the server's error for a variable it lacks.
const erUnknownVariable = 1193

// ping opens a pool on conn sized by o and checks it connects (the connection's
// session variables are set then).
func ping(ctx context.Context, conn sqldriver.Connector, o database.Options) (*sql.DB, error) {
	db := sql.OpenDB(conn)
	if o.MaxConns > 0 {
		db.SetMaxOpenConns(o.MaxConns)
		db.SetMaxIdleConns(o.MaxConns)
	} else {
		db.SetMaxIdleConns(defaultIdle)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func (m *DB) Name() database.Name { return database.MySQL }
func (m *DB) Target() string      { return m.target }
func (m *DB) Close() {
	m.DB.Close()
	if m.ids != nil {
		m.ids.close()
	}
}

// txOptions maps the workload's level to InnoDB's. Under REPEATABLE READ a plain
// SELECT reads the transaction's snapshot while UPDATE, DELETE and SELECT ... FOR
// UPDATE read and lock the newest committed rows (docs/mysql.md §3); lock waits end
// in deadlocks (1213) or lock wait timeouts (1205), which the caller retries.
// ReadOnlyCommitted starts a READ ONLY transaction, which InnoDB runs without a
// transaction id; InsertOnlyRepeatableRead is REPEATABLE READ (InTx turns the
// snapshot checks off in it). On a pool whose sessions default to READ COMMITTED
// (sessionDefaults) the read-committed levels name no level, so the driver
// sends no SET TRANSACTION before them.
func txOptions(iso database.Isolation, sessionReadCommitted bool) *sql.TxOptions {
	if sessionReadCommitted {
		switch iso {
		case database.ReadCommitted:
			return &sql.TxOptions{}
		case database.ReadOnlyCommitted:
			return &sql.TxOptions{ReadOnly: true}
		}
	}
	switch iso {
	case database.RepeatableRead, database.InsertOnlyRepeatableRead:
		return &sql.TxOptions{Isolation: sql.LevelRepeatableRead}
	case database.Serializable:
		return &sql.TxOptions{Isolation: sql.LevelSerializable}
	case database.ReadOnlyCommitted:
		return &sql.TxOptions{Isolation: sql.LevelReadCommitted, ReadOnly: true}
	}
	return &sql.TxOptions{Isolation: sql.LevelReadCommitted}
}

// InTx runs fn in a transaction of level iso: READ COMMITTED is the sessions'
// default, any other level is named (the driver sends SET TRANSACTION ISOLATION
// LEVEL before START TRANSACTION, which applies to that transaction only). An
// insert-only transaction runs its statements without the sessions' snapshot checks
// (uncheckedPrefix).
func (m *DB) InTx(ctx context.Context, iso database.Isolation, fn func(database.Tx) error) error {
	tx, err := m.DB.BeginTx(ctx, txOptions(iso, m.readCommitted))
	if err != nil {
		return err
	}
	t := myTx{tx: tx}
	if iso == database.InsertOnlyRepeatableRead {
		t.prefix = m.unchecked
	}
	if err := fn(t); err != nil {
		// After a deadlock InnoDB has rolled back already; the rollback's own error
		// is secondary either way.
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

func (m *DB) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	return execResult(m.DB.ExecContext(ctx, query, myArgs(args)...))
}

func (m *DB) Query(ctx context.Context, query string, args ...any) (database.Rows, error) {
	r, err := m.DB.QueryContext(ctx, query, myArgs(args)...)
	if err != nil {
		return nil, err
	}
	return myRows{r}, nil
}

func (m *DB) QueryRow(ctx context.Context, query string, args ...any) database.Row {
	return myRow{m.DB.QueryRowContext(ctx, query, myArgs(args)...)}
}

// PoolStat reads database/sql's pool statistics for the self-check (only the
// acquires that waited are counted, as on SQL Server).
func (m *DB) PoolStat() database.PoolStat {
	s := m.DB.Stats()
	return database.PoolStat{EmptyAcquires: s.WaitCount, AcquireWait: s.WaitDuration}
}

func execResult(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// myArgs passes times as UTC wall clock: the driver writes a time.Time in its
// location (UTC), so a time in another zone would shift, where PostgreSQL's
// TIMESTAMP and SQL Server's DATETIME2 keep the wall clock. Money binds through its
// decimal string (driver.Valuer); stored into a DECIMAL column the server converts it
// exactly, and compared with or added to one it goes through a double, exact for
// amounts below 2^53 cents once rounded back to the column's two places. A list goes
// as a JSON array (listArg, routines.go).
func myArgs(args []any) []any {
	copied := false
	set := func(i int, v any) {
		if !copied { // the caller's slice stays as it was
			args, copied = append([]any(nil), args...), true
		}
		args[i] = v
	}
	for i, a := range args {
		if t, ok := a.(time.Time); ok && t.Location() != time.UTC {
			set(i, time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC))
		} else if l, ok := listArg(a); ok {
			set(i, l)
		}
	}
	return args
}

// myTx is one transaction; prefix, when set, goes before each of its statements.
type myTx struct {
	tx     *sql.Tx
	prefix string
}

func (t myTx) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	return execResult(t.tx.ExecContext(ctx, t.prefix+query, myArgs(args)...))
}

func (t myTx) Query(ctx context.Context, query string, args ...any) (database.Rows, error) {
	r, err := t.tx.QueryContext(ctx, t.prefix+query, myArgs(args)...)
	if err != nil {
		return nil, err
	}
	return myRows{r}, nil
}

func (t myTx) QueryRow(ctx context.Context, query string, args ...any) database.Row {
	return myRow{t.tx.QueryRowContext(ctx, t.prefix+query, myArgs(args)...)}
}

type myRows struct{ r *sql.Rows }

func (r myRows) Next() bool             { return r.r.Next() }
func (r myRows) Scan(dest ...any) error { return r.r.Scan(dest...) }
func (r myRows) Err() error             { return r.r.Err() }
func (r myRows) Close()                 { _ = r.r.Close() }

type myRow struct{ r *sql.Row }

func (r myRow) Scan(dest ...any) error {
	err := r.r.Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return database.ErrNoRows
	}
	return err
}

// ErrorNumber returns the server's error number of err, or 0.
func ErrorNumber(err error) uint16 {
	var e *driver.MySQLError
	if errors.As(err, &e) {
		return e.Number
	}
	return 0
}

// identify asks the server what it is: MariaDB says so in its version string. MariaDB
// has sequences (10.3+; brokerbench takes 10.6+); MySQL has none, so its trade ids
// come from a counter table (counter.go).
func (m *DB) identify(ctx context.Context) error {
	var v string
	if err := m.DB.QueryRowContext(ctx, "SELECT VERSION()").Scan(&v); err != nil {
		return fmt.Errorf("MySQL at %s: read the version: %w", m.target, err)
	}
	m.mariadb = strings.Contains(strings.ToLower(v), "mariadb")
	_, num := shortVersion(v)
	switch {
	case m.mariadb && num != 0 && num < 100600:
		return fmt.Errorf("%s runs MariaDB %s: brokerbench drives MariaDB 10.6 or newer and MySQL 8.0 or newer (docs/mysql.md)", m.target, v)
	case !m.mariadb && num != 0 && num < 80000:
		return fmt.Errorf("%s runs MySQL %s: brokerbench drives MySQL 8.0 or newer and MariaDB 10.6 or newer (docs/mysql.md)", m.target, v)
	case !m.mariadb:
		m.UseCounter()
	}
	return nil
}

// UseCounter makes the pool take trade ids from the counter table (counter.go), as
// on MySQL, even where the server has sequences: the tests run MySQL's path on
// MariaDB with it.
func (m *DB) UseCounter() { m.ids = &idBlocks{db: m, next: map[string][2]int64{}} }

// ServerDDL is the DDL for the pool's server: MySQL's, with the counter, where the
// server has no sequences; nil (the engine's) on MariaDB.
func (m *DB) ServerDDL() database.DDL {
	if m.ids != nil {
		return counterDDL{}
	}
	return nil
}

// IDAllocator hands out trade ids on a server without sequences; nil where NEXT
// VALUE FOR reads them.
func (m *DB) IDAllocator() database.IDAllocator {
	if m.ids != nil {
		return m.ids
	}
	return nil
}
