package dialect

import (
	"fmt"
	"strings"

	"github.com/brokerbench/brokerbench/schema"
)

type postgresDDL struct{}

func pgType(t schema.Type) string {
	switch t.Kind {
	case schema.Int16:
		return "SMALLINT"
	case schema.Int32:
		return "INTEGER"
	case schema.Int64:
		return "BIGINT"
	case schema.Decimal:
		return fmt.Sprintf("NUMERIC(%d,%d)", t.Precision, t.Scale)
	case schema.Varchar:
		return fmt.Sprintf("VARCHAR(%d)", t.Length)
	case schema.Date:
		return "DATE"
	case schema.Timestamp:
		return "TIMESTAMP"
	case schema.Bool:
		return "BOOLEAN"
	case schema.LOB:
		return "TEXT"
	}
	panic(fmt.Sprintf("schema type %d has no PostgreSQL mapping", t.Kind)) // a bug in schema, not user input
}

func (postgresDDL) CreateTable(t schema.Table) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (\n", t.Name)
	for _, c := range t.Columns {
		null := " NOT NULL"
		if c.Nullable {
			null = ""
		}
		fmt.Fprintf(&b, "    %s %s%s,\n", c.Name, pgType(c.Type), null)
	}
	fmt.Fprintf(&b, "    CONSTRAINT pk_%s PRIMARY KEY (%s)\n)", t.Name, strings.Join(t.PrimaryKey, ", "))
	if t.FillFactor > 0 {
		fmt.Fprintf(&b, " WITH (fillfactor = %d)", t.FillFactor)
	}
	return b.String()
}

func (postgresDDL) Indexes(t schema.Table) []string {
	var out []string
	for _, ix := range t.Indexes {
		u := ""
		if ix.Unique {
			u = "UNIQUE "
		}
		out = append(out, fmt.Sprintf("CREATE %sINDEX %s ON %s (%s)", u, ix.Name, t.Name, strings.Join(ix.Columns, ", ")))
	}
	return out
}

func (postgresDDL) ForeignKeys(t schema.Table) []string {
	var out []string
	for i, f := range t.ForeignKeys {
		out = append(out, fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT fk_%s_%d FOREIGN KEY (%s) REFERENCES %s (%s)",
			t.Name, t.Name, i+1, strings.Join(f.Columns, ", "), f.RefTable, strings.Join(f.RefColumns, ", ")))
	}
	return out
}

func (postgresDDL) DropTable(t schema.Table) string {
	return fmt.Sprintf("DROP TABLE IF EXISTS %s CASCADE", t.Name)
}
