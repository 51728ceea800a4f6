package database

import (
	"strings"

	"github.com/brokerbench/brokerbench/schema"
)

// DropScript renders, for reading and for each engine's golden file, what schema drop
// and load --drop run on product's DDL d in schema sch: the look for others' objects
// that depend on brokerbench's, then the drops, referencing tables first, and one drop
// in a schema whose name needs quoting.
func DropScript(d SchemaDropper, product, sch string) string {
	tables := append(schema.Tables(), schema.MetaTables()...)
	var names []string
	for _, tb := range tables {
		names = append(names, tb.Name)
	}
	names = append(names, schema.TradeIDSequence)
	var b strings.Builder
	b.WriteString("-- brokerbench " + product + " schema drop (golden; regenerate with -update)\n\n")
	b.WriteString("-- objects of others that depend on brokerbench's: the drop lists them and refuses\n")
	b.WriteString(d.DependentsSQL(sch, names) + ";\n\n")
	b.WriteString("-- the drops, referencing tables first\n")
	for i := len(tables) - 1; i >= 0; i-- {
		b.WriteString(d.DropTableIn(sch, tables[i]) + ";\n")
	}
	b.WriteString(d.DropSequenceIn(sch, schema.TradeIDSequence) + ";\n")
	b.WriteString("\n-- a schema name that needs quoting\n")
	b.WriteString(d.DropTableIn("it's ]`\"odd", tables[0]) + ";\n")
	return b.String()
}
