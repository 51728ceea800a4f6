package database

// Cents is a money amount the workload keeps as integer cents (exact decimals with
// two places in the database). A database package may bind and scan it straight from
// its wire format instead of through a decimal string: on PostgreSQL the string path
// (format, parse into a big integer, encode; and back) cost the driver more CPU than
// any frame's own work. Without this interface a value still binds through
// driver.Valuer and scans through sql.Scanner, so the results are the same either way.
type Cents interface {
	Cents() int64
}

// CentsScanner is a Cents destination: ScanCents receives the column's value rounded
// half away from zero at the cent; null is true for SQL NULL (cents is then 0).
type CentsScanner interface {
	ScanCents(cents int64, null bool)
}
