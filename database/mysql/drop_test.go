package mysql

import (
	"path/filepath"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/golden"
)

// The statements of schema drop and load --drop, as the golden file holds them: the
// look for others' objects that depend on brokerbench's, then the drops, each named
// in the load marker's schema and none cascading.
func TestMariaDBDropGolden(t *testing.T) {
	golden.Check(t, filepath.Join("testdata", "mysql_drop.sql"), "MariaDB drop SQL", database.DropScript(mysqlDDL{}, "MariaDB", "brokerbench"))
}
