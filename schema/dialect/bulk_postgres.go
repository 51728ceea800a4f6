package dialect

import (
	"context"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5"

	"github.com/brokerbench/brokerbench/schema"
)

// BinaryCopier is PostgreSQL's optional bulk fast path (style.md practice 2: callers
// check for it with a type assertion). The loader encodes rows itself in COPY's binary
// format, which avoids boxing every value, and loads each table in one transaction
// that truncates it first: COPY ... FREEZE is only allowed then, and frozen rows need
// no hint-bit writes or anti-wraparound vacuum later.
type BinaryCopier interface {
	// CopyBinary runs, in one transaction: TRUNCATE table (when freeze), then
	// COPY table (columns) FROM STDIN (FORMAT binary[, FREEZE]) reading r, a complete
	// binary COPY stream (header, tuples, trailer). It returns the rows copied.
	CopyBinary(ctx context.Context, table string, columns []string, r io.Reader, freeze bool) (int64, error)
}

// Maintainer runs the post-load statements with session settings that speed them up.
type Maintainer interface {
	// Maintenance runs stmt (an index build or a foreign-key check) in its own
	// transaction with maintenance_work_mem raised to memMB (index builds sort and key
	// checks hash in memory instead of spilling to disk) and without JIT.
	Maintenance(ctx context.Context, stmt string, memMB int) error
	// Analyze gathers planner statistics for table and sets its visibility map, so
	// later index-only scans need not visit the heap.
	Analyze(ctx context.Context, table string) error
}

var (
	_ BinaryCopier = (*PG)(nil)
	_ Maintainer   = (*PG)(nil)
)

func (p *PG) CopyBinary(ctx context.Context, table string, columns []string, r io.Reader, freeze bool) (int64, error) {
	conn, err := p.Pool.Acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Release()
	tx, err := conn.Begin(ctx)
	if err != nil {
		return 0, err
	}
	// A failed COPY leaves the transaction aborted; roll back without the (possibly
	// canceled) caller context so the connection returns to the pool clean.
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	// The load commits a handful of large transactions; waiting for each flush buys
	// nothing because an interrupted load is redone with --drop anyway.
	if _, err := tx.Exec(ctx, "SET LOCAL synchronous_commit = off"); err != nil {
		return 0, err
	}
	ident := pgx.Identifier{table}.Sanitize()
	opts := "FORMAT binary"
	if freeze {
		if _, err := tx.Exec(ctx, "TRUNCATE "+ident); err != nil {
			return 0, err
		}
		opts += ", FREEZE"
	}
	cols := ""
	for i, c := range columns {
		if i > 0 {
			cols += ", "
		}
		cols += pgx.Identifier{c}.Sanitize()
	}
	tag, err := tx.Conn().PgConn().CopyFrom(ctx, r, fmt.Sprintf("COPY %s (%s) FROM STDIN (%s)", ident, cols, opts))
	if err != nil {
		return 0, err
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
}

func (p *PG) Maintenance(ctx context.Context, stmt string, memMB int) error {
	return p.InTx(ctx, ReadCommitted, func(tx Tx) error {
		if _, err := tx.Exec(ctx, fmt.Sprintf("SET LOCAL maintenance_work_mem = '%dMB'", memMB)); err != nil {
			return err
		}
		// The loader already builds several indexes at once; parallel workers per build
		// would only compete with them for the same cores.
		if _, err := tx.Exec(ctx, "SET LOCAL max_parallel_maintenance_workers = 0"); err != nil {
			return err
		}
		// Foreign-key checks run one large join each: compiling it costs more than the
		// JIT saves (measured: 195 ms with, 59 ms without, for TRADE -> CUSTOMER_ACCOUNT).
		if _, err := tx.Exec(ctx, "SET LOCAL jit = off"); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, stmt)
		return err
	})
}

func (p *PG) Analyze(ctx context.Context, table string) error {
	// Since PostgreSQL 14, COPY FREEZE sets the visibility map itself, so statistics are
	// all that is missing; older servers need VACUUM for it. VACUUM cannot run inside a
	// transaction block; the pool runs each statement on its own.
	var num int
	if err := p.Pool.QueryRow(ctx, "SELECT current_setting('server_version_num')::int").Scan(&num); err != nil {
		return err
	}
	stmt := "ANALYZE "
	if num < 140000 {
		stmt = "VACUUM (ANALYZE) "
	}
	_, err := p.Pool.Exec(ctx, stmt+pgx.Identifier{table}.Sanitize())
	return err
}

// Sizer reports how much disk a table takes.
type Sizer interface {
	// TableBytes returns the table's heap (with TOAST) and its total with indexes.
	TableBytes(ctx context.Context, table string) (heap, total int64, err error)
}

var _ Sizer = (*PG)(nil)

func (p *PG) TableBytes(ctx context.Context, table string) (heap, total int64, err error) {
	err = p.Pool.QueryRow(ctx, "SELECT pg_table_size($1::regclass), pg_total_relation_size($1::regclass)", pgx.Identifier{table}.Sanitize()).Scan(&heap, &total)
	return heap, total, err
}

// KeyDeferrer is implemented by DDL renderers whose bulk path is faster into a table
// without its primary key; the loader then adds the key with the secondary indexes.
type KeyDeferrer interface {
	CreateTableWithoutKey(t schema.Table) string
	AddPrimaryKey(t schema.Table) string
}

// KeyIndexer is implemented by deferring renderers that can build the primary key as
// an ordinary unique index, at the same time as the table's other indexes, and attach
// it as the key afterwards (instant). Without it the loader runs AddPrimaryKey and
// then the table's indexes in turn.
type KeyIndexer interface {
	PrimaryKeyIndex(t schema.Table) string
	AttachPrimaryKey(t schema.Table) string
}

var (
	_ KeyDeferrer = postgresDDL{}
	_ KeyIndexer  = postgresDDL{}
)

// FKValidator is implemented by DDL renderers that can add foreign keys unchecked and
// check them later, which lets the checks run in parallel.
type FKValidator interface {
	ForeignKeysNotValid(t schema.Table) []string
	ValidateForeignKeys(t schema.Table) []string
}

var _ FKValidator = postgresDDL{}
