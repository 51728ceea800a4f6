// Package database is what the rest of brokerbench sees of a database: DB and Tx,
// isolation levels, error classes, the server description, DSN redaction and the
// optional capabilities (bulk fast path, maintenance, I/O views, pool statistics).
// Each database lives in a sub-package (database/postgres, database/sqlserver,
// database/mysql for MariaDB and MySQL) that registers one Engine carrying everything
// that differs between databases; only cmd chooses which are linked in, and nothing
// outside database/... names a concrete one.
package database

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/schema"
)

// Name identifies a database engine ("postgres", "sqlserver"). Result files and the
// statement catalogue key on it.
type Name string

// The names of the engines brokerbench ships. Only the statement catalogue
// (txn.StatementsFor) still picks by name; code that needs an engine's behaviour gets
// it from the registered Engine instead.
const (
	Postgres  Name = "postgres"
	SQLServer Name = "sqlserver"
	// MySQL covers MySQL 8.0+ and MariaDB 10.6+: one engine that asks the server
	// where the two differ.
	MySQL Name = "mysql"
)

// Isolation is a transaction isolation level, named as the workload reference names it.
type Isolation uint8

const (
	ReadCommitted Isolation = iota + 1
	RepeatableRead
	Serializable
	// ReadOnlyCommitted is read committed for work that only reads. Read committed
	// gives every statement its own snapshot whether or not BEGIN was sent, so a
	// database may run such work without an explicit transaction and save the BEGIN and
	// COMMIT round trips, which cost the client more CPU than the reads themselves
	// (scripts/bench-driver.sh). A database may also map it to a snapshot level that
	// only suits readers (SQL Server's brokerbench_read_committed=snapshot).
	ReadOnlyCommitted
	// InsertOnlyRepeatableRead is repeatable read for work whose only writes are
	// inserts (Trade-Order). An insert overwrites no row, so write-conflict checks have
	// no lost update to stop in it; a database whose checks fail inserts all the same
	// (MariaDB's innodb_snapshot_isolation fails a foreign-key check on a parent row
	// changed in any column since the snapshot) runs it without them.
	InsertOnlyRepeatableRead
)

func (i Isolation) String() string {
	switch i {
	case ReadCommitted:
		return "read committed"
	case RepeatableRead:
		return "repeatable read"
	case Serializable:
		return "serializable"
	case ReadOnlyCommitted:
		return "read committed (read-only)"
	case InsertOnlyRepeatableRead:
		return "repeatable read (insert-only)"
	}
	return fmt.Sprintf("isolation(%d)", uint8(i))
}

// DB is a pool of connections to the database under test.
type DB interface {
	Name() Name
	// InTx runs fn in one transaction at iso and commits when fn returns nil; it rolls
	// back when fn returns an error (including ErrRollback, the workload's intended
	// rollbacks). It does not retry: retry policy belongs to the caller.
	InTx(ctx context.Context, iso Isolation, fn func(Tx) error) error
	// Exec runs one statement outside an explicit transaction.
	Exec(ctx context.Context, sql string, args ...any) (int64, error)
	Query(ctx context.Context, sql string, args ...any) (Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) Row
	// Bulk streams rows into table through the database's bulk path (COPY, bulk copy).
	Bulk(ctx context.Context, table string, columns []string, src RowSource) (int64, error)
	// Server describes the server: product, version, key settings.
	Server(ctx context.Context) (ServerInfo, error)
	// Target names the server without secrets, for messages: "host:port/database".
	Target() string
	Close()
}

// Tx is one open transaction.
type Tx interface {
	Exec(ctx context.Context, sql string, args ...any) (int64, error)
	Query(ctx context.Context, sql string, args ...any) (Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) Row
}

// Rows is a result set; Close must be called (Next returning false closes it).
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// Row is a single-row result; Scan returns ErrNoRows when there was none.
type Row interface {
	Scan(dest ...any) error
}

// RowSource feeds Bulk: Next advances, Values returns the current row (valid until the
// next call to Next), Err reports a generation failure. It has the shape of
// pgx.CopyFromSource so the PostgreSQL path streams without copying.
type RowSource interface {
	Next() bool
	Values() ([]any, error)
	Err() error
}

// ServerInfo describes the server under test for the result file.
type ServerInfo struct {
	Product string
	Version string // short form, e.g. "15.18"
	Num     int    // comparable form, e.g. 150018 (PostgreSQL server_version_num)
	Edition string
	// Settings are the server's settings as the workload's sessions see them: where
	// a setting has a session value (the default isolation), the one brokerbench's
	// connections run with, not the server-wide default.
	Settings map[string]string
	// DataDir and WALDir are set when the server reports them and they are readable
	// (the I/O sampler maps them to block devices).
	DataDir string
	WALDir  string
	// Notes are what a reader of the results must know about the server beyond its
	// version: that it is not the product it speaks for, how it runs the workload's
	// isolation levels, that it is older than the versions docs support. The run
	// logs them and records them with the database.
	Notes []string
}

// ErrNoRows is returned by Row.Scan when the query returned no row.
var ErrNoRows = errors.New("no rows in result set")

