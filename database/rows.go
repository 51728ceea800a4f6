package database

// RowWriter receives one row's values in column order. The loader's generators write
// through it so the same generator feeds any bulk path (a database's own wire format,
// boxed values for DB.Bulk, or a hash for the determinism fingerprint) without
// building an intermediate row.
type RowWriter interface {
	Int16(v int16)
	Int32(v int32)
	Int64(v int64)
	Bool(v bool)
	// Decimal is unscaled x 10^-scale: cents are Decimal(c, 2).
	Decimal(unscaled int64, scale int)
	Text(s string)
	// Date is days since 1970-01-01.
	Date(days int32)
	// Timestamp is microseconds since 1970-01-01 00:00 UTC.
	Timestamp(micros int64)
	Null()
}

// RowEncoder collects rows in a RowFormat.
type RowEncoder interface {
	RowWriter
	// EndRow closes the current row.
	EndRow()
	// Size is the encoded size so far, in bytes.
	Size() int
	// Take hands over the rows encoded so far and starts an empty buffer.
	Take() (rows int, data []byte)
}
