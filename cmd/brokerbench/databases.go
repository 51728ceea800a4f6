package main

// The databases this binary drives. Each import registers its engine with package
// database; nothing else in brokerbench names a concrete database, so adding one is a
// new sub-package of database, a line here and its statements.
import (
	_ "github.com/brokerbench/brokerbench/database/mysql"
	_ "github.com/brokerbench/brokerbench/database/postgres"
	_ "github.com/brokerbench/brokerbench/database/sqlserver"
)
