package postgres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/brokerbench/brokerbench/database"
)

// PG is a PostgreSQL pool (pgx). Statements are cached per connection
// by pgx (QueryExecModeCacheStatement), so named SQL is prepared once per connection.
type PG struct {
	Pool   *pgxpool.Pool
	target string
}

var _ database.DB = (*PG)(nil)

func open(ctx context.Context, dsn string, o database.Options) (database.DB, error) {
	pg, err := Open(ctx, dsn, o)
	if err != nil {
		return nil, err // a nil *PG in a DB interface would not compare equal to nil
	}
	return pg, nil
}

// Open connects to a PostgreSQL DSN (URL or key=value). Code outside database/...
// goes through database.Open; tests that need the pool itself call this.
func Open(ctx context.Context, dsn string, o database.Options) (*PG, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// pgx's parse errors can quote the DSN; never pass them through.
		msg := fmt.Sprintf("invalid PostgreSQL DSN %s: %s", database.Redact(dsn), parseErrorReason(err))
		// A file the DSN names (sslrootcert, passfile) that cannot be read is not a
		// mistake in the URL itself: a runtime error, not a usage one.
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			return nil, errors.New(msg)
		}
		return nil, database.InvalidDSN("%s", msg)
	}
	if o.MaxConns > 0 {
		cfg.MaxConns = int32(o.MaxConns)
	}
	cfg.MinConns = 0
	sizeStatementCaches(cfg.ConnConfig)
	cfg.AfterConnect = registerCents
	timeout := o.ConnectTimeout(cfg.ConnConfig.ConnectTimeout) // the DSN's is libpq's connect_timeout
	cfg.ConnConfig.ConnectTimeout = timeout
	cfg.ConnConfig.DialFunc = database.Dialer().DialContext // TCP keepalives (database.KeepAlive)
	if o.AppName != "" {
		cfg.ConnConfig.RuntimeParams["application_name"] = o.AppName
	}
	target := pgTarget(cfg.ConnConfig)
	pctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, database.ConnectError(ctx, pctx, "PostgreSQL", target, timeout, safeConnErr(err))
	}
	if err := pool.Ping(pctx); err != nil {
		pool.Close()
		return nil, database.ConnectError(ctx, pctx, "PostgreSQL", target, timeout, safeConnErr(err))
	}
	return &PG{Pool: pool, target: target}, nil
}

func pgTarget(c *pgx.ConnConfig) string {
	host := c.Host
	if c.Database == "" {
		c = c.Copy()
		c.Database = "(the user's default)"
	}
	if strings.HasPrefix(host, "/") {
		return fmt.Sprintf("%s (socket) port %d, database %s, user %s", host, c.Port, c.Database, c.User)
	}
	return fmt.Sprintf("%s, database %s, user %s", net.JoinHostPort(host, strconv.Itoa(int(c.Port))), c.Database, c.User)
}

// parseErrorReason keeps pgx's reason ("invalid port") but drops the quoted
// connection string, whose password pgx only redacts as best it can: the reason is
// the error of a copy whose connection string is empty.
func parseErrorReason(err error) string {
	var pe *pgconn.ParseConfigError
	if !errors.As(err, &pe) {
		return "cannot parse"
	}
	bare := *pe
	bare.ConnString = ""
	if reason, ok := strings.CutPrefix(bare.Error(), "cannot parse ``: "); ok {
		return reason
	}
	if pe.Unwrap() != nil {
		return pe.Unwrap().Error()
	}
	return "cannot parse"
}

// safeConnErr reduces a connect error to its cause: pgconn's ConnectError names host
// and user (not the password), but we add our own target already.
func safeConnErr(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return fmt.Errorf("%s (SQLSTATE %s)", pgErr.Message, pgErr.Code)
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) && ce.Unwrap() != nil {
		return safeConnErr(ce.Unwrap())
	}
	// pgx joins one error per attempt (TLS then plain text, each address of a
	// host): say each distinct cause once.
	if lines := strings.Split(err.Error(), "\n"); len(lines) > 1 {
		seen := map[string]bool{}
		var keep []string
		for _, l := range lines {
			if l = strings.TrimSpace(l); l != "" && !seen[l] {
				seen[l] = true
				keep = append(keep, l)
			}
		}
		return &joinedConnErr{msg: strings.Join(keep, "; "), err: err}
	}
	return err
}

// joinedConnErr keeps the original error for errors.Is/As (classification) while
// saying each cause once.
type joinedConnErr struct {
	msg string
	err error
}

func (e *joinedConnErr) Error() string { return e.msg }
func (e *joinedConnErr) Unwrap() error { return e.err }

func (p *PG) Name() database.Name { return database.Postgres }
func (p *PG) Target() string      { return p.target }

// closeWait bounds Close. pgx ends a connection a deadline cut by sending the
// server a cancel request and draining its answer for up to 15 s; a stopped server
// never answers, and a run that gave it up closes four pools one after the other.
// A server that answers closes a pool in milliseconds.
const closeWait = 500 * time.Millisecond

