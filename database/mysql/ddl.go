package mysql

import (
	"fmt"
	"strings"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// innoDDL renders the schema for InnoDB. It is not a KeyDeferrer: InnoDB stores a
// table in its primary key, so a table loaded without one would be rebuilt when the
// key is added; the load streams into the keyed table and builds the secondary
// indexes afterwards. mysqlDDL (MariaDB's, the engine's) and counterDDL (MySQL's,
// counter.go) add the trade-id generator and how the foreign keys are added.
type innoDDL struct{}

// mysqlDDL is the engine's DDL, for MariaDB: a sequence, and foreign keys added
// unchecked (SET STATEMENT) and checked by the loader.
type mysqlDDL struct{ innoDDL }

var _ database.DDL = mysqlDDL{}

// tableOptions: text is ASCII with a binary collation. The generated data is ASCII
// (one byte a character, as SQL Server's VARCHAR), and the binary collation sorts
// and compares bytes as PostgreSQL's C collation does, so ORDER BY on a name gives
// the same order on every engine.
const tableOptions = "ENGINE=InnoDB DEFAULT CHARSET=ascii COLLATE=ascii_bin"

// mysqlType maps a logical type. Timestamps are DATETIME(6): microseconds like
// PostgreSQL's TIMESTAMP, no time zone (the session's is UTC). BOOLEAN is TINYINT(1).
func mysqlType(t schema.Type) string {
	switch t.Kind {
	case schema.Int16:
		return "SMALLINT"
	case schema.Int32:
		return "INT"
	case schema.Int64:
		return "BIGINT"
	case schema.Decimal:
		return fmt.Sprintf("DECIMAL(%d,%d)", t.Precision, t.Scale)
	case schema.Varchar:
		return fmt.Sprintf("VARCHAR(%d)", t.Length)
	case schema.Date:
		return "DATE"
	case schema.Timestamp:
		return "DATETIME(6)"
	case schema.Bool:
		return "BOOLEAN"
	case schema.LOB:
		return "MEDIUMTEXT"
	}
	panic(fmt.Sprintf("schema type %d has no MySQL mapping", t.Kind)) // a bug in schema, not user input
}

// CreateTable creates the table with its primary key, which InnoDB clusters the rows
// on. A fill factor has no per-table form in InnoDB (innodb_fill_factor is global).
func (innoDDL) CreateTable(t schema.Table) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (\n", t.Name)
	for _, c := range t.Columns {
		null := " NOT NULL"
		if c.Nullable {
			null = " NULL"
		}
		fmt.Fprintf(&b, "    %s %s%s,\n", c.Name, mysqlType(c.Type), null)
	}
	fmt.Fprintf(&b, "    PRIMARY KEY (%s)\n) %s", strings.Join(t.PrimaryKey, ", "), tableOptions)
	return b.String()
}

// Indexes returns the secondary indexes, built after the data is in (a sorted
// build, not row-by-row inserts).
func (innoDDL) Indexes(t schema.Table) []string {
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

// ForeignKeys are added after the load, one statement per key (the loader's resumed
// post-load skips keys by name). With foreign_key_checks on, InnoDB checks the rows
// and rebuilds the table for each key (ALGORITHM=COPY); the load adds them unchecked
// and checks them itself (FKValidator). InnoDB also adds an index on the referencing
// columns where none leads with them, which PostgreSQL does not (docs/mysql.md §2).
func (innoDDL) ForeignKeys(t schema.Table) []string {
	var out []string
	for i, f := range t.ForeignKeys {
		out = append(out, fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s FOREIGN KEY (%s) REFERENCES %s (%s)",
			t.Name, fkName(t, i), strings.Join(f.Columns, ", "), f.RefTable, strings.Join(f.RefColumns, ", ")))
	}
	return out
}

func fkName(t schema.Table, i int) string { return fmt.Sprintf("fk_%s_%d", t.Name, i+1) }

var _ database.FKValidator = mysqlDDL{}

// ForeignKeysNotValid adds each key without reading the rows: with foreign_key_checks
// off for the statement (MariaDB's SET STATEMENT), InnoDB adds it in place, without
// copying the table.
func (d mysqlDDL) ForeignKeysNotValid(t schema.Table) []string {
	var out []string
	for _, stmt := range d.ForeignKeys(t) {
		out = append(out, "SET STATEMENT foreign_key_checks = 0 FOR "+stmt)
	}
	return out
}

// ValidateForeignKeys returns, per key, a query counting the rows whose key has no
// parent (a row with a NULL in the key is not checked, as InnoDB does not). The
// loader runs them through DB.Maintenance, which fails on a count above zero
// (orphanCheck), one key per goroutine.
func (mysqlDDL) ValidateForeignKeys(t schema.Table) []string {
	var out []string
	for i, f := range t.ForeignKeys {
		var notNull, match []string
		for k, c := range f.Columns {
			notNull = append(notNull, "c."+c+" IS NOT NULL")
			match = append(match, "p."+f.RefColumns[k]+" = c."+c)
		}
		out = append(out, fmt.Sprintf("%s%s */ SELECT COUNT(*) FROM %s AS c WHERE %s AND NOT EXISTS (SELECT 1 FROM %s AS p WHERE %s)",
			orphanCheck, fkName(t, i), t.Name, strings.Join(notNull, " AND "), f.RefTable, strings.Join(match, " AND ")))
	}
	return out
}

// orphanCheck starts a foreign key's check (ValidateForeignKeys), followed by the
// key's name and the end of the comment.
const orphanCheck = "/* orphans of "

// DropTable drops the table; the loader drops referencing tables first.
func (innoDDL) DropTable(t schema.Table) string { return "DROP TABLE IF EXISTS " + t.Name }

// CreateSequence creates the trade-id sequence. MariaDB has sequences (10.3+);
// CACHE keeps NEXT VALUE FOR from writing the sequence's row on every call. MySQL
// has none: counterDDL makes a counter table there instead (counter.go).
func (mysqlDDL) CreateSequence(name string, start int64) string {
	return fmt.Sprintf("CREATE SEQUENCE %s START WITH %d INCREMENT BY 1 CACHE 1000", name, start)
}

func (mysqlDDL) DropSequence(name string) string { return "DROP SEQUENCE IF EXISTS " + name }
