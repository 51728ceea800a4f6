package sqlserver

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"

	mssql "github.com/microsoft/go-mssqldb"

	"github.com/brokerbench/brokerbench/database"
)

var (
	_ database.SegmentLoader = (*MSSQL)(nil)
	_ database.Locker        = (*MSSQL)(nil)
	_ database.Cataloguer    = (*MSSQL)(nil)
)

// LoadSegment bulk-copies one segment with TABLOCK and runs its record in the same
// transaction. Unlike Bulk it does not commit every sqlserverBulkRows: the segment
// must commit with its record or not at all, so the log holds one segment (a fifth of
// a load unit) at most. Into the loader's heaps every batch stays minimally logged.
// On Babelfish a table with DECIMAL columns goes through a stage, as in Bulk.
func (m *MSSQL) LoadSegment(ctx context.Context, s database.Segment) (n int64, err error) {
	if s.Binary != nil {
		return 0, errors.New("sqlserver: no binary row format; send boxed rows")
	}
	tx, err := m.DB.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		return 0, err
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	into, stage, err := m.openStage(ctx, tx, s.Table, s.Columns)
	if err != nil {
		return 0, err
	}
	stmt, err := tx.PrepareContext(ctx, mssql.CopyIn(into, mssql.BulkOptions{Tablock: true, RowsPerBatch: sqlserverBulkRows}, s.Columns...))
	if err != nil {
		return 0, err
	}
	defer stmt.Close()
	args := make([]any, len(s.Columns))
	scales := decimalScales(s.Table, s.Columns)
	for s.Rows.Next() {
		vals, err := s.Rows.Values()
		if err != nil {
			return 0, err
		}
		if len(vals) != len(s.Columns) {
			return 0, fmt.Errorf("row has %d values for %d columns", len(vals), len(s.Columns))
		}
		for i, v := range vals {
			if f, ok := v.(float64); ok && scales[i] >= 0 {
				args[i] = strconv.FormatFloat(f, 'f', scales[i], 64) // as in bulkBatch
			} else {
				args[i] = bulkValue(v)
			}
		}
		if _, err := stmt.ExecContext(ctx, args...); err != nil {
			return 0, err
		}
	}
	if err := s.Rows.Err(); err != nil {
		return 0, err
	}
	res, err := stmt.ExecContext(ctx) // no arguments: send the rows
	if err != nil {
		return 0, err
	}
	if n, err = res.RowsAffected(); err != nil {
		return 0, err
	}
	if err = moveStage(ctx, tx, stage, n); err != nil {
		return 0, err
	}
	if s.Record != nil {
		if err = s.Record(ctx, msTx{tx}, n); err != nil {
			return 0, err
		}
	}
	return n, tx.Commit()
}

// The application lock is owned by the session, so it spans transactions, and is the
// current database's. lockSQL waits for it and raises a negative return of
// sp_getapplock (timeout, deadlock victim, error); tryLockSQL waits a millisecond
// (@LockTimeout = 1) and returns sp_getapplock's result: 0 or 1 granted, -1 held by
// another session, below that an error. Not 0: on a held lock Babelfish answers
// @LockTimeout = 0 with -999 (an error code on SQL Server) where SQL Server answers
// -1, and both answer a timeout of 1 ms with -1.
const (
	lockSQL = `DECLARE @r int;
EXEC @r = sp_getapplock @Resource = @p1, @LockMode = 'Exclusive', @LockOwner = 'Session', @LockTimeout = -1;
IF @r < 0 THROW 50000, 'sp_getapplock did not grant the lock', 1;`
	tryLockSQL = `DECLARE @r int;
EXEC @r = sp_getapplock @Resource = @p1, @LockMode = 'Exclusive', @LockOwner = 'Session', @LockTimeout = 1;
SELECT @r;`
	unlockSQL = "EXEC sp_releaseapplock @Resource = @p1, @LockOwner = 'Session'"
)

// applockBusy is sp_getapplock's return when another session holds the lock and the
// timeout passed (1 ms here).
const applockBusy = -1

func (m *MSSQL) Lock(ctx context.Context, name string) (func(), error) {
	conn, err := m.DB.Conn(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := conn.ExecContext(ctx, lockSQL, name); err != nil {
		discardConn(conn)
		return nil, err
	}
	return unlocker(ctx, conn, name), nil
}

func (m *MSSQL) TryLock(ctx context.Context, name string) (func(), bool, error) {
	conn, err := m.DB.Conn(ctx)
	if err != nil {
		return nil, false, err
	}
	var r int
	if err := conn.QueryRowContext(ctx, tryLockSQL, name).Scan(&r); err != nil {
		discardConn(conn)
		return nil, false, err
	}
	switch {
	case r >= 0:
		return unlocker(ctx, conn, name), true, nil
	case r == applockBusy:
		_ = conn.Close()
		return nil, false, nil
	}
	discardConn(conn)
	return nil, false, fmt.Errorf("sp_getapplock returned %d", r)
}

// unlocker releases the lock name that conn holds and gives conn back to the pool;
// a connection that fails the release is discarded, which releases it too.
func unlocker(ctx context.Context, conn *sql.Conn, name string) func() {
	return func() {
		// A stopped server never answers: give up after database.UnlockWait.
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), database.UnlockWait)
		defer cancel()
		if _, err := conn.ExecContext(uctx, unlockSQL, name); err != nil {
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		_ = conn.Close()
	}
}

// discardConn closes conn without returning it to the pool: a statement canceled
// midway may have left it unusable.
func discardConn(conn *sql.Conn) {
	_ = conn.Raw(func(any) error { return driver.ErrBadConn })
	_ = conn.Close()
}

// catalogSQL lists the current schema's indexes (valid unless disabled), key and
// foreign-key constraints (valid unless not trusted) and sequences.
const catalogSQL = `SELECT i.name, 1, CAST(1 - i.is_disabled AS bit) FROM sys.indexes i JOIN sys.tables t ON t.object_id = i.object_id
  WHERE i.name IS NOT NULL AND t.schema_id = SCHEMA_ID()
UNION ALL SELECT name, 2, CAST(1 AS bit) FROM sys.key_constraints WHERE schema_id = SCHEMA_ID()
UNION ALL SELECT name, 2, CAST(1 - is_not_trusted AS bit) FROM sys.foreign_keys WHERE schema_id = SCHEMA_ID()
UNION ALL SELECT name, 3, CAST(1 AS bit) FROM sys.sequences WHERE schema_id = SCHEMA_ID()`

func (m *MSSQL) CatalogSQL() string { return catalogSQL }

func (m *MSSQL) DropIndex(table, name string) string {
	return fmt.Sprintf("DROP INDEX IF EXISTS %s ON %s", name, table)
}
