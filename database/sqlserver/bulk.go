package sqlserver

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"

	mssql "github.com/microsoft/go-mssqldb"

	"github.com/brokerbench/brokerbench/schema"

	"github.com/brokerbench/brokerbench/database"
)

// Bulk batches: each batch is one INSERT BULK in its own transaction. A batch ends at
// whichever limit comes first. Bounded batches keep the transaction log reusable
// (SIMPLE recovery truncates only up to the oldest open transaction) and keep the
// work lost to a failure small; larger batches gain little once a batch fills many
// extents. The byte limit matters for news_item, whose rows carry up to 100 KB.
const (
	sqlserverBulkRows  = 100_000
	sqlserverBulkBytes = 64 << 20
)

// Bulk streams rows with go-mssqldb's bulk copy (mssql.CopyIn) with TABLOCK (on
// Babelfish, through a stage for tables with DECIMAL columns: bulk_babelfish.go). With the
// database in SIMPLE or BULK_LOGGED recovery, TABLOCK is what makes the load
// minimally logged. The loader creates heaps (sqlserverDDL is a KeyDeferrer): into a
// heap every batch is minimally logged and TABLOCK takes a bulk-update (BU) lock that
// concurrent bulk loads share. Into a table with a clustered index (the generic path)
// only the first batch into the empty table is minimally logged, and TABLOCK there
// is an exclusive table lock, so concurrent Bulk calls into one table serialise.
func (m *MSSQL) Bulk(ctx context.Context, table string, columns []string, src database.RowSource) (int64, error) {
	var total int64
	more := src.Next()
	for more {
		n, next, err := m.bulkBatch(ctx, table, columns, src)
		total += n
		if err != nil {
			return total, fmt.Errorf("bulk copy into %s after %d rows: %w", table, total, err)
		}
		more = next
	}
	if err := src.Err(); err != nil {
		return total, fmt.Errorf("bulk copy into %s: rows: %w", table, err)
	}
	return total, nil
}

// bulkBatch copies rows starting with the current one (src.Next already returned
// true) until a limit is reached or the source ends, and commits. It reports whether
// the source has a current row left for the next batch.
func (m *MSSQL) bulkBatch(ctx context.Context, table string, columns []string, src database.RowSource) (rows int64, more bool, err error) {
	tx, err := m.DB.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		return 0, false, err
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	opts := mssql.BulkOptions{Tablock: true, RowsPerBatch: sqlserverBulkRows}
	into, stage, err := m.openStage(ctx, tx, table, columns)
	if err != nil {
		return 0, false, err
	}
	stmt, err := tx.PrepareContext(ctx, mssql.CopyIn(into, opts, columns...))
	if err != nil {
		return 0, false, err
	}
	defer stmt.Close()
	args := make([]any, len(columns))
	scales := decimalScales(table, columns)
	var n, bytes int64
	for more = true; more; more = src.Next() {
		vals, err := src.Values()
		if err != nil {
			return 0, false, err
		}
		if len(vals) != len(columns) {
			return 0, false, fmt.Errorf("row has %d values for %d columns", len(vals), len(columns))
		}
		for i, v := range vals {
			if f, ok := v.(float64); ok && scales[i] >= 0 {
				// A decimal column: the string at the column's scale is exact
				// and rounds as the server would.
				args[i] = strconv.FormatFloat(f, 'f', scales[i], 64)
			} else {
				args[i] = bulkValue(v)
			}
			bytes += approxSize(args[i])
		}
		if _, err := stmt.ExecContext(ctx, args...); err != nil {
			return 0, false, err
		}
		n++
		if n >= sqlserverBulkRows || bytes >= sqlserverBulkBytes {
			more = src.Next()
			break
		}
	}
	if err := src.Err(); err != nil {
		return 0, false, err
	}
	res, err := stmt.ExecContext(ctx) // no arguments: send the batch
	if err != nil {
		return 0, false, err
	}
	if rows, err = res.RowsAffected(); err != nil {
		return 0, false, err
	}
	if err := moveStage(ctx, tx, stage, rows); err != nil {
		return 0, false, err
	}
	if err := tx.Commit(); err != nil {
		return 0, false, err
	}
	return rows, more, nil
}

// openStage creates the batch's stage where the server needs one (Babelfish, a table
// with DECIMAL columns: bulk_babelfish.go) and returns the table the bulk copy goes
// into: the stage, or table itself with a nil stage.
func (m *MSSQL) openStage(ctx context.Context, tx *sql.Tx, table string, columns []string) (string, *bulkStage, error) {
	if !m.endpoint.babelfish {
		return table, nil, nil
	}
	stage, ok := babelfishStage(table, columns)
	if !ok {
		return table, nil, nil
	}
	if _, err := tx.ExecContext(ctx, stage.create); err != nil {
		return "", nil, err
	}
	return stage.name, &stage, nil
}

// moveStage moves a batch from its stage (nil: none) into the table and drops the
// stage; the rows moved must be the rows copied.
func moveStage(ctx context.Context, tx *sql.Tx, stage *bulkStage, copied int64) error {
	if stage == nil {
		return nil
	}
	moved, err := execResult(tx.ExecContext(ctx, stage.move))
	if err != nil {
		return err
	}
	if moved != copied {
		return fmt.Errorf("%d rows copied into %s, %d moved", copied, stage.name, moved)
	}
	_, err = tx.ExecContext(ctx, stage.drop)
	return err
}

// decimalScales returns each column's scale when it is a DECIMAL of the schema, else
// -1 (unknown tables and other types).
func decimalScales(table string, columns []string) []int {
	out := make([]int, len(columns))
	for i := range out {
		out[i] = -1
	}
	t, ok := schemaTable(table)
	if !ok {
		return out
	}
	for i, name := range columns {
		for _, c := range t.Columns {
			if c.Name == name && c.Type.Kind == schema.Decimal {
				out[i] = c.Type.Scale
			}
		}
	}
	return out
}

func approxSize(v any) int64 {
	switch x := v.(type) {
	case string:
		return int64(len(x))
	case []byte:
		return int64(len(x))
	}
	return 8
}
