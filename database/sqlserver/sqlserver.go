package sqlserver

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	mssql "github.com/microsoft/go-mssqldb"
	"github.com/microsoft/go-mssqldb/msdsn"

	"github.com/brokerbench/brokerbench/database"
)

// MSSQL is a SQL Server pool: database/sql with go-mssqldb (driver name
// "sqlserver", URL form). go-mssqldb parses encrypt, TrustServerCertificate and the
// other connection parameters itself; this type only adds what the benchmark needs:
// pool sizing, isolation, VARCHAR parameters, bulk copy and error classes.
type MSSQL struct {
	DB     *sql.DB
	target string
	// dsn is the URL go-mssqldb got, password included; it is kept only to open the
	// I/O statistics connection and is never printed.
	dsn string
	// host is the server's host name or address as the URL gives it.
	host string
	// rc is how READ COMMITTED transactions run (see ReadCommittedMode).
	rc ReadCommittedMode
	// rcsi is the database's READ_COMMITTED_SNAPSHOT setting, read at open.
	rcsi bool
	// connectTimeout bounds every connection's login (deadline.go).
	connectTimeout time.Duration
	// endpoint is which T-SQL server this is (product.go), found at open.
	endpoint endpoint
}

var _ database.DB = (*MSSQL)(nil)

// ReadCommittedMode says how the workload's READ COMMITTED transactions (the six
// read-only ones, Data-Maintenance and Trade-Cleanup) run on SQL Server.
type ReadCommittedMode string

const (
	// RCDefault runs them at READ COMMITTED as the database is configured: locking
	// reads, or statement-level row versions when READ_COMMITTED_SNAPSHOT is ON.
	RCDefault ReadCommittedMode = ""
	// RCSI demands READ_COMMITTED_SNAPSHOT ON and refuses to open otherwise, so a
	// result that says "rcsi" really ran with row-versioned reads.
	RCSI ReadCommittedMode = "rcsi"
	// RCSnapshot runs the read-only ones (database.ReadOnlyCommitted) at SNAPSHOT
	// isolation (transaction-level row versions); it needs ALLOW_SNAPSHOT_ISOLATION
	// ON. Writers (database.ReadCommitted: Trade-Result, Data-Maintenance,
	// Trade-Cleanup) stay at READ COMMITTED, as the database is configured: at
	// SNAPSHOT they would fail with 3960 (update conflict) where read committed waits.
	RCSnapshot ReadCommittedMode = "snapshot"
	// RCLocking demands READ_COMMITTED_SNAPSHOT OFF: classic lock-based reads.
	RCLocking ReadCommittedMode = "locking"
)

// ReadCommittedParam is the sqlserver:// URL query parameter that selects the
// ReadCommittedMode. It is the benchmark's own and is removed before the URL reaches
// go-mssqldb, so every command that takes --db gets the option without a new flag.
const ReadCommittedParam = "brokerbench_read_committed"

// sqlserverDefaultIdle keeps connections open between transactions when the caller
// does not size the pool: database/sql's default of 2 idle connections would make a
// ramp of many users reconnect on every transaction.
const sqlserverDefaultIdle = 64

func open(ctx context.Context, dsn string, o database.Options) (database.DB, error) {
	m, err := Open(ctx, dsn, o)
	if err != nil {
		return nil, err // a nil *MSSQL in a DB interface would not compare equal to nil
	}
	return m, nil
}

// Open connects to a sqlserver:// DSN. Code outside database/... goes through
// database.Open; tests that need the pool itself call this.
func Open(ctx context.Context, dsn string, o database.Options) (*MSSQL, error) {
	withoutTimeout, urlTimeout, err := takeConnectTimeout(dsn)
	if err != nil {
		return nil, database.InvalidDSN("invalid SQL Server DSN %s: %v", database.Redact(dsn), err)
	}
	clean, rc, err := splitSQLServerDSN(withoutTimeout, o.AppName)
	if err != nil {
		return nil, database.InvalidDSN("invalid SQL Server DSN %s: %v", database.Redact(dsn), err)
	}
	cfg, err := msdsn.Parse(clean)
	if err != nil {
		// msdsn keeps credentials out of its messages; scrub anyway in case a future
		// version quotes a value.
		return nil, database.InvalidDSN("invalid SQL Server DSN %s: %s", database.Redact(dsn), scrubSecret(err.Error(), cfg.Password, dsn))
	}
	target := mssqlTarget(cfg)
	timeout := o.ConnectTimeout(urlTimeout)
	conn, err := newDeadlineConnector(clean, timeout)
	if err != nil {
		return nil, fmt.Errorf("connect to SQL Server at %s: %w", target, scrubbed(err, cfg.Password, dsn))
	}
	db := sql.OpenDB(conn)
	if o.MaxConns > 0 {
		db.SetMaxOpenConns(o.MaxConns)
		db.SetMaxIdleConns(o.MaxConns)
	} else {
		db.SetMaxIdleConns(sqlserverDefaultIdle)
	}
	pctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		return nil, database.ConnectError(ctx, pctx, "SQL Server", target, timeout, scrubbed(err, cfg.Password, dsn))
	}
	m := &MSSQL{DB: db, target: target, dsn: clean, host: cfg.Host, rc: rc, connectTimeout: timeout}
	if err := m.checkReadCommitted(pctx); err != nil {
		db.Close()
		return nil, err
	}
	if err := m.identify(pctx); err != nil {
		db.Close()
		return nil, err
	}
	return m, nil
}

