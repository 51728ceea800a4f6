package postgres

import (
	"encoding/binary"
	"math"

	"github.com/brokerbench/brokerbench/database"
)

// PostgreSQL binary COPY encoding (the RowFormat behind PG.LoadSegment's Segment.Binary). Each tuple is
// a field count, then per field a byte length (-1 for NULL) and the value in the
// type's binary send format.

// copyFormat is the Engine's RowFormat.
var copyFormat = &database.RowFormat{
	NewEncoder: func(cols, chunkBytes int) database.RowEncoder { return newPGBinaryEncoder(cols, chunkBytes) },
	Header:     pgCopyHeader,
	Trailer:    pgCopyTrailer,
}

// pgCopyHeader starts a binary COPY stream: signature, flags, header-extension length.
var pgCopyHeader = []byte("PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00")

// pgCopyTrailer ends it: a field count of -1.
var pgCopyTrailer = []byte{0xff, 0xff}

const (
	pgEpochDays   = 10957 // 2000-01-01 in Unix days
	pgEpochMicros = pgEpochDays * 86400 * 1_000_000
)

type pgBinaryEncoder struct {
	cols  int16
	buf   []byte
	rows  int
	open  bool
	chunk int // bytes a chunk is shipped at; the buffer has room for one more row's worth
}

var _ database.RowEncoder = (*pgBinaryEncoder)(nil)

func newPGBinaryEncoder(cols, chunkBytes int) *pgBinaryEncoder {
	return &pgBinaryEncoder{cols: int16(cols), chunk: chunkBytes, buf: make([]byte, 0, chunkBytes+4096)}
}

func (e *pgBinaryEncoder) begin() {
	if !e.open {
		e.buf = binary.BigEndian.AppendUint16(e.buf, uint16(e.cols))
		e.open = true
	}
}

func (e *pgBinaryEncoder) Int16(v int16) {
	e.begin()
	e.buf = append(e.buf, 0, 0, 0, 2, byte(v>>8), byte(v))
}

func (e *pgBinaryEncoder) Int32(v int32) {
	e.begin()
	e.buf = append(e.buf, 0, 0, 0, 4)
	e.buf = binary.BigEndian.AppendUint32(e.buf, uint32(v))
}

func (e *pgBinaryEncoder) Int64(v int64) {
	e.begin()
	e.buf = append(e.buf, 0, 0, 0, 8)
	e.buf = binary.BigEndian.AppendUint64(e.buf, uint64(v))
}

func (e *pgBinaryEncoder) Bool(v bool) {
	e.begin()
	b := byte(0)
	if v {
		b = 1
	}
	e.buf = append(e.buf, 0, 0, 0, 1, b)
}

// Decimal writes NUMERIC's send format: ndigits, weight, sign, dscale, then base-10000
// digits, most significant first, the point falling between digit groups.
func (e *pgBinaryEncoder) Decimal(u int64, scale int) {
	e.begin()
	e.buf = appendPGNumeric(e.buf, u, scale)
}

func appendPGNumeric(buf []byte, u int64, scale int) []byte {
	sign := uint16(0)
	var x uint64
	if u < 0 {
		sign = 0x4000
		x = uint64(-u)
	} else {
		x = uint64(u)
	}
	// Align the fraction to whole base-10000 groups.
	groups := (scale + 3) / 4
	x *= uint64(pow10[groups*4-scale])
	var digits [8]uint16 // least significant first; int64 needs at most 5 groups, x10^3 at most 6
	n := 0
	for x > 0 {
		digits[n] = uint16(x % 10000)
		x /= 10000
		n++
	}
	weight := n - groups - 1
	lo := 0
	for lo < n && digits[lo] == 0 { // trailing zero groups carry no information
		lo++
	}
	nd := n - lo
	if nd == 0 {
		weight = 0
	}
	buf = binary.BigEndian.AppendUint32(buf, uint32(8+2*nd))
	buf = binary.BigEndian.AppendUint16(buf, uint16(nd))
	buf = binary.BigEndian.AppendUint16(buf, uint16(int16(weight)))
	buf = binary.BigEndian.AppendUint16(buf, sign)
	buf = binary.BigEndian.AppendUint16(buf, uint16(scale))
	for i := n - 1; i >= lo; i-- {
		buf = binary.BigEndian.AppendUint16(buf, digits[i])
	}
	return buf
}

func (e *pgBinaryEncoder) Text(s string) {
	e.begin()
	e.buf = binary.BigEndian.AppendUint32(e.buf, uint32(len(s)))
	e.buf = append(e.buf, s...)
}

func (e *pgBinaryEncoder) Date(d int32) {
	e.Int32(d - pgEpochDays)
}

func (e *pgBinaryEncoder) Timestamp(us int64) {
	e.Int64(us - pgEpochMicros)
}

func (e *pgBinaryEncoder) Null() {
	e.begin()
	e.buf = binary.BigEndian.AppendUint32(e.buf, math.MaxUint32)
}

func (e *pgBinaryEncoder) EndRow() {
	e.begin() // a row with no columns still has its count
	e.open = false
	e.rows++
}

func (e *pgBinaryEncoder) Size() int { return len(e.buf) }

func (e *pgBinaryEncoder) Take() (rows int, data []byte) {
	rows, data = e.rows, e.buf
	e.buf = make([]byte, 0, e.chunk+4096)
	e.rows = 0
	return rows, data
}
