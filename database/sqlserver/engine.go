// Package sqlserver is brokerbench's SQL Server engine: go-mssqldb pools, T-SQL DDL,
// bulk copy, error classification by error number, sys.dm_io_virtual_file_stats and
// database/sql pool statistics. Importing it registers Engine with package database.
package sqlserver

import "github.com/brokerbench/brokerbench/database"

// Engine is SQL Server as package database sees it. It has no RowFormat: bulk copy
// takes boxed rows through DB.Bulk. It has no Sizes (no SQL Server was at hand to
// measure a load), and no MinVersion: describeEndpoint notes an old server instead,
// since Babelfish's version numbers are not SQL Server's.
var Engine = &database.Engine{
	Name:          database.SQLServer,
	Product:       "SQL Server",
	Schemes:       []string{"sqlserver"},
	Open:          open,
	DDL:           sqlserverDDL{},
	SQL:           SQL,
	Classify:      classify,
	Connections:   connections,
	RoutineCheck:  routineCheck,
	Routines:      routineDialect,
	ClockSQL:      "SELECT SYSUTCDATETIME()",
	CheckpointSQL: "CHECKPOINT",
	Shown:         shown,
	// A SEQUENCE, not IDENTITY, as on PostgreSQL.
	NextValue: func(sequence string) string { return "NEXT VALUE FOR " + sequence },
	// Row-store heaps and B-trees with 8 KB pages, as PostgreSQL's.
	SizesLike: database.Postgres,
}

func init() { database.Register(Engine) }