// splitSQLServerDSN removes the benchmark's own parameter from a sqlserver:// URL and
// adds the application name unless the URL sets one.
func splitSQLServerDSN(dsn, appName string) (string, ReadCommittedMode, error) {
	u, err := url.Parse(strings.TrimSpace(dsn))
	if err != nil {
		// url.Parse quotes the input; never pass that through.
		return "", "", errors.New("not a URL of the form sqlserver://user:password@host:port?database=name")
	}
	q := u.Query()
	var rc ReadCommittedMode
	for k, v := range q {
		if !strings.EqualFold(k, ReadCommittedParam) {
			continue
		}
		switch m := ReadCommittedMode(strings.ToLower(v[len(v)-1])); m {
		case RCDefault, RCSI, RCSnapshot, RCLocking:
			rc = m
		default:
			return "", "", fmt.Errorf("%s=%q: want rcsi, snapshot or locking", ReadCommittedParam, v[len(v)-1])
		}
		q.Del(k)
	}
	if appName != "" && !hasAnyKey(q, "app name", "app", "application name") {
		q.Set("app name", appName)
	}
	u.RawQuery = q.Encode()
	return u.String(), rc, nil
}

func hasAnyKey(q url.Values, keys ...string) bool {
	for k := range q {
		for _, want := range keys {
			if strings.EqualFold(k, want) {
				return true
			}
		}
	}
	return false
}

// shown is Engine.Shown: the target as docs/sqlserver.md §1 prints it, or "" for a
// DSN go-mssqldb cannot read (Open then says what is wrong).
func shown(dsn string) string {
	clean, _, err := splitSQLServerDSN(dsn, "")
	if err != nil {
		return ""
	}
	cfg, err := msdsn.Parse(clean)
	if err != nil {
		return ""
	}
	return mssqlTarget(cfg)
}

