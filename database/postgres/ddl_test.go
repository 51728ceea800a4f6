package postgres

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/schema"
)

// The -update flag may be defined by another test file of this package as well.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
}

func pgUpdateGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

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
	got := postgresSchemaScript()
	path := filepath.Join("testdata", "postgres_ddl.sql")
	if pgUpdateGolden() {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("PostgreSQL DDL differs from %s; if the change is intended, rerun with -update and review the diff", path)
	}
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
