package txn

import (
	"fmt"
	"sort"

	"github.com/brokerbench/brokerbench/database"
)

// Statement is one SQL statement of a transaction, declared in that transaction's
// file next to the frames that run it. Its text is written once, in portable form:
// standard SQL with PostgreSQL-style $n parameters. Where a database needs different
// SQL for this statement (TOP for LIMIT, lock hints for FOR UPDATE, its own date
// functions) an override replaces the text for that database, written in the same
// portable conventions; text that follows from a fact every engine states (a
// sequence's next value, database.Engine.NextValue) is made by the engine instead. Either text then goes through
// the database's statement hook (database.Engine.SQL), which does what every
// statement needs on that database (SQL Server: @pN placeholders and parameter
// casts).
type Statement struct {
	Name      string // stable: the goldens key each text by it
	owner     Kind   // whose file declares it; checkStatements for `check`
	portable  string
	overrides []override
	// fromEngine, when set, makes the text from an engine's own facts (a sequence's
	// next value) in place of the portable text and overrides.
	fromEngine func(e *database.Engine) string
	id         int // index of the rendered text in a Statements
}

// override is a statement's own text on one database, keyed by the database's name:
// data, not a switch (the dependency test lets txn name databases only here).
type override struct {
	db  database.Name
	sql string
}

// checkStatements owns the statements of `brokerbench check` (check.go); it sorts
// after every transaction.
const checkStatements = NumKinds

// registry holds every Statement in declaration order. It is filled while the
// package's variables initialise and never changes afterwards.
var registry []*Statement

// statement declares a statement of transaction k. Only package-level variables
// call it, so the registry is complete before any Statements is rendered.
func (k Kind) statement(name, portable string, overrides ...override) *Statement {
	s := &Statement{Name: name, owner: k, portable: portable, overrides: overrides, id: len(registry)}
	registry = append(registry, s)
	return s
}

// engineStatement declares a statement of transaction k whose text the engine makes;
// its portable text is what an engine without the fact gets.
func (k Kind) engineStatement(name string, text func(e *database.Engine) string) *Statement {
	s := k.statement(name, text(&database.Engine{}))
	s.fromEngine = text
	return s
}

// text returns the statement's source for engine e: the engine's own text, else its
// override there, else the portable text.
func (s *Statement) text(e *database.Engine) string {
	if s.fromEngine != nil {
		return s.fromEngine(e)
	}
	for _, o := range s.overrides {
		if o.db == e.Name {
			return o.sql
		}
	}
	return s.portable
}

// Statements are every statement rendered for one database. StatementsFor renders
// them once per run and every executor of the run shares the result, so a frame's
// lookup (of) is an index into a slice: no rendering or allocation per transaction.
type Statements struct {
	text []string // by Statement.id
}

// of returns the rendered text of s.
func (st *Statements) of(s *Statement) string { return st.text[s.id] }

// render renders every statement for engine e through its statement hook.
func render(e *database.Engine) *Statements {
	st := &Statements{text: make([]string, len(registry))}
	for _, s := range registry {
		st.text[s.id] = e.SQL(s.text(e))
	}
	return st
}

// StatementsFor returns the statements rendered for the registered database n.
func StatementsFor(n database.Name) (*Statements, error) {
	e, err := database.Lookup(n)
	if err != nil {
		return nil, fmt.Errorf("no transaction SQL: %w", err)
	}
	return render(e), nil
}

// ordered lists every statement grouped by owner in catalogue order, then in
// declaration order: the order of the golden files.
func ordered() []*Statement {
	out := append([]*Statement(nil), registry...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].owner < out[j].owner })
	return out
}
