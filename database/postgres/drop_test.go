package postgres

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
func TestPostgresDropGolden(t *testing.T) {
	d := postgresDDL{}
	tables := append(schema.Tables(), schema.MetaTables()...)
	var names []string
	for _, tb := range tables {
		names = append(names, tb.Name)
	}
	names = append(names, schema.TradeIDSequence)
	var b strings.Builder
	b.WriteString("-- brokerbench PostgreSQL schema drop (golden; regenerate with -update)\n\n")
	b.WriteString("-- objects of others that depend on brokerbench's: the drop lists them and refuses\n")
	b.WriteString(d.DependentsSQL("public", names) + ";\n\n")
	b.WriteString("-- the drops, referencing tables first\n")
	for i := len(tables) - 1; i >= 0; i-- {
		b.WriteString(d.DropTableIn("public", tables[i]) + ";\n")
	}
	b.WriteString(d.DropSequenceIn("public", schema.TradeIDSequence) + ";\n")
	b.WriteString("\n-- a schema name that needs quoting\n")
	b.WriteString(d.DropTableIn("it's ]`\"odd", tables[0]) + ";\n")
	golden.Check(t, filepath.Join("testdata", "postgres_drop.sql"), "PostgreSQL drop SQL", b.String())
}
