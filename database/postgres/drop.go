package postgres

import (
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

var _ database.SchemaDropper = postgresDDL{}

// DropTableIn drops without CASCADE: the server refuses (2BP01) while a view, a
// foreign key or a default of another object still depends on the table.
func (postgresDDL) DropTableIn(sch string, t schema.Table) string {
	return "DROP TABLE IF EXISTS " + pgx.Identifier{sch, t.Name}.Sanitize()
}

func (postgresDDL) DropSequenceIn(sch, name string) string {
	return "DROP SEQUENCE IF EXISTS " + pgx.Identifier{sch, name}.Sanitize()
}

// DependentsSQL reads pg_depend: the normal dependencies on brokerbench's relations
// and on their row types (a function returning SETOF customer), less those of the
// relations' own constraints and rules. A view depends through its rewrite rule,
// which the list names by its view.
func (postgresDDL) DependentsSQL(sch string, names []string) string {
	return `WITH ours AS (
  SELECT c.oid, c.reltype, n.nspname || '.' || c.relname AS name
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = ` + literal(sch) + ` AND c.relname IN (` + literals(names) + `)
), deps AS (
  SELECT CASE WHEN d.classid = 'pg_rewrite'::regclass THEN 'pg_class'::regclass ELSE d.classid END AS classid,
    CASE WHEN d.classid = 'pg_rewrite'::regclass
      THEN (SELECT r.ev_class FROM pg_rewrite r WHERE r.oid = d.objid) ELSE d.objid END AS objid,
    o.name AS ref
  FROM pg_depend d
  JOIN ours o ON (d.refclassid = 'pg_class'::regclass AND d.refobjid = o.oid)
    OR (d.refclassid = 'pg_type'::regclass AND d.refobjid = o.reltype)
  WHERE d.deptype = 'n'
    AND NOT (d.classid = 'pg_class'::regclass AND d.objid IN (SELECT oid FROM ours))
    AND NOT (d.classid = 'pg_constraint'::regclass AND d.objid IN
      (SELECT k.oid FROM pg_constraint k WHERE k.conrelid IN (SELECT oid FROM ours)))
    AND NOT (d.classid = 'pg_rewrite'::regclass AND d.objid IN
      (SELECT r.oid FROM pg_rewrite r WHERE r.ev_class IN (SELECT oid FROM ours)))
)
SELECT DISTINCT i.type || ' ' || i.identity || ' (on ' || deps.ref || ')'
FROM deps, pg_identify_object(deps.classid, deps.objid, 0) i ORDER BY 1`
}

// literal quotes s as an SQL string (standard_conforming_strings, on since 9.1).
func literal(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func literals(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = literal(n)
	}
	return strings.Join(q, ", ")
}
