package sqlserver

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/golden"
	"github.com/brokerbench/brokerbench/schema"
)

// The statements of schema drop and load --drop, as the golden file holds them: the
// look for others' objects that depend on brokerbench's, then the drops, each named
// in the load marker's schema and none cascading.
func TestSQLServerDropGolden(t *testing.T) {
	d := sqlserverDDL{}
	tables := append(schema.Tables(), schema.MetaTables()...)
	var names []string
	for _, tb := range tables {
		names = append(names, tb.Name)
	}
	names = append(names, schema.TradeIDSequence)
	var b strings.Builder
	b.WriteString("-- brokerbench SQL Server schema drop (golden; regenerate with -update)\n\n")
	b.WriteString("-- objects of others that depend on brokerbench's: the drop lists them and refuses\n")
	b.WriteString(d.DependentsSQL("dbo", names) + ";\n\n")
	b.WriteString("-- the drops, referencing tables first\n")
	for i := len(tables) - 1; i >= 0; i-- {
		b.WriteString(d.DropTableIn("dbo", tables[i]) + ";\n")
	}
	b.WriteString(d.DropSequenceIn("dbo", schema.TradeIDSequence) + ";\n")
	b.WriteString("\n-- a schema name that needs quoting\n")
	b.WriteString(d.DropTableIn("it's ]`\"odd", tables[0]) + ";\n")
	golden.Check(t, filepath.Join("testdata", "sqlserver_drop.sql"), "SQL Server drop SQL", b.String())
}
