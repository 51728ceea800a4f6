package postgres

import (
	"fmt"
	"strings"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

type postgresDDL struct{}

var (
	_ database.DDL         = postgresDDL{}
	_ database.KeyDeferrer = postgresDDL{}
	_ database.KeyIndexer  = postgresDDL{}
	_ database.FKValidator = postgresDDL{}
)

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

func (d postgresDDL) CreateTable(t schema.Table) string { return d.createTable(t, true) }

// CreateTableWithoutKey is CreateTable without the primary key (KeyDeferrer): COPY into
// a bare heap is several times faster than maintaining the key's B-tree row by row,
// and building the key afterwards is one sort.
func (d postgresDDL) CreateTableWithoutKey(t schema.Table) string { return d.createTable(t, false) }

// AddPrimaryKey adds the key CreateTableWithoutKey left out, under the same name.
func (postgresDDL) AddPrimaryKey(t schema.Table) string {
	return fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT pk_%s PRIMARY KEY (%s)", t.Name, t.Name, strings.Join(t.PrimaryKey, ", "))
}

// PrimaryKeyIndex builds the index of the key CreateTableWithoutKey left out. It is a
// plain CREATE UNIQUE INDEX, which takes a share lock, so it builds at the same time
// as the table's other indexes (ALTER TABLE ... ADD PRIMARY KEY would lock them out).
func (postgresDDL) PrimaryKeyIndex(t schema.Table) string {
	return fmt.Sprintf("CREATE UNIQUE INDEX pk_%s ON %s (%s)", t.Name, t.Name, strings.Join(t.PrimaryKey, ", "))
}

// AttachPrimaryKey turns that index into the primary key, under the name CreateTable
// gives it; instant, as the key columns are already NOT NULL.
func (postgresDDL) AttachPrimaryKey(t schema.Table) string {
	return fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT pk_%s PRIMARY KEY USING INDEX pk_%s", t.Name, t.Name, t.Name)
}

func (postgresDDL) createTable(t schema.Table, key bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (\n", t.Name)
	for i, c := range t.Columns {
		null := " NOT NULL"
		if c.Nullable {
			null = ""
		}
		sep := ","
		if !key && i == len(t.Columns)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "    %s %s%s%s\n", c.Name, pgType(c.Type), null, sep)
	}
	if key {
		fmt.Fprintf(&b, "    CONSTRAINT pk_%s PRIMARY KEY (%s)\n", t.Name, strings.Join(t.PrimaryKey, ", "))
	}
	b.WriteString(")")
	if t.FillFactor > 0 {
		fmt.Fprintf(&b, " WITH (fillfactor = %d)", t.FillFactor)
	}
	// LOBs (news items, ~100 KB each) are stored out of line and uncompressed, as SQL
	// Server stores VARCHAR(MAX): the database then has the size the reference intends
	// on both dialects, Security-Detail reads ~100 KB per item, and the load does not
	// spend a fifth of its server time in pglz. One string, two statements: Exec
	// without arguments runs it through the simple protocol.
	for _, c := range t.Columns {
		if c.Type.Kind == schema.LOB {
			fmt.Fprintf(&b, ";\nALTER TABLE %s ALTER COLUMN %s SET STORAGE EXTERNAL", t.Name, c.Name)
		}
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

// DropTable never cascades: brokerbench drops only what it created (schema drop and
// load --drop name their objects by schema, SchemaDropper).
func (postgresDDL) DropTable(t schema.Table) string {
	return fmt.Sprintf("DROP TABLE IF EXISTS %s", t.Name)
}

// CreateSequence keeps PostgreSQL's defaults: BIGINT, increment 1.
func (postgresDDL) CreateSequence(name string, start int64) string {
	return fmt.Sprintf("CREATE SEQUENCE %s START WITH %d", name, start)
}

func (postgresDDL) DropSequence(name string) string { return "DROP SEQUENCE IF EXISTS " + name }

// ForeignKeysNotValid adds the keys without checking existing rows (FKValidator): the
// statement is instant, and the checks then run as ValidateForeignKeys, which lock
// only the referencing table, so checks of different tables and index builds run at
// once instead of queueing behind each other's share-row-exclusive locks.
func (postgresDDL) ForeignKeysNotValid(t schema.Table) []string {
	var out []string
	for i, f := range t.ForeignKeys {
		out = append(out, fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT fk_%s_%d FOREIGN KEY (%s) REFERENCES %s (%s) NOT VALID",
			t.Name, t.Name, i+1, strings.Join(f.Columns, ", "), f.RefTable, strings.Join(f.RefColumns, ", ")))
	}
	return out
}

// ValidateForeignKeys checks the existing rows against the keys ForeignKeysNotValid
// added; afterwards the keys are exactly as ForeignKeys would have made them.
func (postgresDDL) ValidateForeignKeys(t schema.Table) []string {
	var out []string
	for i := range t.ForeignKeys {
		out = append(out, fmt.Sprintf("ALTER TABLE %s VALIDATE CONSTRAINT fk_%s_%d", t.Name, t.Name, i+1))
	}
	return out
}