// ErrPermission marks an error (errors.Is) that means the login lacks a permission
// for something optional, such as the server's I/O views: callers fall back and say
// which grant is missing, where any other error is a failure.
var ErrPermission = errors.New("permission denied")

// ErrUnavailable marks an error (errors.Is) that means the server does not offer
// something optional: a view or column it lacks (a server that speaks the protocol
// without being the product, an older version) or one the login may not read. The
// caller leaves that figure out and says why; any other error is a failure.
var ErrUnavailable = errors.New("not available on this server")

// ErrRollback is returned by a transaction body to roll back on purpose (the
// workload's intended rollbacks); InTx passes it through unchanged.
var ErrRollback = errors.New("intended rollback")

// Class is how the load driver must treat an error.
type Class uint8

const (
	// Fatal: a bug or a broken database; count it as an error.
	Fatal Class = iota
	// Retry: serialization failure, deadlock, lock timeout; run the transaction again.
	Retry
	// Connection: the connection or server went away; reconnect and count a fault.
	Connection
	// Canceled: our own context ended; not an error of the transaction.
	Canceled
	// Rollback: the workload's intended rollback.
	Rollback
)

func (c Class) String() string {
	return [...]string{"fatal", "retry", "connection", "canceled", "rollback"}[c]
}

// Options size the pool.
type Options struct {
	MaxConns int           // 0: the driver's default
	Timeout  time.Duration // connect timeout; 0: the DSN's connect_timeout, else DefaultConnectTimeout
	AppName  string
}

// ConnectTimeout is the connect timeout both engines apply: Options.Timeout, else
// fromDSN (the DSN's connect_timeout, 0 without one), else DefaultConnectTimeout.
func (o Options) ConnectTimeout(fromDSN time.Duration) time.Duration {
	switch {
	case o.Timeout != 0:
		return o.Timeout
	case fromDSN != 0:
		return fromDSN
	}
	return DefaultConnectTimeout
}

// Redact removes the password from a DSN (URL or key=value form) so it can be shown.
func Redact(dsn string) string {
	s := strings.TrimSpace(dsn)
	if hasScheme(s) {
		u, err := url.Parse(s)
		if err != nil {
			return "<unparseable DSN>"
		}
		if u.User != nil {
			if _, ok := u.User.Password(); ok {
				u.User = url.UserPassword(u.User.Username(), "xxxxx")
			}
		}
		q := u.Query()
		secret := false
		for k := range q {
			if SecretParam(k) {
				q.Set(k, "xxxxx")
				secret = true
			}
		}
		if secret {
			u.RawQuery = q.Encode()
		}
		return u.String()
	}
	// key=value form; values may be quoted.
	fields := splitKV(s)
	for i, f := range fields {
		k, _, ok := strings.Cut(f, "=")
		if ok && SecretParam(strings.TrimSpace(k)) {
			fields[i] = k + "=xxxxx"
		}
	}
	return strings.Join(fields, " ")
}

// SecretParam reports whether a URL's query parameter (or a key=value DSN's key)
// holds a secret by its name: a password (password, sslpassword, passwd, pwd, pass),
// a token, a secret, an API key. A parameter that names where a secret is
// (passfile, sslkey, sslcert: paths) is not one and stays shown, so a result file
// still says which file a run read its password from.
func SecretParam(key string) bool {
	k := strings.ToLower(key)
	switch k {
	case "pwd", "pass", "apikey", "api_key", "auth", "key":
		return true
	}
	for _, part := range []string{"password", "passwd", "secret", "token"} {
		if strings.Contains(k, part) {
			return true
		}
	}
	return false
}

// RedactURL removes the secrets from s when it is a URL (Redact: the userinfo's
// password, secret query parameters), and returns anything else as it is: for the
// values of flags, any of which may be a URL (--io-node-exporter, --db).
func RedactURL(s string) string {
	if !hasScheme(strings.TrimSpace(s)) {
		return s
	}
	return Redact(s)
}

// hasScheme reports whether s starts like a URL ("name://"), as opposed to libpq's
// key=value form.
func hasScheme(s string) bool {
	i := strings.Index(s, "://")
	if i <= 0 {
		return false
	}
	for j, c := range s[:i] {
		alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !alpha && (j == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// splitKV splits a libpq key=value string on spaces outside single quotes.
func splitKV(s string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			cur.WriteByte(c)
			i++
			cur.WriteByte(s[i])
		case c == '\'':
			quoted = !quoted
			cur.WriteByte(c)
		case c == ' ' && !quoted:
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteByte(c)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// DDL renders the schema in one database's dialect of SQL.
type DDL interface {
	// CreateTable returns the statement creating t with its primary key only.
	CreateTable(t schema.Table) string
	// Indexes and ForeignKeys return the statements run after the data is in:
	// secondary indexes, then (in a later pass) foreign keys.
	Indexes(t schema.Table) []string
	ForeignKeys(t schema.Table) []string
	// DropTable drops t through the session's search path, for tests and tools; a
	// drop of a load names its objects by schema instead (SchemaDropper).
	DropTable(t schema.Table) string
	// CreateSequence creates the BIGINT sequence name whose first value is start
	// (the trade-id sequence); DropSequence removes it if it exists.
	CreateSequence(name string, start int64) string
	DropSequence(name string) string
}
