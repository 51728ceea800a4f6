package testdb

import (
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/testmdb"
)

// MariaDBLoaded returns the URL of a fresh database on the test MariaDB
// (internal/testkit/testmdb), dropped when the test ends, holding a copy of a load at Scale
// and Seed: the load runs once per test process, each test copies its files
// (testmdb.FromTemplate). The copy has the load's tables, rows, indexes, foreign keys
// and trade-id sequence; it has no server routines (load installs those, not
// loader.Load). Test packages using it stop the MariaDB server in their TestMain
// (testmdb.Stop).
func MariaDBLoaded(t testing.TB) string {
	t.Helper()
	return testmdb.FromTemplate(t, loadedKey(), Build)
}
