package sqlserver

import (
	"regexp"
	"strings"

	"github.com/brokerbench/brokerbench/schema"
)

// SQL turns portable statement text into T-SQL. go-mssqldb binds @p1, @p2, ... where
// the portable text says $1, $2, ...; a $ followed by a digit inside a quoted literal
// or identifier is left alone.
//
// The pool sends strings (and Money, an exact decimal string) as VARCHAR(MAX), so
// that parameter declarations, part of the plan cache key, never vary with value
// lengths. SQL therefore also casts a parameter to the type of the schema column it
// meets:
//
//   - compared with a column (=, <>, <, <=, >, >=, IN, BETWEEN) or added to one: cast
//     when the column is text, DECIMAL, DATE or DATETIME2, so a predicate compares in
//     the column's own type and stays an index seek (the parameter is converted,
//     never the indexed column);
//   - stored (an INSERT value, SET col = $n): cast only into a DECIMAL column, so no
//     decimal ever rests on an implicit string conversion; the server converts other
//     stored values to the column's type by itself.
//
// Integers are never cast, and a parameter that meets no schema column (TOP ($n), an
// explicit CAST) is only renamed. The rule is pinned by the statement goldens of
// package txn.
func SQL(portable string) string {
	if !strings.Contains(portable, "$") {
		return portable
	}
	stored := storedParams(portable)
	setFrom, setTo := setClause(portable)
	var b strings.Builder
	b.Grow(len(portable) + 8)
	var quote byte // the quote character we are inside, or 0
	for i := 0; i < len(portable); i++ {
		c := portable[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0 // a doubled quote reopens on the next byte, which is right
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '$' && i+1 < len(portable) && isDigit(portable[i+1]):
			j := i + 1
			for j < len(portable) && isDigit(portable[j]) {
				j++
			}
			p := "@p" + portable[i+1:j]
			col, store := stored[i], true
			if col == "" {
				col, store = metColumn(portable[:i])
				store = store && i > setFrom && i < setTo
			}
			if typ, ok := columns[col]; ok && castParam(typ.Kind, store) {
				p = "CAST(" + p + " AS " + ColumnType(typ) + ")"
			}
			b.WriteString(p)
			i = j - 1
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

var (
	// The column before a parameter: "col op $n", "col BETWEEN [$n AND] $n",
	// "col IN (..., $n".
	comparedTo = regexp.MustCompile(`([a-z0-9_]+)\s*(=|<>|<=|>=|<|>|\+)\s*$`)
	betweenOf  = regexp.MustCompile(`([a-z0-9_]+)\s+BETWEEN\s+(\$[0-9]+\s+AND\s+)?$`)
	inListOf   = regexp.MustCompile(`([a-z0-9_]+)\s+IN\s*\((\s*\$[0-9]+\s*,)*\s*$`)
	insertInto = regexp.MustCompile(`(?s)^INSERT INTO [a-z_]+ \(([^)]*)\)\s*VALUES \((.*)\)$`)
	whereWord  = regexp.MustCompile(`\sWHERE\s`)
)

// columns maps every column of the schema to its type. Column names carry their
// table's prefix, so they are unique across the tables.
var columns = func() map[string]schema.Type {
	out := map[string]schema.Type{}
	for _, t := range append(schema.Tables(), schema.MetaTables()...) {
		for _, c := range t.Columns {
			out[c.Name] = c.Type
		}
	}
	return out
}()

// castParam says whether a parameter meeting a column of kind k is cast; store is an
// assignment or an inserted value rather than a comparison or arithmetic.
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
// whether it meets it with "=" (an assignment, inside a SET clause).
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

// storedParams maps the offset of each parameter that is a whole INSERT value to its
// column. The value list must be plain (no comma inside a value).
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
