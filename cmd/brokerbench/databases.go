package main

// The databases this binary drives. Each import registers its engine with package
// database; nothing else in the binary names a concrete database (ARCHITECTURE.md,
// "Adding a database", lists what a new one touches).
import (
	_ "github.com/brokerbench/brokerbench/database/mysql"
	_ "github.com/brokerbench/brokerbench/database/postgres"
	_ "github.com/brokerbench/brokerbench/database/sqlserver"
)
