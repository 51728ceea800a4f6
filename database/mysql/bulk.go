package mysql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"

	driver "github.com/go-sql-driver/mysql"

	"github.com/brokerbench/brokerbench/database"
)

var _ database.SegmentLoader = (*DB)(nil)

// loadReadTimeout is how many seconds the server waits for the next chunk of a
// segment's rows.
const loadReadTimeout = 3600

// readerSeq names each bulk operation's reader uniquely in the driver's process-wide
// registry of LOAD DATA readers.
var readerSeq atomic.Int64

// loadData streams r into table with LOAD DATA LOCAL INFILE on tx: the driver reads r
// as the server asks for the "file", so nothing is staged on disk and memory holds
// one chunk at a time. It returns the rows the server took.
//
// With LOCAL the server turns data errors (a value that does not fit, a duplicate
// key) into warnings and goes on; a load with any warning is refused here, with the
// first ones, so no row is silently truncated or skipped.
func loadData(ctx context.Context, tx *sql.Tx, table string, columns []string, r io.Reader) (int64, error) {
	// The server waits net_read_timeout (30 s by default) for each packet of the
	// "file" and then drops the connection; a segment's rows come as the generators
	// make them, and a busy machine can take longer between two chunks.
	if _, err := tx.ExecContext(ctx, "SET SESSION net_read_timeout = "+strconv.Itoa(loadReadTimeout)); err != nil {
		return 0, err
	}
	name := "brokerbench-" + strconv.FormatInt(readerSeq.Add(1), 10)
	driver.RegisterReaderHandler(name, func() io.Reader { return r })
	defer driver.DeregisterReaderHandler(name)
	stmt := fmt.Sprintf("LOAD DATA LOCAL INFILE 'Reader::%s' INTO TABLE %s CHARACTER SET ascii (%s)", name, table, strings.Join(columns, ", "))
	n, err := execResult(tx.ExecContext(ctx, stmt))
	if err != nil {
		return 0, err
	}
	var warnings int64
	if err := tx.QueryRowContext(ctx, "SELECT @@warning_count").Scan(&warnings); err != nil {
		return 0, err
	}
	if warnings > 0 {
		return 0, fmt.Errorf("LOAD DATA into %s: %d warnings, e.g. %s", table, warnings, firstWarnings(ctx, tx))
	}
	return n, nil
}

// firstWarnings reads the first warnings of the session's last statement.
func firstWarnings(ctx context.Context, tx *sql.Tx) string {
	rows, err := tx.QueryContext(ctx, "SHOW WARNINGS LIMIT 3")
	if err != nil {
		return "(SHOW WARNINGS failed: " + err.Error() + ")"
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var level, msg string
		var code int
		if rows.Scan(&level, &code, &msg) == nil {
			out = append(out, fmt.Sprintf("%s %d: %s", level, code, msg))
		}
	}
	return strings.Join(out, "; ")
}

// LoadSegment loads one segment and runs its record in the same transaction: the
// rows and their record commit together or not at all. Segment.Binary is the
// engine's RowFormat; boxed rows are encoded into it on the way.
func (m *DB) LoadSegment(ctx context.Context, s database.Segment) (n int64, err error) {
	tx, err := m.DB.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		return 0, err
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	r := s.Binary
	if r == nil {
		r = &boxedReader{src: s.Rows, cols: len(s.Columns), enc: newTSVEncoder(1 << 20)}
	}
	if n, err = loadData(ctx, tx, s.Table, s.Columns, r); err != nil {
		return 0, err
	}
	if s.Record != nil {
		if err = s.Record(ctx, myTx{tx: tx}, n); err != nil {
			return 0, err
		}
	}
	return n, tx.Commit()
}

// Bulk streams rows into table in one transaction through the same path.
func (m *DB) Bulk(ctx context.Context, table string, columns []string, src database.RowSource) (n int64, err error) {
	return m.LoadSegment(ctx, database.Segment{Table: table, Columns: columns, Rows: src})
}

// boxedReader encodes a RowSource into the row format as the driver reads it.
type boxedReader struct {
	src     database.RowSource
	cols    int
	enc     *tsvEncoder
	pending []byte
	done    bool
}

func (b *boxedReader) Read(p []byte) (int, error) {
	for len(b.pending) == 0 {
		if b.done {
			return 0, io.EOF
		}
		if err := b.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, b.pending)
	b.pending = b.pending[n:]
	return n, nil
}

// fill encodes rows until a chunk is full or the source ends.
func (b *boxedReader) fill() error {
	for b.enc.Size() < b.enc.chunk {
		if !b.src.Next() {
			b.done = true
			if err := b.src.Err(); err != nil {
				return err
			}
			break
		}
		vals, err := b.src.Values()
		if err != nil {
			return err
		}
		if len(vals) != b.cols {
			return errors.New("mysql bulk: a row has " + strconv.Itoa(len(vals)) + " values for " + strconv.Itoa(b.cols) + " columns")
		}
		for _, v := range vals {
			if err := b.enc.writeBoxed(v); err != nil {
				return err
			}
		}
		b.enc.EndRow()
	}
	_, b.pending = b.enc.Take()
	return nil
}
