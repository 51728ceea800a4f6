package mysql

import (
	"fmt"
	"strings"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// mysqlDDL renders the schema for InnoDB. It is not a KeyDeferrer: InnoDB stores a
// table in its primary key, so a table loaded without one would be rebuilt when the
// key is added; the load streams into the keyed table and builds the secondary
// indexes afterwards.
type mysqlDDL struct{}

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
func (mysqlDDL) CreateTable(t schema.Table) string {
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
func (mysqlDDL) Indexes(t schema.Table) []string {
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
// post-load skips keys by name). With foreign_key_checks on, InnoDB checks the
// loaded rows and rebuilds the table for each key (ALGORITHM=COPY); it also adds an
// index on the referencing columns where none leads with them, which PostgreSQL does
// not (docs/mysql.md §2).
func (mysqlDDL) ForeignKeys(t schema.Table) []string {
	var out []string
	for i, f := range t.ForeignKeys {
		out = append(out, fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT fk_%s_%d FOREIGN KEY (%s) REFERENCES %s (%s)",
			t.Name, t.Name, i+1, strings.Join(f.Columns, ", "), f.RefTable, strings.Join(f.RefColumns, ", ")))
	}
	return out
}

// DropTable drops the table; the loader drops referencing tables first.
func (mysqlDDL) DropTable(t schema.Table) string { return "DROP TABLE IF EXISTS " + t.Name }

// CreateSequence creates the trade-id sequence. MariaDB has sequences (10.3+);
// CACHE keeps NEXT VALUE FOR from writing the sequence's row on every call. MySQL
// has none: there the statement fails and the load says so (docs/mysql.md §2).
func (mysqlDDL) CreateSequence(name string, start int64) string {
	return fmt.Sprintf("CREATE SEQUENCE %s START WITH %d INCREMENT BY 1 CACHE 1000", name, start)
}

func (mysqlDDL) DropSequence(name string) string { return "DROP SEQUENCE IF EXISTS " + name }
