// Package mysql is brokerbench's MySQL and MariaDB engine: go-sql-driver/mysql pools,
// InnoDB DDL, LOAD DATA LOCAL INFILE from a registered reader for the bulk path, error
// classification by error number, performance_schema's file I/O and the buffer pool's
// counters. One engine serves MySQL 8.0+ and MariaDB 10.6+; where they differ it asks
// the server. Importing it registers Engine with package database.
package mysql

import (
	driver "github.com/go-sql-driver/mysql"

	"github.com/brokerbench/brokerbench/database"
)

// Engine is MySQL and MariaDB as package database sees them. Its RowFormat is the
// tab-separated text LOAD DATA reads by default (rowformat.go).
var Engine = &database.Engine{
	Name:        database.MySQL,
	Product:     "MySQL/MariaDB",
	Schemes:     []string{"mysql", "mariadb"},
	Open:        open,
	DDL:         mysqlDDL{},
	SQL:         SQL,
	Classify:    classify,
	ConnKind:    connKind,
	Connections: connections,
	ClockSQL:    "SELECT UTC_TIMESTAMP(6)",
	// A MariaDB sequence; MySQL has none, and its pools hand trade ids out
	// themselves (database.IDAllocator, counter.go).
	NextValue: func(sequence string) string { return "NEXT VALUE FOR " + sequence },
	Shown:     shown,
	// information_schema.tables lists every database of the server.
	TablesScope: "table_schema = DATABASE()",
	RowFormat:   rowFormat,
	// MariaDB 10.11, measured with `brokerbench load` (sizes from information_schema's
	// data_length + index_length, as DatabaseBytes reports them) at 1,000 customers x 5
	// trade days (506.2 MiB) and x 20 days (1,387.0 MiB), and checked at 2,000 x 5
	// (982.6 MiB measured, the model says 1,010.6: InnoDB fills the growing tables'
	// pages better in larger loads): 1.8 MiB fixed, 210.8 MiB per load unit (168.4 of
	// scaling tables, 42.4 of holdings and the growing tables' first extents) and 58.7
	// MiB per load unit and trade day, so 1,000 customers at 300 days come to about 18.7
	// GB. The rate is the 20-day load's on a shared 2-core machine under a load average
	// of about 20 (docs/workload.md §3.3).
	Sizes: &database.LoadSizes{
		FixedBytes:      1_900_000,
		PerLUBytes:      221_080_000, // 210.8 MiB
		PerLUDayBytes:   61_569_000,  // 58.7 MiB
		LoadBytesPerSec: 2_508_000,   // 2.4 MiB/s
	},
	// The stored procedures of run --frames server (routines.go).
	Routines:     routineDialect,
	RoutineCheck: routineCheck,
}

func init() {
	database.Register(Engine)
	// The driver's default logger writes "[mysql] packets.go: ..." to stderr when a
	// connection breaks, beside the error it returns; every connector brokerbench
	// builds sets its own (configure), and this covers any other.
	_ = driver.SetLogger(&driver.NopLogger{})
}
