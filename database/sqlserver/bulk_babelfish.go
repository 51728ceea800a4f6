package sqlserver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/brokerbench/brokerbench/schema"
)

// Babelfish for PostgreSQL reads every DECIMAL value of a TDS bulk copy as 16 bytes,
// whatever length the column's precision gives it on the wire (4, 8, 12 or 16 bytes
// after the sign). go-mssqldb encodes by the destination column's precision, so a
// DECIMAL(12,2) value arrives misread ("invalid input syntax for type numeric",
// "Arithmetic overflow"). Into a column of precision 29 to 38 the encoding is the
// full 16 bytes, which Babelfish reads right. So on Babelfish a table with DECIMAL
// columns is bulk copied into a session temporary table of the same columns with
// DECIMAL(38, scale) in place of each DECIMAL(p, scale), then moved into the table
// with one INSERT ... SELECT in the batch's transaction: same scale, values that fit
// the column, so the conversion is exact. Tables without DECIMAL columns, and
// Microsoft's server, take the direct path.

// babelfishStagePrecision is the precision whose TDS encoding is the full 16 bytes.
const babelfishStagePrecision = 38

// bulkStage is the temporary table a batch copies into before it reaches table.
type bulkStage struct {
	name   string // "#bb_stage_<table>"
	create string // CREATE TABLE of the stage
	move   string // INSERT INTO table (...) SELECT ... FROM stage
	drop   string
}

// babelfishStage returns the stage for a bulk copy of columns into table, or false
// when the copy needs none (no DECIMAL column, or a table the schema does not know).
func babelfishStage(table string, columns []string) (bulkStage, bool) {
	t, ok := schemaTable(table)
	if !ok {
		return bulkStage{}, false
	}
	var defs []string
	widened := false
	for _, name := range columns {
		i := slices.IndexFunc(t.Columns, func(c schema.Column) bool { return c.Name == name })
		if i < 0 {
			return bulkStage{}, false
		}
		typ := t.Columns[i].Type
		if typ.Kind == schema.Decimal {
			typ.Precision, widened = babelfishStagePrecision, true
		}
		defs = append(defs, name+" "+sqlserverType(typ)+" NULL")
	}
	if !widened {
		return bulkStage{}, false
	}
	stage := "#bb_stage_" + table
	cols := strings.Join(columns, ", ")
	return bulkStage{
		name:   stage,
		create: fmt.Sprintf("CREATE TABLE %s (%s)", stage, strings.Join(defs, ", ")),
		move:   fmt.Sprintf("INSERT INTO %s (%s) SELECT %s FROM %s", table, cols, cols, stage),
		drop:   "DROP TABLE " + stage,
	}, true
}

// schemaTable finds a table of the workload's schema or brokerbench's own by name.
func schemaTable(name string) (schema.Table, bool) {
	for _, t := range append(schema.Tables(), schema.MetaTables()...) {
		if t.Name == name {
			return t, true
		}
	}
	return schema.Table{}, false
}
