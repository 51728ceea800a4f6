package sqlserver

import (
	"strings"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

var _ database.SchemaDropper = sqlserverDDL{}

// DropTableIn drops the table alone: the server refuses (error 3726) while a
// foreign key of a table not dropped before it references it. brokerbench's own keys
// go with their tables, which the loader drops referencing ones first.
func (sqlserverDDL) DropTableIn(sch string, t schema.Table) string {
	return "DROP TABLE IF EXISTS " + quoteName(sch) + "." + quoteName(t.Name)
}

func (sqlserverDDL) DropSequenceIn(sch, name string) string {
	return "DROP SEQUENCE IF EXISTS " + quoteName(sch) + "." + quoteName(name)
}

// DependentsSQL reads sys.sql_expression_dependencies (views, routines, defaults and
// computed columns that name a table or the sequence, resolved to its object) and
// sys.foreign_keys (keys of other tables). brokerbench's own server routines (bb_*
// procedures of the schema, which schema drop removes next) are not others'.
func (sqlserverDDL) DependentsSQL(sch string, names []string) string {
	s := literal(sch)
	return `WITH ours AS (
  SELECT object_id, name FROM sys.objects
  WHERE schema_id = SCHEMA_ID(` + s + `) AND type IN ('U', 'SO') AND name IN (` + literals(names) + `)
)
SELECT LOWER(o.type_desc) + N' ' + OBJECT_SCHEMA_NAME(o.object_id) + N'.' + o.name + N' (on ' + ` + s + ` + N'.' + r.name + N')'
FROM sys.sql_expression_dependencies d
JOIN ours r ON r.object_id = d.referenced_id
JOIN sys.objects o ON o.object_id = d.referencing_id
WHERE o.object_id NOT IN (SELECT object_id FROM ours)
  AND NOT (o.type = 'P' AND o.name LIKE N'bb[_]%' AND o.schema_id = SCHEMA_ID(` + s + `))
UNION
SELECT N'foreign key ' + fk.name + N' of ' + OBJECT_SCHEMA_NAME(fk.parent_object_id) + N'.' + OBJECT_NAME(fk.parent_object_id)
  + N' (on ' + ` + s + ` + N'.' + r.name + N')'
FROM sys.foreign_keys fk
JOIN ours r ON r.object_id = fk.referenced_object_id
WHERE fk.parent_object_id NOT IN (SELECT object_id FROM ours)
ORDER BY 1`
}

// quoteName is T-SQL's QUOTENAME: brackets, a closing one doubled.
func quoteName(s string) string { return "[" + strings.ReplaceAll(s, "]", "]]") + "]" }

// literal quotes s as an N'...' string.
func literal(s string) string { return "N'" + strings.ReplaceAll(s, "'", "''") + "'" }

func literals(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = literal(n)
	}
	return strings.Join(q, ", ")
}
