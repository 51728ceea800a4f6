package sqlserver

import (
	"fmt"
	"strings"

	"github.com/brokerbench/brokerbench/schema"

	"github.com/brokerbench/brokerbench/database"
)

// sqlserverDDL renders the schema in T-SQL for SQL Server 2019 and later.
type sqlserverDDL struct{}

var (
	_ database.DDL         = sqlserverDDL{}
	_ database.KeyDeferrer = sqlserverDDL{}
)

// sqlserverType maps a logical type. Text is VARCHAR, not NVARCHAR: the generated data
// is ASCII, VARCHAR stores it in half the bytes, and the statement layer sends
// VARCHAR parameters to match (args.go). Timestamps are DATETIME2(3):
// millisecond precision like the reference's DATETIME, without DATETIME's 1/300 s
// rounding.
func sqlserverType(t schema.Type) string {
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
		return "DATETIME2(3)"
	case schema.Bool:
		return "BIT"
	case schema.LOB:
		return "VARCHAR(MAX)"
	}
	panic(fmt.Sprintf("schema type %d has no SQL Server mapping", t.Kind)) // a bug in schema, not user input
}

// ColumnType is the T-SQL type of a logical type, for statements that
// must name a column's type (the transaction layer casts parameters to it).
func ColumnType(t schema.Type) string { return sqlserverType(t) }

// CreateTable creates the table with its clustered primary key (the generic load
// path, and brokerbench's marker table).
func (d sqlserverDDL) CreateTable(t schema.Table) string { return d.createTable(t, true) }

// CreateTableWithoutKey creates a heap (KeyDeferrer). Bulk copy with TABLOCK into a
// heap is minimally logged for every batch, in SIMPLE or BULK_LOGGED recovery, and
// takes a bulk-update lock that lets several loads share the table. Into a clustered
// table only the first batch is; later batches of unsorted rows split pages and log
// them in full.
func (d sqlserverDDL) CreateTableWithoutKey(t schema.Table) string { return d.createTable(t, false) }

// AddPrimaryKey builds the clustered primary key on the loaded heap: one sort, itself
// minimally logged in SIMPLE or BULK_LOGGED recovery. A fill factor takes effect here,
// because SQL Server applies one only when an index is built.
func (sqlserverDDL) AddPrimaryKey(t schema.Table) string {
	return fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT pk_%s PRIMARY KEY CLUSTERED (%s)%s",
		t.Name, t.Name, strings.Join(t.PrimaryKey, ", "), fillFactor(t))
}

func fillFactor(t schema.Table) string {
	if t.FillFactor > 0 {
		return fmt.Sprintf(" WITH (FILLFACTOR = %d)", t.FillFactor)
	}
	return ""
}

func (sqlserverDDL) createTable(t schema.Table, withKey bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (\n", t.Name)
	for i, c := range t.Columns {
		null := " NOT NULL"
		if c.Nullable {
			null = " NULL"
		}
		sep := ","
		if !withKey && i == len(t.Columns)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "    %s %s%s%s\n", c.Name, sqlserverType(c.Type), null, sep)
	}
	if withKey {
		// The fill factor is stored with the key; it shapes pages only when the index
		// is built or rebuilt, which is why the load path adds keys after the data.
		fmt.Fprintf(&b, "    CONSTRAINT pk_%s PRIMARY KEY CLUSTERED (%s)%s\n", t.Name, strings.Join(t.PrimaryKey, ", "), fillFactor(t))
	}
	b.WriteString(")")
	return b.String()
}

// Indexes returns the nonclustered indexes, built after the data is in. They are
// built after the clustered key where the loader adds it (a nonclustered index built
// on a heap is rebuilt when the clustered index arrives).
func (sqlserverDDL) Indexes(t schema.Table) []string {
	var out []string
	for _, ix := range t.Indexes {
		u := ""
		if ix.Unique {
			u = "UNIQUE "
		}
		out = append(out, fmt.Sprintf("CREATE %sNONCLUSTERED INDEX %s ON %s (%s)", u, ix.Name, t.Name, strings.Join(ix.Columns, ", ")))
	}
	return out
}

// ForeignKeys are added after the load; WITH CHECK validates the loaded rows and
// leaves the constraints trusted, so the optimizer may rely on them.
func (sqlserverDDL) ForeignKeys(t schema.Table) []string {
	var out []string
	for i, f := range t.ForeignKeys {
		out = append(out, fmt.Sprintf("ALTER TABLE %s WITH CHECK ADD CONSTRAINT fk_%s_%d FOREIGN KEY (%s) REFERENCES %s (%s)",
			t.Name, t.Name, i+1, strings.Join(f.Columns, ", "), f.RefTable, strings.Join(f.RefColumns, ", ")))
	}
	return out
}

// DropTable drops the table and, first, the foreign keys of other tables that point
// at it: T-SQL's DROP TABLE has no CASCADE, and the statement must work whatever
// order the caller drops tables in. It is one batch.
func (sqlserverDDL) DropTable(t schema.Table) string {
	return fmt.Sprintf(`DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'%s', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS %s`, t.Name, t.Name)
}

// CreateSequence creates a BIGINT sequence whose first value is start. CACHE keeps
// NEXT VALUE FOR off the log's critical path (a crash can skip up to the cache size;
// Trade-Order ids may have gaps anyway). T-SQL accepts only constants in CREATE
// SEQUENCE, hence the literal.
func (sqlserverDDL) CreateSequence(name string, start int64) string {
	return fmt.Sprintf("CREATE SEQUENCE %s AS BIGINT START WITH %d INCREMENT BY 1 NO CYCLE CACHE 1000", name, start)
}

func (sqlserverDDL) DropSequence(name string) string { return "DROP SEQUENCE IF EXISTS " + name }

// RestartSequence sets the next value of a sequence (PostgreSQL's setval).
func RestartSequence(name string, next int64) string {
	return fmt.Sprintf("ALTER SEQUENCE %s RESTART WITH %d", name, next)
}
