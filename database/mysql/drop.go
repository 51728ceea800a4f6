package mysql

import (
	"strings"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

var (
	_ database.SchemaDropper = mysqlDDL{}
	_ database.SchemaDropper = counterDDL{}
)

// DropTableIn drops the table alone: InnoDB refuses (error 1451) while a foreign key
// of a table not dropped before it references it.
func (innoDDL) DropTableIn(sch string, t schema.Table) string {
	return "DROP TABLE IF EXISTS " + quoteIdent(sch) + "." + quoteIdent(t.Name)
}

func (mysqlDDL) DropSequenceIn(sch, name string) string {
	return "DROP SEQUENCE IF EXISTS " + quoteIdent(sch) + "." + quoteIdent(name)
}

// DropSequenceIn drops the counter table that stands for the sequence on MySQL.
func (counterDDL) DropSequenceIn(sch, name string) string {
	return "DROP TABLE IF EXISTS " + quoteIdent(sch) + "." + quoteIdent(name)
}

// DependentsSQL reads information_schema: REFERENTIAL_CONSTRAINTS for other tables'
// foreign keys, and VIEWS for views whose stored definition names a table; the
// server stores a view's tables qualified and quoted (`db`.`table`), and MariaDB has
// no view-to-table usage view to read instead.
func (innoDDL) DependentsSQL(sch string, names []string) string {
	s := literal(sch)
	ours := make([]string, len(names))
	for i, n := range names {
		ours[i] = "SELECT " + literal(n) + " AS name"
	}
	return `SELECT CONCAT('foreign key ', rc.CONSTRAINT_NAME, ' of ', rc.CONSTRAINT_SCHEMA, '.', rc.TABLE_NAME,
    ' (on ', rc.UNIQUE_CONSTRAINT_SCHEMA, '.', rc.REFERENCED_TABLE_NAME, ')') AS dependent
FROM information_schema.REFERENTIAL_CONSTRAINTS rc
WHERE rc.UNIQUE_CONSTRAINT_SCHEMA = ` + s + ` AND rc.REFERENCED_TABLE_NAME IN (` + literals(names) + `)
  AND NOT (rc.CONSTRAINT_SCHEMA = ` + s + ` AND rc.TABLE_NAME IN (` + literals(names) + `))
UNION
SELECT CONCAT('view ', v.TABLE_SCHEMA, '.', v.TABLE_NAME, ' (on ', ` + s + `, '.', o.name, ')')
FROM information_schema.VIEWS v
JOIN (` + strings.Join(ours, " UNION ALL ") + `) o
  ON LOCATE(CONCAT('` + "`" + `', ` + s + `, '` + "`.`" + `', o.name, '` + "`" + `'), v.VIEW_DEFINITION) > 0
ORDER BY 1`
}

// quoteIdent quotes a name with backticks, a backtick doubled.
func quoteIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// literal quotes s as a string; a backslash is doubled too, as the server's default
// sql_mode reads it as an escape.
func literal(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", "''").Replace(s) + "'"
}

func literals(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = literal(n)
	}
	return strings.Join(q, ", ")
}
