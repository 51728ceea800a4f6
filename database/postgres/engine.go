// Package postgres is brokerbench's PostgreSQL engine: pgx pools, DDL, binary COPY
// with its own row encoding, SQLSTATE classification, the pg_stat I/O views and
// pgxpool statistics. Importing it registers Engine with package database.
package postgres

import "github.com/brokerbench/brokerbench/database"

// Engine is PostgreSQL as package database sees it.
var Engine = &database.Engine{
	Name:         database.Postgres,
	Product:      "PostgreSQL",
	Schemes:      []string{"postgres", "postgresql"},
	KeyValueDSN:  true,
	Open:         open,
	DDL:          postgresDDL{},
	SQL:          SQL,
	Classify:     classify,
	RoutineCheck: routineCheck,
	Routines:     routineDialect,
	ClockSQL:     "SELECT clock_timestamp()",
	RowFormat:    copyFormat,
	// The oldest version whose statistics views the I/O sampler knows (the sources'
	// table in docs/storage.md).
	Versions:   "13 or newer",
	MinVersion: 130000,
}

func init() { database.Register(Engine) }
