package sqlserver

import (
	"path/filepath"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/golden"
)

// The statements of schema drop and load --drop, as the golden file holds them: the
// look for others' objects that depend on brokerbench's, then the drops, each named
// in the load marker's schema and none cascading.
func TestSQLServerDropGolden(t *testing.T) {
	golden.Check(t, filepath.Join("testdata", "sqlserver_drop.sql"), "SQL Server drop SQL", database.DropScript(sqlserverDDL{}, "SQL Server", "dbo"))
}
