package mysql

import (
	"database/sql/driver"
	"fmt"
	"reflect"
	"strconv"
	"time"

	"github.com/brokerbench/brokerbench/database"
)

// The bulk rows are LOAD DATA's default text format: fields separated by a tab, rows
// ended by a newline, a backslash escaping a tab, newline, carriage return, NUL or
// backslash inside a value, and \N for NULL. It needs no header or trailer, and the
// server parses it without a FIELDS or LINES clause.

var rowFormat = &database.RowFormat{
	NewEncoder: func(cols, chunkBytes int) database.RowEncoder { return newTSVEncoder(chunkBytes) },
}

type tsvEncoder struct {
	buf   []byte
	rows  int
	chunk int
	field bool // a field of the current row was written: the next one needs a tab
}

var _ database.RowEncoder = (*tsvEncoder)(nil)

func newTSVEncoder(chunkBytes int) *tsvEncoder {
	return &tsvEncoder{chunk: chunkBytes, buf: make([]byte, 0, chunkBytes+4096)}
}

func (e *tsvEncoder) sep() {
	if e.field {
		e.buf = append(e.buf, '\t')
	}
	e.field = true
}

func (e *tsvEncoder) Int16(v int16) { e.Int64(int64(v)) }
func (e *tsvEncoder) Int32(v int32) { e.Int64(int64(v)) }

func (e *tsvEncoder) Int64(v int64) {
	e.sep()
	e.buf = strconv.AppendInt(e.buf, v, 10)
}

func (e *tsvEncoder) Bool(v bool) {
	e.sep()
	if v {
		e.buf = append(e.buf, '1')
	} else {
		e.buf = append(e.buf, '0')
	}
}

// Decimal writes unscaled x 10^-scale exactly: the digits with the point put in.
func (e *tsvEncoder) Decimal(u int64, scale int) {
	e.sep()
	e.buf = appendDecimal(e.buf, u, scale)
}

func appendDecimal(buf []byte, u int64, scale int) []byte {
	if u < 0 {
		buf = append(buf, '-')
	}
	x := uint64(u)
	if u < 0 {
		x = uint64(-u)
	}
	var d [24]byte
	s := strconv.AppendUint(d[:0], x, 10)
	for len(s) <= scale { // at least one digit before the point
		s = append([]byte{'0'}, s...)
	}
	whole := len(s) - scale
	buf = append(buf, s[:whole]...)
	if scale > 0 {
		buf = append(buf, '.')
		buf = append(buf, s[whole:]...)
	}
	return buf
}

func (e *tsvEncoder) Text(s string) {
	e.sep()
	e.buf = appendEscaped(e.buf, s)
}

func appendEscaped(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\t':
			buf = append(buf, '\\', 't')
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\r':
			buf = append(buf, '\\', 'r')
		case 0:
			buf = append(buf, '\\', '0')
		case '\\':
			buf = append(buf, '\\', '\\')
		default:
			buf = append(buf, c)
		}
	}
	return buf
}

// Date writes days since 1970-01-01 as YYYY-MM-DD.
func (e *tsvEncoder) Date(days int32) {
	e.sep()
	e.buf = time.Unix(int64(days)*86400, 0).UTC().AppendFormat(e.buf, time.DateOnly)
}

// Timestamp writes microseconds since the epoch as DATETIME(6) text.
func (e *tsvEncoder) Timestamp(us int64) {
	e.sep()
	e.buf = time.UnixMicro(us).UTC().AppendFormat(e.buf, "2006-01-02 15:04:05.000000")
}

func (e *tsvEncoder) Null() {
	e.sep()
	e.buf = append(e.buf, '\\', 'N')
}

func (e *tsvEncoder) EndRow() {
	e.buf = append(e.buf, '\n')
	e.field = false
	e.rows++
}

func (e *tsvEncoder) Size() int { return len(e.buf) }

func (e *tsvEncoder) Take() (rows int, data []byte) {
	rows, data = e.rows, e.buf
	e.buf = make([]byte, 0, e.chunk+4096)
	e.rows = 0
	return rows, data
}

// writeBoxed writes one boxed value (the generic path's RowSource, DB.Bulk) in the
// same format. The loader boxes decimals as float64: the shortest decimal string that
// reads back as the same float is the value it meant.
func (e *tsvEncoder) writeBoxed(v any) error {
	switch x := v.(type) {
	case nil:
		e.Null()
	case string:
		e.Text(x)
	case []byte:
		e.Text(string(x))
	case bool:
		e.Bool(x)
	case int64:
		e.Int64(x)
	case int32:
		e.Int64(int64(x))
	case int16:
		e.Int64(int64(x))
	case int:
		e.Int64(int64(x))
	case float64:
		e.sep()
		e.buf = strconv.AppendFloat(e.buf, x, 'f', -1, 64)
	case time.Time:
		e.sep()
		x = x.UTC()
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 && x.Nanosecond() == 0 {
			e.buf = x.AppendFormat(e.buf, time.DateOnly) // a DATE takes it without a truncation warning
		} else {
			e.buf = x.AppendFormat(e.buf, "2006-01-02 15:04:05.000000")
		}
	case driver.Valuer:
		dv, err := x.Value()
		if err != nil {
			return err
		}
		return e.writeBoxed(dv)
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			e.Int64(rv.Int())
		case reflect.String:
			e.Text(rv.String())
		case reflect.Pointer:
			if rv.IsNil() {
				e.Null()
				return nil
			}
			return e.writeBoxed(rv.Elem().Interface())
		default:
			return fmt.Errorf("mysql bulk: cannot encode a %T", v)
		}
	}
	return nil
}
