package txn

import (
	"regexp"
	"strings"

	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/schema/dialect"
)

// sqlserverSQL renders a portable statement as T-SQL. go-mssqldb binds positional
// arguments as @p1..@pN (a number may appear more than once) and sends every
// statement through sp_executesql, so each text is compiled once per plan cache
// entry. The dialect sends strings (and Money, an exact decimal string) as
// VARCHAR(MAX) so that parameter declarations, part of the plan cache key, never
// vary with value lengths; the rendering therefore casts a parameter to the type of
// the column it meets, taken from the schema:
//
//   - compared with a column (=, <>, <, <=, >, >=, IN, BETWEEN) or added to one:
//     cast when the column is text, DECIMAL, DATE or DATETIME2, so predicates stay
//     index seeks and the parameter is converted, never the indexed column;
//   - stored (INSERT values, SET col = $n): cast only into a DECIMAL column, so no
//     decimal ever rests on an implicit string conversion; the server converts other
//     stored values to the column's type by itself.
//
// Integers are never cast. A parameter that meets no column (TOP ($n), an explicit
// CAST) is only renamed.
func sqlserverSQL(portable string) string {
	stored := storedParams(portable)
	setFrom, setTo := setClause(portable)
	var b strings.Builder
	last := 0
	for _, m := range portableParam.FindAllStringSubmatchIndex(portable, -1) {
		b.WriteString(portable[last:m[0]])
		last = m[1]
		p := "@p" + portable[m[2]:m[3]]
		col, store := stored[m[0]], true
		if col == "" {
			col, store = metColumn(portable[:m[0]])
			store = store && m[0] > setFrom && m[0] < setTo
		}
		if typ, ok := sqlserverColumns[col]; ok && castParam(typ.Kind, store) {
			p = "CAST(" + p + " AS " + dialect.SQLServerColumnType(typ) + ")"
		}
		b.WriteString(p)
	}
	b.WriteString(portable[last:])
	return b.String()
}

var (
	portableParam = regexp.MustCompile(`\$([0-9]+)`)
	// A parameter after "col op", "col BETWEEN [$n AND]" or inside "col IN (...".
	comparedTo = regexp.MustCompile(`([a-z0-9_]+)\s*(=|<>|<=|>=|<|>|\+)\s*$`)
	betweenOf  = regexp.MustCompile(`([a-z0-9_]+)\s+BETWEEN\s+(\$[0-9]+\s+AND\s+)?$`)
	inListOf   = regexp.MustCompile(`([a-z0-9_]+)\s+IN\s*\((\s*\$[0-9]+\s*,)*\s*$`)
	insertInto = regexp.MustCompile(`(?s)^INSERT INTO [a-z_]+ \(([^)]*)\)\s*VALUES \((.*)\)$`)
	whereWord  = regexp.MustCompile(`\sWHERE\s`)
)

// sqlserverColumns maps every column of the schema to its type. Column names carry
// their table's prefix, so they are unique across the tables.
var sqlserverColumns = func() map[string]schema.Type {
	out := map[string]schema.Type{}
	for _, t := range append(schema.Tables(), schema.MetaTables()...) {
		for _, c := range t.Columns {
			out[c.Name] = c.Type
		}
	}
	return out
}()

// castParam says whether a parameter meeting a column of kind k is cast; store is
// an assignment or an inserted value rather than a comparison or arithmetic.
func castParam(k schema.Kind, store bool) bool {
	switch k {
	case schema.Decimal:
		return true
	case schema.Varchar, schema.Date, schema.Timestamp:
		return !store
	}
	return false
}

// metColumn names the column a parameter meets, from the text before it, and says
// whether it meets it with "=" (an assignment inside a SET clause).
func metColumn(before string) (col string, eq bool) {
	if m := comparedTo.FindStringSubmatch(before); m != nil {
		return m[1], m[2] == "="
	}
	if m := betweenOf.FindStringSubmatch(before); m != nil {
		return m[1], false
	}
	if m := inListOf.FindStringSubmatch(before); m != nil {
		return m[1], false
	}
	return "", false
}

// storedParams maps the offset of each parameter that is a whole INSERT value to
// its column. The value list must be plain (no commas inside a value).
func storedParams(s string) map[int]string {
	m := insertInto.FindStringSubmatchIndex(s)
	if m == nil {
		return nil
	}
	cols := strings.Split(s[m[2]:m[3]], ",")
	out := map[int]string{}
	off := m[4]
	for i, v := range strings.Split(s[m[4]:m[5]], ",") {
		if strings.HasPrefix(strings.TrimSpace(v), "$") && i < len(cols) {
			out[off+strings.Index(v, "$")] = strings.TrimSpace(cols[i])
		}
		off += len(v) + 1
	}
	return out
}

// setClause returns the byte range of an UPDATE's assignments (-1, -1 otherwise).
func setClause(s string) (from, to int) {
	if !strings.HasPrefix(s, "UPDATE ") {
		return -1, -1
	}
	from, to = strings.Index(s, " SET "), len(s)
	if w := whereWord.FindStringIndex(s); w != nil {
		to = w[0]
	}
	return from, to
}