// Close closes the pool, waiting at most closeWait for its connections to be
// closed; the rest finishes in the background (or with the process).
func (p *PG) Close() {
	done := make(chan struct{})
	go func() { p.Pool.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(closeWait):
	}
}

func pgIso(iso database.Isolation) pgx.TxIsoLevel {
	switch iso {
	case database.RepeatableRead, database.InsertOnlyRepeatableRead:
		return pgx.RepeatableRead
	case database.Serializable:
		return pgx.Serializable
	}
	return pgx.ReadCommitted
}

// InTx runs fn in one transaction on one pooled connection. The BEGIN is not a round
// trip of its own: it goes out with the transaction's first statement (pgTx).
func (p *PG) InTx(ctx context.Context, iso database.Isolation, fn func(database.Tx) error) error {
	if iso == database.ReadOnlyCommitted {
		return p.autocommit(ctx, fn)
	}
	conn, err := p.Pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// The pool destroys a connection released inside a transaction (a failed
	// rollback or commit), so a broken one is never reused.
	defer conn.Release()
	t := &pgTx{c: conn.Conn(), opts: pgx.TxOptions{IsoLevel: pgIso(iso)}}
	if err := fn(t); err != nil {
		if t.tx != nil {
			// The rollback error is secondary; the body's error says what went wrong.
			_ = t.tx.Rollback(context.WithoutCancel(ctx))
		}
		return err
	}
	if t.tx == nil || t.committed {
		// No statement was sent, or the COMMIT went with the last ones (PipelineCommit).
		return nil
	}
	return t.tx.Commit(ctx)
}

func (p *PG) Exec(ctx context.Context, sql string, args ...any) (int64, error) {
	tag, err := p.Pool.Exec(ctx, sql, withCents(args)...)
	return tag.RowsAffected(), err
}

func (p *PG) Query(ctx context.Context, sql string, args ...any) (database.Rows, error) {
	r, err := p.Pool.Query(ctx, sql, withCents(args)...)
	if err != nil {
		return nil, err
	}
	return newRows(r), nil
}

func (p *PG) QueryRow(ctx context.Context, sql string, args ...any) database.Row {
	return pgRow{p.Pool.QueryRow(ctx, sql, withCents(args)...)}
}

func (p *PG) Bulk(ctx context.Context, table string, columns []string, src database.RowSource) (int64, error) {
	return p.Pool.CopyFrom(ctx, pgx.Identifier{table}, columns, src)
}

func (p *PG) Server(ctx context.Context) (database.ServerInfo, error) {
	info := database.ServerInfo{Product: Engine.Product, Settings: map[string]string{}}
	var num string
	if err := p.Pool.QueryRow(ctx, "SELECT current_setting('server_version'), current_setting('server_version_num')").Scan(&info.Version, &num); err != nil {
		return info, err
	}
	info.Num, _ = strconv.Atoi(num)
	rows, err := p.Pool.Query(ctx, `SELECT name, setting || COALESCE(unit, '') FROM pg_settings
		WHERE name IN ('shared_buffers','max_connections','synchronous_commit','fsync','wal_level',
		'checkpoint_timeout','max_wal_size','effective_io_concurrency','random_page_cost','work_mem',
		'full_page_writes','wal_sync_method','wal_compression','huge_pages','default_transaction_isolation')`)
	if err != nil {
		return info, err
	}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			rows.Close()
			return info, err
		}
		info.Settings[k] = v
	}
	rows.Close()
	// data_directory needs superuser or pg_read_all_settings; without it the I/O
	// sampler falls back to other sources.
	var dir string
	if err := p.Pool.QueryRow(ctx, "SELECT current_setting('data_directory')").Scan(&dir); err == nil {
		info.DataDir = dir
		info.WALDir = dir + "/pg_wal"
	}
	return info, rows.Err()
}

// autocommit runs read-only read-committed work on one connection without BEGIN and
// COMMIT: each statement is its own implicit transaction with its own snapshot, which
// is exactly what read committed gives inside an explicit one.
func (p *PG) autocommit(ctx context.Context, fn func(database.Tx) error) error {
	conn, err := p.Pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	return fn(pgConnTx{conn.Conn()})
}

// pgConnTx runs statements on one connection outside an explicit transaction.
type pgConnTx struct{ c *pgx.Conn }

func (t pgConnTx) Exec(ctx context.Context, sql string, args ...any) (int64, error) {
	tag, err := t.c.Exec(ctx, sql, withCents(args)...)
	return tag.RowsAffected(), err
}

func (t pgConnTx) Query(ctx context.Context, sql string, args ...any) (database.Rows, error) {
	r, err := t.c.Query(ctx, sql, withCents(args)...)
	if err != nil {
		return nil, err
	}
	return newRows(r), nil
}

func (t pgConnTx) QueryRow(ctx context.Context, sql string, args ...any) database.Row {
	return pgRow{t.c.QueryRow(ctx, sql, withCents(args)...)}
}

// pgTx is one read-write transaction. Its BEGIN is sent with its first statement
// (pgx's Batch.BeginTx), saving the round trip that costs the client as much as a
// statement; tx is nil until then.
type pgTx struct {
	c    *pgx.Conn
	opts pgx.TxOptions
	tx   pgx.Tx
	// committed: the COMMIT went out with the last statements and succeeded.
	committed bool
}