// mssqlTarget names the server without secrets: "host:port[\instance], database d, user u".
func mssqlTarget(c msdsn.Config) string {
	host := c.Host
	if c.Port > 0 {
		host = net.JoinHostPort(host, strconv.FormatUint(c.Port, 10))
	} else if c.Instance == "" {
		host = net.JoinHostPort(host, "1433")
	}
	if c.Instance != "" {
		host += `\` + c.Instance
	}
	db := c.Database
	if db == "" {
		db = "(login default)"
	}
	return fmt.Sprintf("%s, database %s, user %s", host, db, c.User)
}

// scrubSecret removes the password (and its URL-escaped forms), and the one the DSN's
// URL holds, from a driver message.
func scrubSecret(msg, password, dsn string) string {
	msg = database.ScrubSecret(msg, password)
	if u, err := url.Parse(strings.TrimSpace(dsn)); err == nil && u.User != nil {
		if p, ok := u.User.Password(); ok && p != "" {
			msg = strings.ReplaceAll(msg, p, "xxxxx")
		}
	}
	return msg
}

func scrubbed(err error, password, dsn string) error {
	return &database.SecretFreeError{Msg: scrubSecret(err.Error(), password, dsn), Err: err}
}

// checkReadCommitted reads the database's row-versioning settings and refuses a mode
// the database cannot honour, naming the ALTER DATABASE that fixes it.
func (m *MSSQL) checkReadCommitted(ctx context.Context) error {
	// NULL (a server that does not report the setting) reads as off: the default mode
	// then runs as the server is, and the modes that demand a setting refuse.
	var rcsiOn sql.NullBool
	var state sql.NullString
	err := m.DB.QueryRowContext(ctx, `SELECT is_read_committed_snapshot_on, snapshot_isolation_state_desc
		FROM sys.databases WHERE database_id = DB_ID()`).Scan(&rcsiOn, &state)
	if err != nil {
		return fmt.Errorf("SQL Server at %s: read database settings: %w", m.target, err)
	}
	rcsi, snapshot := rcsiOn.Bool, state.String
	if !state.Valid {
		snapshot = "unknown"
	}
	m.rcsi = rcsi
	switch m.rc {
	case RCSI:
		if !rcsi {
			return fmt.Errorf("SQL Server at %s: %s=rcsi needs READ_COMMITTED_SNAPSHOT ON: run ALTER DATABASE CURRENT SET READ_COMMITTED_SNAPSHOT ON WITH ROLLBACK IMMEDIATE (see docs/sqlserver.md)",
				m.target, ReadCommittedParam)
		}
	case RCLocking:
		if rcsi {
			return fmt.Errorf("SQL Server at %s: %s=locking needs READ_COMMITTED_SNAPSHOT OFF: run ALTER DATABASE CURRENT SET READ_COMMITTED_SNAPSHOT OFF WITH ROLLBACK IMMEDIATE (see docs/sqlserver.md)",
				m.target, ReadCommittedParam)
		}
	case RCSnapshot:
		if snapshot != "ON" {
			return fmt.Errorf("SQL Server at %s: %s=snapshot needs ALLOW_SNAPSHOT_ISOLATION ON (now %s): run ALTER DATABASE CURRENT SET ALLOW_SNAPSHOT_ISOLATION ON (see docs/sqlserver.md)",
				m.target, ReadCommittedParam, snapshot)
		}
	}
	return nil
}

// readCommittedMode is what the result file records: how READ COMMITTED really ran.
func (m *MSSQL) readCommittedMode() string {
	switch {
	case m.rc == RCSnapshot:
		return "snapshot"
	case m.rcsi:
		return "rcsi"
	}
	return "locking"
}

func (m *MSSQL) Name() database.Name { return database.SQLServer }
func (m *MSSQL) Target() string      { return m.target }
func (m *MSSQL) Close()              { m.DB.Close() }

// sqlIso maps the workload's level to SQL Server's. REPEATABLE READ and SERIALIZABLE
// are lock-based there (shared locks held to commit, key-range locks for
// serializable), so blocking and deadlock victims (1205) are expected and retried by
// the caller.
func (m *MSSQL) sqlIso(iso database.Isolation) sql.IsolationLevel {
	switch iso {
	case database.RepeatableRead, database.InsertOnlyRepeatableRead:
		return sql.LevelRepeatableRead
	case database.Serializable:
		return sql.LevelSerializable
	}
	// Snapshot isolation is offered to readers only: a writer under it would meet
	// update conflicts (3960) that read committed never raises.
	if iso == database.ReadOnlyCommitted && m.rc == RCSnapshot {
		return sql.LevelSnapshot
	}
	return sql.LevelReadCommitted
}

// InTx always names the level: SQL Server keeps a session's isolation level after a
// transaction ends, so relying on the default would inherit the previous user's.
func (m *MSSQL) InTx(ctx context.Context, iso database.Isolation, fn func(database.Tx) error) error {
	tx, err := m.DB.BeginTx(ctx, &sql.TxOptions{Isolation: m.sqlIso(iso)})
	if err != nil {
		return err
	}
	if err := fn(msTx{tx}); err != nil {
		// After 1205 the server has already rolled back; the rollback error is
		// secondary either way.
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

func (m *MSSQL) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	return execResult(m.DB.ExecContext(ctx, query, mssqlArgs(args)...))
}

func (m *MSSQL) Query(ctx context.Context, query string, args ...any) (database.Rows, error) {
	r, err := m.DB.QueryContext(ctx, query, mssqlArgs(args)...)
	if err != nil {
		return nil, err
	}
	return msRows{r}, nil
}

func (m *MSSQL) QueryRow(ctx context.Context, query string, args ...any) database.Row {
	return msRow{m.DB.QueryRowContext(ctx, query, mssqlArgs(args)...)}
}

func execResult(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

type msTx struct{ tx *sql.Tx }

func (t msTx) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	return execResult(t.tx.ExecContext(ctx, query, mssqlArgs(args)...))
}

func (t msTx) Query(ctx context.Context, query string, args ...any) (database.Rows, error) {
	r, err := t.tx.QueryContext(ctx, query, mssqlArgs(args)...)
	if err != nil {
		return nil, err
	}
	return msRows{r}, nil
}

func (t msTx) QueryRow(ctx context.Context, query string, args ...any) database.Row {
	return msRow{t.tx.QueryRowContext(ctx, query, mssqlArgs(args)...)}
}

type msRows struct{ r *sql.Rows }

func (r msRows) Next() bool             { return r.r.Next() }
func (r msRows) Scan(dest ...any) error { return r.r.Scan(dest...) }
func (r msRows) Err() error             { return r.r.Err() }
func (r msRows) Close()                 { _ = r.r.Close() }

type msRow struct{ r *sql.Row }

func (r msRow) Scan(dest ...any) error {
	err := r.r.Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return database.ErrNoRows
	}
	return err
}

// ErrorNumber returns the SQL Server error number of err, or 0.
func ErrorNumber(err error) int32 {
	var e mssql.Error
	if errors.As(err, &e) {
		return e.Number
	}
	return 0
}
