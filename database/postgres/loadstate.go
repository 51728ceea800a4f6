package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/brokerbench/brokerbench/database"
)

var (
	_ database.SegmentLoader = (*PG)(nil)
	_ database.Locker        = (*PG)(nil)
	_ database.Cataloguer    = (*PG)(nil)
)

// LoadSegment copies one segment and runs its record in the same transaction. A
// failed COPY leaves the transaction aborted, so it rolls back without the (possibly
// canceled) caller's context and the connection returns to the pool clean. It commits
// without waiting for the flush: a segment lost to a server crash is lost together
// with its record (WAL order), and the resumed load redoes it.
func (p *PG) LoadSegment(ctx context.Context, s database.Segment) (int64, error) {
	conn, err := p.Pool.Acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Release()
	tx, err := conn.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	if _, err := tx.Exec(ctx, "SET LOCAL synchronous_commit = off"); err != nil {
		return 0, err
	}
	ident := pgx.Identifier{s.Table}.Sanitize()
	var n int64
	if s.Binary != nil {
		opts := "FORMAT binary"
		if s.Freeze {
			if _, err := tx.Exec(ctx, "TRUNCATE "+ident); err != nil {
				return 0, err
			}
			opts += ", FREEZE"
		}
		cols := ""
		for i, c := range s.Columns {
			if i > 0 {
				cols += ", "
			}
			cols += pgx.Identifier{c}.Sanitize()
		}
		tag, err := tx.Conn().PgConn().CopyFrom(ctx, s.Binary, fmt.Sprintf("COPY %s (%s) FROM STDIN (%s)", ident, cols, opts))
		if err != nil {
			return 0, err
		}
		n = tag.RowsAffected()
	} else if n, err = tx.CopyFrom(ctx, pgx.Identifier{s.Table}, s.Columns, s.Rows); err != nil {
		return 0, err
	}
	if s.Record != nil {
		if err := s.Record(ctx, &pgTx{c: tx.Conn(), tx: tx}, n); err != nil {
			return 0, err
		}
	}
	return n, tx.Commit(ctx)
}

// lockSQL takes and releases a session-level advisory lock keyed by the name's hash;
// tryLockSQL takes it only when no session holds it (advisory locks are the
// database's: the same key in another database does not collide).
const (
	lockSQL    = "SELECT pg_advisory_lock(hashtextextended($1, 0))"
	tryLockSQL = "SELECT pg_try_advisory_lock(hashtextextended($1, 0))"
	unlockSQL  = "SELECT pg_advisory_unlock(hashtextextended($1, 0))"
)

func (p *PG) Lock(ctx context.Context, name string) (func(), error) {
	conn, err := p.Pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, lockSQL, name); err != nil {
		// A wait canceled midway may leave the connection unusable: do not reuse it.
		_ = conn.Conn().Close(context.WithoutCancel(ctx))
		conn.Release()
		return nil, err
	}
	return unlocker(ctx, conn, name), nil
}

func (p *PG) TryLock(ctx context.Context, name string) (func(), bool, error) {
	conn, err := p.Pool.Acquire(ctx)
	if err != nil {
		return nil, false, err
	}
	var held bool
	if err := conn.QueryRow(ctx, tryLockSQL, name).Scan(&held); err != nil {
		_ = conn.Conn().Close(context.WithoutCancel(ctx))
		conn.Release()
		return nil, false, err
	}
	if !held {
		conn.Release()
		return nil, false, nil
	}
	return unlocker(ctx, conn, name), true, nil
}

// unlocker releases the lock name that conn holds and gives conn back to the pool;
// a connection that fails the release (or gets no answer within
// database.UnlockWait) is closed, which releases it too.
func unlocker(ctx context.Context, conn *pgxpool.Conn, name string) func() {
	return func() {
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), database.UnlockWait)
		defer cancel()
		if _, err := conn.Exec(uctx, unlockSQL, name); err != nil {
			_ = conn.Conn().Close(context.WithoutCancel(ctx))
		}
		conn.Release()
	}
}

// catalogSQL lists the current schema's indexes (valid unless a failed concurrent
// build left them), constraints (validated unless added NOT VALID) and sequences.
const catalogSQL = `SELECT c.relname, 1, i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
  WHERE c.relnamespace = current_schema()::regnamespace
UNION ALL SELECT conname, 2, convalidated FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
UNION ALL SELECT relname, 3, true FROM pg_class WHERE relkind = 'S' AND relnamespace = current_schema()::regnamespace`

func (p *PG) CatalogSQL() string { return catalogSQL }

func (p *PG) DropIndex(_, name string) string {
	return "DROP INDEX IF EXISTS " + pgx.Identifier{name}.Sanitize()
}

var _ database.Freezer = (*PG)(nil)

// Freeze runs VACUUM (FREEZE): pages COPY FREEZE wrote are all-frozen in the
// visibility map already and skipped, the others are frozen and marked all-visible.
// VACUUM cannot run in a transaction block; the pool runs it on its own.
func (p *PG) Freeze(ctx context.Context, table string) error {
	_, err := p.Pool.Exec(ctx, "VACUUM (FREEZE) "+pgx.Identifier{table}.Sanitize())
	return err
}