func (t *pgTx) Exec(ctx context.Context, sql string, args ...any) (int64, error) {
	if t.tx == nil {
		var n int64
		err := t.Pipeline(ctx, []database.Queued{{SQL: sql, Args: args, Affected: func(k int64) error { n = k; return nil }}})
		return n, err
	}
	tag, err := t.tx.Exec(ctx, sql, withCents(args)...)
	return tag.RowsAffected(), err
}

func (t *pgTx) Query(ctx context.Context, sql string, args ...any) (database.Rows, error) {
	if t.tx == nil {
		b := &pgx.Batch{}
		b.BeginTx(t.opts)
		b.Queue(sql, withCents(args)...)
		br := t.c.SendBatch(ctx, b)
		t.tx = br.Tx()
		if _, err := br.Exec(); err != nil {
			_ = br.Close()
			return nil, err
		}
		r, err := br.Query()
		if err != nil {
			_ = br.Close()
			return nil, err
		}
		return &batchRows{pgRows: newRows(r), br: br}, nil
	}
	r, err := t.tx.Query(ctx, sql, withCents(args)...)
	if err != nil {
		return nil, err
	}
	return newRows(r), nil
}

func (t *pgTx) QueryRow(ctx context.Context, sql string, args ...any) database.Row {
	if t.tx == nil {
		return firstRow{t: t, ctx: ctx, sql: sql, args: args}
	}
	return pgRow{t.tx.QueryRow(ctx, sql, withCents(args)...)}
}

// firstRow is the transaction's first statement when it is a QueryRow: sent with the
// BEGIN when it is scanned.
type firstRow struct {
	t    *pgTx
	ctx  context.Context
	sql  string
	args []any
}

func (r firstRow) Scan(dest ...any) error {
	found := false
	err := r.t.Pipeline(r.ctx, []database.Queued{{SQL: r.sql, Args: r.args, Scan: func(rows database.Rows) error {
		if found {
			return nil // QueryRow reads the first row only
		}
		found = true
		return rows.Scan(dest...)
	}}})
	if err == nil && !found {
		return database.ErrNoRows
	}
	return err
}

// batchRows are the rows of a transaction's first statement, sent with its BEGIN in
// one batch: the batch is closed (its trailing sync read) as soon as the rows are, so
// the connection is free for the next statement.
type batchRows struct {
	*pgRows
	br    pgx.BatchResults
	brErr error
	done  bool
}

func (r *batchRows) Next() bool {
	if r.r.Next() {
		return true
	}
	r.Close()
	return false
}

func (r *batchRows) Close() {
	if r.done {
		return
	}
	r.done = true
	r.r.Close()
	r.brErr = r.br.Close()
}

func (r *batchRows) Err() error {
	if err := r.r.Err(); err != nil {
		return err
	}
	return r.brErr
}

// pgRows are a query's rows; amounts scan through scratch reused from row to row.
type pgRows struct {
	r       pgx.Rows
	scratch centsScratch
}

func newRows(r pgx.Rows) *pgRows { return &pgRows{r: r} }

func (r *pgRows) Next() bool             { return r.r.Next() }
func (r *pgRows) Scan(dest ...any) error { return r.r.Scan(r.scratch.wrap(dest)...) }
func (r *pgRows) Err() error             { return r.r.Err() }
func (r *pgRows) Close()                 { r.r.Close() }

type pgRow struct{ r pgx.Row }

func (r pgRow) Scan(dest ...any) error {
	err := r.r.Scan(withCentsDests(dest)...)
	if errors.Is(err, pgx.ErrNoRows) {
		return database.ErrNoRows
	}
	return err
}

// SQLState returns the PostgreSQL error code of err, or "".
func SQLState(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	return ""
}

// classify sorts an error by SQLSTATE class, never by message text; ok is false for
// an error pgx did not produce.
func classify(err error) (database.Class, bool) {
	switch code := SQLState(err); {
	case code == "40001", code == "40P01", code == "55P03": // serialization, deadlock, lock not available
		return database.Retry, true
	case code == codeIntendedRollback: // a server routine's intended rollback (routines.go)
		return database.Rollback, true
	case strings.HasPrefix(code, "08"), code == "57P01", code == "57P02", code == "57P03", code == "53300":
		// connection exceptions, admin/crash shutdown, cannot connect now, too many connections
		return database.Connection, true
	case code != "":
		return database.Fatal, true
	}
	if pgconn.SafeToRetry(err) || pgconn.Timeout(err) {
		return database.Connection, true
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return database.Connection, true
	}
	return database.Fatal, false
}

// connKind sorts a connection failure the server named by SQLSTATE: it refused the
// session (starting up or shutting down, too many connections, rejected) or ended
// one it had (an administrator's or a crash's shutdown, a broken link).
func connKind(err error) (database.ConnKind, bool) {
	switch SQLState(err) {
	case "57P03", "53300", "08001", "08004":
		return database.ConnRefused, true
	case "57P01", "57P02", "08006", "08003":
		return database.ConnReset, true
	}
	return database.ConnOther, false
}
