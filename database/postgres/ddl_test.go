package postgres

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/golden"
	"github.com/brokerbench/brokerbench/schema"
)

// postgresSchemaScript renders everything the loader can run: tables with keys, the
// deferred-key variants, indexes, foreign keys (checked and unchecked) and drops.
func postgresSchemaScript() string {
	d := postgresDDL{}
	tables := append(schema.Tables(), schema.MetaTables()...)
	var b strings.Builder
	b.WriteString("-- brokerbench PostgreSQL DDL (golden; regenerate with go test ./schema/dialect -run PostgresDDL -update)\n\n")
	for _, t := range tables {
		b.WriteString(d.CreateTable(t) + ";\n\n")
	}
	b.WriteString("-- bulk-load variants: tables without keys, keys added after the data\n\n")
	for _, t := range tables {
		b.WriteString(d.CreateTableWithoutKey(t) + ";\n")
		b.WriteString(d.AddPrimaryKey(t) + ";\n")
		b.WriteString(d.PrimaryKeyIndex(t) + ";\n")
		b.WriteString(d.AttachPrimaryKey(t) + ";\n\n")
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
		for _, s := range d.ForeignKeysNotValid(t) {
			b.WriteString(s + ";\n")
		}
		for _, s := range d.ValidateForeignKeys(t) {
			b.WriteString(s + ";\n")
		}
	}
	b.WriteString("\n")
	for _, t := range tables {
		b.WriteString(d.DropTable(t) + ";\n")
	}
	return b.String()
}

func TestPostgresDDLGolden(t *testing.T) {
	golden.Check(t, filepath.Join("testdata", "postgres_ddl.sql"), "PostgreSQL DDL", postgresSchemaScript())
}

// Every table of the model renders with its primary key and every column, and the
// deferred variant leaves exactly the key out.
func TestPostgresDDLCoversEveryColumnAndKey(t *testing.T) {
	d := postgresDDL{}
	for _, tb := range append(schema.Tables(), schema.MetaTables()...) {
		full, bare := d.CreateTable(tb), d.CreateTableWithoutKey(tb)
		for _, c := range tb.Columns {
			if !strings.Contains(full, "    "+c.Name+" ") || !strings.Contains(bare, "    "+c.Name+" ") {
				t.Errorf("%s: column %s missing", tb.Name, c.Name)
			}
		}
		if !strings.Contains(full, "PRIMARY KEY ("+strings.Join(tb.PrimaryKey, ", ")+")") {
			t.Errorf("%s: primary key missing:\n%s", tb.Name, full)
		}
		if strings.Contains(bare, "PRIMARY KEY") || strings.Contains(bare, ",\n)") {
			t.Errorf("%s: bare table is wrong:\n%s", tb.Name, bare)
		}
		if len(d.ForeignKeys(tb)) != len(tb.ForeignKeys) || len(d.ValidateForeignKeys(tb)) != len(tb.ForeignKeys) {
			t.Errorf("%s: foreign key statements do not match the model", tb.Name)
		}
	}
}
