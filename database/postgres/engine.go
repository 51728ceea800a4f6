// Package postgres is brokerbench's PostgreSQL engine: pgx pools, DDL, binary COPY
// with its own row encoding, SQLSTATE classification, the pg_stat I/O views and
// pgxpool statistics. Importing it registers Engine with package database.
package postgres

import "github.com/brokerbench/brokerbench/database"

// Engine is PostgreSQL as package database sees it.
var Engine = &database.Engine{
	Name:          database.Postgres,
	Product:       "PostgreSQL",
	Schemes:       []string{"postgres", "postgresql"},
	KeyValueDSN:   true,
	Open:          open,
	DDL:           postgresDDL{},
	SQL:           SQL,
	Classify:      classify,
	ConnKind:      connKind,
	Connections:   connections,
	RoutineCheck:  routineCheck,
	Routines:      routineDialect,
	ClockSQL:      "SELECT clock_timestamp()",
	CheckpointSQL: "CHECKPOINT",
	RowFormat:     copyFormat,
	// The oldest version whose statistics views the I/O sampler knows (the sources'
	// table in docs/storage.md).
	Versions:   "13 or newer",
	MinVersion: 130000,
	// PostgreSQL 15, measured with `brokerbench load` (sizes from
	// pg_total_relation_size) at 1,000 customers x 5 trade days (446.6 MiB) and x 20
	// days (1,155.2 MiB), and checked at 2,000 x 5 (891.9 MiB, the model says 892.1):
	// 1.2 MiB fixed, 198.1 MiB of scaling tables per load unit plus 11.2 MiB of
	// holdings that hardly grow with the days, and 47.2 MiB per load unit and trade
	// day, so 1,000 customers at 300 days come to about 15 GB. The rate is the 20-day
	// load's with indexes (docs/workload.md §3.3 says on what). loader's
	// TestSizeModelAgainstLoads loads 1,000 x 5 and x 10 again and finds them, and the
	// growth between them, within 2 % of the model.
	Sizes: &database.LoadSizes{
		FixedBytes:      1_258_000,
		PerLUBytes:      219_470_000, // 209.3 MiB
		PerLUDayBytes:   49_523_000,  // 47.23 MiB
		LoadBytesPerSec: 5_767_000,   // 5.5 MiB/s
	},
}

func init() { database.Register(Engine) }
