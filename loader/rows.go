package loader

import (
	"time"

	"github.com/brokerbench/brokerbench/database"
)

// RowWriter receives one row's values in column order (see database.RowWriter).
type RowWriter = database.RowWriter

// rowEncoder collects a batch's rows of one table into a chunk that a sink ships.
type rowEncoder interface {
	RowWriter
	// EndRow closes the current row.
	EndRow()
	// Size is the chunk's approximate size in bytes.
	Size() int
	// Take hands over the chunk and starts an empty one.
	Take() chunk
}

// chunk is a group of encoded rows of one table.
type chunk struct {
	rows  int
	bytes int
	data  []byte  // rows in the database's own row format
	boxed [][]any // generic path
}

// Day and time helpers: generators work in Unix days and Unix microseconds.

const (
	microsPerSecond = int64(time.Second / time.Microsecond)
	microsPerDay    = 86400 * microsPerSecond
)

func unixDays(t time.Time) int32 { return int32(t.Unix() / 86400) }

func unixMicros(t time.Time) int64 { return t.UnixMicro() }

// dateOf returns the Unix day of a Unix-microseconds timestamp.
func dateOf(micros int64) int32 { return int32(micros / microsPerDay) }

// encodedRows adapts a database's RowEncoder to the loader's chunks.
type encodedRows struct{ database.RowEncoder }

func (e encodedRows) Take() chunk {
	rows, data := e.RowEncoder.Take()
	return chunk{rows: rows, bytes: len(data), data: data}
}

// boxedEncoder is the generic path: rows of boxed values for database.DB.Bulk.
type boxedEncoder struct {
	cols  int
	cur   []any
	rows  [][]any
	bytes int
}

var _ rowEncoder = (*boxedEncoder)(nil)

func newBoxedEncoder(cols int) *boxedEncoder { return &boxedEncoder{cols: cols} }

func (e *boxedEncoder) add(v any, n int) {
	if e.cur == nil {
		e.cur = make([]any, 0, e.cols)
	}
	e.cur = append(e.cur, v)
	e.bytes += n
}

func (e *boxedEncoder) Int16(v int16) { e.add(v, 2) }
func (e *boxedEncoder) Int32(v int32) { e.add(v, 4) }
func (e *boxedEncoder) Int64(v int64) { e.add(v, 8) }
func (e *boxedEncoder) Bool(v bool)   { e.add(v, 1) }

// Decimal is boxed as float64: every driver converts it to its decimal type, and
// values of at most 15 significant digits round-trip exactly.
func (e *boxedEncoder) Decimal(u int64, scale int) { e.add(float64(u)/pow10f[scale], 8) }
func (e *boxedEncoder) Text(s string)              { e.add(s, len(s)) }
func (e *boxedEncoder) Date(d int32) {
	e.add(time.Unix(int64(d)*86400, 0).UTC(), 4)
}
func (e *boxedEncoder) Timestamp(us int64) { e.add(time.UnixMicro(us).UTC(), 8) }
func (e *boxedEncoder) Null()              { e.add(nil, 0) }

func (e *boxedEncoder) EndRow() {
	e.rows = append(e.rows, e.cur)
	e.cur = nil
}

func (e *boxedEncoder) Size() int { return e.bytes }

func (e *boxedEncoder) Take() chunk {
	c := chunk{rows: len(e.rows), bytes: e.bytes, boxed: e.rows}
	e.rows, e.bytes = nil, 0
	return c
}

var pow10f = [...]float64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9}
