package sqlserver

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/golden"
	"github.com/brokerbench/brokerbench/schema"
)

// sqlserverSchemaScript renders every table the way the loader runs it: create all,
// then indexes, then foreign keys, then the drops.
func sqlserverSchemaScript() string {
	d := sqlserverDDL{}
	tables := append(schema.Tables(), schema.MetaTables()...)
	var b strings.Builder
	b.WriteString("-- brokerbench T-SQL DDL (golden; regenerate with go test ./schema/dialect -run SQLServerDDL -update)\n\n")
	b.WriteString("-- Generic path: tables with their clustered keys.\n")
	for _, t := range tables {
		b.WriteString(d.CreateTable(t) + ";\n\n")
	}
	b.WriteString("-- Load path: heaps, keys after the data.\n")
	for _, t := range tables {
		b.WriteString(d.CreateTableWithoutKey(t) + ";\n")
		b.WriteString(d.AddPrimaryKey(t) + ";\n\n")
	}
	for _, t := range tables {
		for _, s := range d.Indexes(t) {
			b.WriteString(s + ";\n")
		}
	}
	b.WriteString("\n")
	for _, t := range tables {
		for _, s := range d.ForeignKeys(t) {
			b.WriteString(s + ";\n")
		}
	}
	b.WriteString("\n")
	b.WriteString(d.DropSequence(schema.TradeIDSequence) + ";\n")
	b.WriteString(d.CreateSequence(schema.TradeIDSequence, 1000) + ";\n")
	b.WriteString(RestartSequence(schema.TradeIDSequence, 2000) + ";\n\n")
	for i := len(tables) - 1; i >= 0; i-- {
		b.WriteString(d.DropTable(tables[i]) + ";\n")
	}
	return b.String()
}

func TestSQLServerDDLGolden(t *testing.T) {
	golden.Check(t, filepath.Join("testdata", "sqlserver_ddl.sql"), "T-SQL DDL", sqlserverSchemaScript())
}

// TestSQLServerDDLEveryTable checks each of the 33 tables (and brokerbench's own)
// independently of the golden file: every column with a T-SQL type and its
// nullability, a clustered primary key, every index and foreign key, and no
// PostgreSQL-only type names.
func TestSQLServerDDLEveryTable(t *testing.T) {
	d := sqlserverDDL{}
	tables := schema.Tables()
	if len(tables) != 33 {
		t.Fatalf("schema has %d tables, want 33", len(tables))
	}
	pgOnly := regexp.MustCompile(`\b(BOOLEAN|TEXT|TIMESTAMP|NUMERIC|INTEGER|BYTEA|CASCADE)\b`)
	for _, tb := range append(tables, schema.MetaTables()...) {
		create := d.CreateTable(tb)
		if m := pgOnly.FindString(create); m != "" {
			t.Errorf("%s: PostgreSQL type %s in T-SQL: %s", tb.Name, m, create)
		}
		if !strings.HasPrefix(create, "CREATE TABLE "+tb.Name+" (\n") {
			t.Errorf("%s: bad header: %q", tb.Name, create)
		}
		pk := "CONSTRAINT pk_" + tb.Name + " PRIMARY KEY CLUSTERED (" + strings.Join(tb.PrimaryKey, ", ") + ")"
		if !strings.Contains(create, pk) {
			t.Errorf("%s: missing %q", tb.Name, pk)
		}
		for _, c := range tb.Columns {
			null := " NOT NULL,"
			if c.Nullable {
				null = " NULL,"
			}
			line := "    " + c.Name + " " + sqlserverType(c.Type) + null
			if !strings.Contains(create, line+"\n") {
				t.Errorf("%s: missing column line %q", tb.Name, line)
			}
		}
		heap := d.CreateTableWithoutKey(tb)
		if strings.Contains(heap, "CONSTRAINT") || strings.Contains(heap, ",\n)") || !strings.HasSuffix(heap, "\n)") {
			t.Errorf("%s: heap DDL malformed:\n%s", tb.Name, heap)
		}
		if strings.Count(heap, "\n    ") != len(tb.Columns) {
			t.Errorf("%s: heap has %d column lines, want %d", tb.Name, strings.Count(heap, "\n    "), len(tb.Columns))
		}
		addPK := d.AddPrimaryKey(tb)
		if !strings.HasPrefix(addPK, "ALTER TABLE "+tb.Name+" ADD "+pk) {
			t.Errorf("%s: add key %q", tb.Name, addPK)
		}
		if tb.FillFactor > 0 {
			ff := fmt.Sprintf("WITH (FILLFACTOR = %d)", tb.FillFactor)
			if !strings.HasSuffix(addPK, ff) || !strings.Contains(create, ff) {
				t.Errorf("%s: fill factor %d not applied: %q %q", tb.Name, tb.FillFactor, create, addPK)
			}
		}
		idx := d.Indexes(tb)
		if len(idx) != len(tb.Indexes) {
			t.Errorf("%s: %d index statements, want %d", tb.Name, len(idx), len(tb.Indexes))
		}
		for _, ix := range tb.Indexes {
			found := false
			for _, s := range idx {
				found = found || strings.Contains(s, " INDEX "+ix.Name+" ON "+tb.Name+" ("+strings.Join(ix.Columns, ", ")+")")
			}
			if !found {
				t.Errorf("%s: index %s not created", tb.Name, ix.Name)
			}
		}
		fks := d.ForeignKeys(tb)
		if len(fks) != len(tb.ForeignKeys) {
			t.Errorf("%s: %d foreign keys, want %d", tb.Name, len(fks), len(tb.ForeignKeys))
		}
		for i, f := range tb.ForeignKeys {
			if !strings.Contains(fks[i], "REFERENCES "+f.RefTable+" (") {
				t.Errorf("%s: fk %d does not reference %s: %s", tb.Name, i, f.RefTable, fks[i])
			}
		}
		drop := d.DropTable(tb)
		if !strings.HasSuffix(drop, "DROP TABLE IF EXISTS "+tb.Name) || !strings.Contains(drop, "OBJECT_ID(N'"+tb.Name+"', N'U')") {
			t.Errorf("%s: drop does not clear referencing keys then drop: %s", tb.Name, drop)
		}
	}
}

func TestSQLServerTypes(t *testing.T) {
	cases := map[schema.Type]string{
		schema.Ident:   "BIGINT",
		schema.SQty:    "INT",
		schema.Small:   "SMALLINT",
		schema.SPrice:  "DECIMAL(12,2)",
		schema.FinAgg:  "DECIMAL(15,2)",
		schema.VC(15):  "VARCHAR(15)",
		schema.DateT:   "DATE",
		schema.TS:      "DATETIME2(3)",
		schema.Boolean: "BIT",
		schema.Blob:    "VARCHAR(MAX)",
	}
	for in, want := range cases {
		if got := sqlserverType(in); got != want {
			t.Errorf("sqlserverType(%+v) = %s, want %s", in, got, want)
		}
	}
}
