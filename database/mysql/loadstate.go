package mysql

import (
	"context"
	"database/sql"
	sqldriver "database/sql/driver"
	"errors"
	"fmt"
	"strings"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

var (
	_ database.Locker     = (*DB)(nil)
	_ database.Cataloguer = (*DB)(nil)
	_ database.Maintainer = (*DB)(nil)
	_ database.Sizer      = (*DB)(nil)
)

// lockWait is how long one GET_LOCK call waits before Lock asks again; the caller's
// context ends the wait sooner (the driver closes the connection, which releases
// nothing it did not hold).
const lockWait = 60

// lockName is a lock's name on the server: GET_LOCK's names are the server's, not a
// database's, and at most 64 characters, so the name is the digest of the database's
// name and the caller's (a lock in another database is another lock, as database.Locker
// says).
const lockName = "SHA2(CONCAT(DATABASE(), '/', ?), 256)"

// Lock takes a named lock with GET_LOCK on a connection of its own: the lock is the
// session's, so it spans transactions and a client that dies releases it with its
// connection.
func (m *DB) Lock(ctx context.Context, name string) (func(), error) {
	conn, err := m.DB.Conn(ctx)
	if err != nil {
		return nil, err
	}
	for {
		var got sql.NullInt64
		if err := conn.QueryRowContext(ctx, "SELECT GET_LOCK("+lockName+", ?)", name, lockWait).Scan(&got); err != nil {
			discard(conn)
			return nil, err
		}
		if got.Valid && got.Int64 == 1 {
			break
		}
		if !got.Valid {
			discard(conn)
			return nil, fmt.Errorf("GET_LOCK(%q) failed", name)
		}
		if err := ctx.Err(); err != nil {
			discard(conn)
			return nil, err
		}
	}
	return unlocker(ctx, conn, name), nil
}

// TryLock takes the lock if no other session holds it, without waiting (GET_LOCK
// with a timeout of 0).
func (m *DB) TryLock(ctx context.Context, name string) (func(), bool, error) {
	conn, err := m.DB.Conn(ctx)
	if err != nil {
		return nil, false, err
	}
	var got sql.NullInt64
	if err := conn.QueryRowContext(ctx, "SELECT GET_LOCK("+lockName+", 0)", name).Scan(&got); err != nil {
		discard(conn)
		return nil, false, err
	}
	if !got.Valid || got.Int64 != 1 {
		_ = conn.Close()
		return nil, false, nil
	}
	return unlocker(ctx, conn, name), true, nil
}

// unlocker releases the lock name that conn holds and closes conn; a connection that
// fails the release is discarded, which releases it too.
func unlocker(ctx context.Context, conn *sql.Conn, name string) func() {
	return func() {
		// A stopped server never answers: give up after database.UnlockWait.
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), database.UnlockWait)
		defer cancel()
		if _, err := conn.ExecContext(uctx, "DO RELEASE_LOCK("+lockName+")", name); err != nil {
			discard(conn)
			return
		}
		_ = conn.Close()
	}
}

// discard closes conn for good, so its session (and any lock it held) ends.
func discard(conn *sql.Conn) {
	_ = conn.Raw(func(any) error { return sqldriver.ErrBadConn })
	_ = conn.Close()
}

// catalogSQL lists the current database's secondary indexes, foreign keys and
// sequences; InnoDB builds them valid or not at all.
const catalogSQL = catalogIndexesAndKeys + `
UNION ALL SELECT table_name, 3, 1 FROM information_schema.tables
  WHERE table_schema = DATABASE() AND table_type = 'SEQUENCE'`

const catalogIndexesAndKeys = `SELECT DISTINCT index_name, 1, 1 FROM information_schema.statistics
  WHERE table_schema = DATABASE() AND index_name <> 'PRIMARY'
UNION ALL SELECT constraint_name, 2, 1 FROM information_schema.table_constraints
  WHERE table_schema = DATABASE() AND constraint_type = 'FOREIGN KEY'`

func (m *DB) CatalogSQL() string {
	if m.ids != nil {
		return counterCatalogSQL(schema.TradeIDSequence)
	}
	return catalogSQL
}

func (m *DB) DropIndex(table, name string) string {
	return fmt.Sprintf("DROP INDEX %s ON %s", name, table)
}

// Maintenance runs a post-load statement (an index build, a foreign key). InnoDB
// sizes its index-build sort buffer globally (innodb_sort_buffer_size), so memMB has
// no session form here.
// A foreign key's check (ValidateForeignKeys) is a count that must be zero.
func (m *DB) Maintenance(ctx context.Context, stmt string, memMB int) error {
	if key, ok := strings.CutPrefix(stmt, orphanCheck); ok {
		key, _, _ = strings.Cut(key, " ")
		var n int64
		if err := m.DB.QueryRowContext(ctx, stmt).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("foreign key %s: %d rows have no parent row", key, n)
		}
		return nil
	}
	if strings.HasPrefix(stmt, uncheckedKey) {
		return m.withoutKeyChecks(ctx, stmt)
	}
	_, err := m.DB.ExecContext(ctx, stmt)
	return err
}

// withoutKeyChecks runs stmt on a session of its own with foreign_key_checks off
// (counterDDL.ForeignKeysNotValid); the session is closed afterwards, so no pooled
// connection keeps the checks off.
func (m *DB) withoutKeyChecks(ctx context.Context, stmt string) error {
	conn, err := m.DB.Conn(ctx)
	if err != nil {
		return err
	}
	defer discard(conn)
	if _, err := conn.ExecContext(ctx, "SET SESSION foreign_key_checks = 0"); err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, stmt)
	return err
}

// Analyze updates InnoDB's persistent statistics for the table. ANALYZE TABLE
// reports a failure as a result row, not as an error: the row's message is read.
func (m *DB) Analyze(ctx context.Context, table string) error {
	rows, err := m.DB.QueryContext(ctx, "ANALYZE TABLE "+table)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var tbl, op, typ, msg string
		if err := rows.Scan(&tbl, &op, &typ, &msg); err != nil {
			return err
		}
		if typ == "error" {
			return errors.New("ANALYZE TABLE " + table + ": " + msg)
		}
	}
	return rows.Err()
}

// TableBytes reports the table's clustered index (its rows) and that plus its
// secondary indexes, from InnoDB's statistics (estimates refreshed by ANALYZE).
func (m *DB) TableBytes(ctx context.Context, table string) (heap, total int64, err error) {
	err = m.DB.QueryRowContext(ctx, `SELECT COALESCE(data_length, 0), COALESCE(data_length + index_length, 0)
FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?`, table).Scan(&heap, &total)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, fmt.Errorf("size of %s: no such table", table)
	}
	return heap, total, unavailable(err, "information_schema.tables")
}

var _ database.DatabaseSizer = (*DB)(nil)

// DatabaseBytes is the database's rows and indexes in bytes.
func (m *DB) DatabaseBytes(ctx context.Context) (int64, error) {
	var n int64
	err := m.DB.QueryRowContext(ctx, `SELECT CAST(COALESCE(SUM(data_length + index_length), 0) AS SIGNED)
FROM information_schema.tables WHERE table_schema = DATABASE()`).Scan(&n)
	return n, unavailable(err, "information_schema.tables")
}
