package loader

import (
	"strconv"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// What a continued post-load skips (postLoader.cat). Object names follow the DDL
// renderers: pk_<table> for the primary key (index and constraint), the schema's
// index names, fk_<table>_<n> for the foreign keys.

// needKey says whether t's primary-key constraint is still to make.
func (p *postLoader) needKey(t schema.Table) bool {
	return !p.cat.exists(database.ObjectConstraint, "pk_"+t.Name)
}

// indexes returns t's secondary index statements not built yet.
func (p *postLoader) indexes(t schema.Table) []string {
	all := p.ddl.Indexes(t)
	if p.cat == nil {
		return all
	}
	var out []string
	for k, stmt := range all {
		if !p.cat.exists(database.ObjectIndex, t.Indexes[k].Name) {
			out = append(out, stmt)
		}
	}
	return out
}

// foreignKeys filters t's foreign-key statements (one per key, in key order): adding
// ones are kept for keys that do not exist, checking ones (check) for keys not valid.
func (p *postLoader) foreignKeys(t schema.Table, stmts []string, check bool) []string {
	if p.cat == nil {
		return stmts
	}
	var out []string
	for i, stmt := range stmts {
		name := fkName(t, i)
		if (check && !p.cat.valid(database.ObjectConstraint, name)) || (!check && !p.cat.exists(database.ObjectConstraint, name)) {
			out = append(out, stmt)
		}
	}
	return out
}

func fkName(t schema.Table, i int) string { return "fk_" + t.Name + "_" + strconv.Itoa(i+1) }
