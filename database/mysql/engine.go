// Package mysql is brokerbench's MySQL and MariaDB engine: go-sql-driver/mysql pools,
// InnoDB DDL, LOAD DATA LOCAL INFILE from a registered reader for the bulk path, error
// classification by error number, performance_schema's file I/O and the buffer pool's
// counters. One engine serves MySQL 8.0+ and MariaDB 10.6+; where they differ it asks
// the server. Importing it registers Engine with package database.
package mysql

import "github.com/brokerbench/brokerbench/database"

// Engine is MySQL and MariaDB as package database sees them. Its RowFormat is the
// tab-separated text LOAD DATA reads by default (rowformat.go).
var Engine = &database.Engine{
	Name:     database.MySQL,
	Product:  "MySQL/MariaDB",
	Schemes:  []string{"mysql", "mariadb"},
	Open:     open,
	DDL:      mysqlDDL{},
	SQL:      SQL,
	Classify: classify,
	ClockSQL: "SELECT UTC_TIMESTAMP(6)",
	// A MariaDB sequence (MySQL 8 has none and is refused at connect).
	NextValue: func(sequence string) string { return "NEXT VALUE FOR " + sequence },
	Shown:     shown,
	RowFormat: rowFormat,
	// The stored procedures of run --frames server (routines.go).
	Routines:     routineDialect,
	RoutineCheck: routineCheck,
}

func init() { database.Register(Engine) }
