package txn

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	_ "github.com/brokerbench/brokerbench/database/mysql"     // renders the goldens
	_ "github.com/brokerbench/brokerbench/database/postgres"  // renders the goldens
	_ "github.com/brokerbench/brokerbench/database/sqlserver" // renders the goldens
)

// databases lists the registered databases (both are linked into the tests).
func databases() []database.Name {
	var out []database.Name
	for _, e := range database.Engines() {
		out = append(out, e.Name)
	}
	return out
}

func mustStatements(t testing.TB, n database.Name) *Statements {
	t.Helper()
	st, err := StatementsFor(n)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// PostgresSQL and SQLServerSQL are the rendered sets the database tests run with.
func PostgresSQL() *Statements  { return mustRender(database.Postgres) }
func SQLServerSQL() *Statements { return mustRender(database.SQLServer) }

func mustRender(n database.Name) *Statements {
	st, err := StatementsFor(n)
	if err != nil {
		panic(err)
	}
	return st
}

func mustHook(n database.Name) func(string) string {
	e, err := database.Lookup(n)
	if err != nil {
		panic(err)
	}
	return e.SQL
}

// goldenText lists every rendered statement in the goldens' order and format.
func goldenText(st *Statements) string {
	var b strings.Builder
	for _, s := range ordered() {
		fmt.Fprintf(&b, "-- %s\n%s;\n\n", s.Name, st.of(s))
	}
	return b.String()
}

// TestStatementGoldens pins every statement's text on every database; run with
// -update to rewrite, and review the diff.
func TestStatementGoldens(t *testing.T) {
	for _, db := range databases() {
		got := goldenText(mustStatements(t, db))
		path := filepath.Join("testdata", string(db)+".sql.golden")
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -run Golden -update)", err)
		}
		if string(want) != got {
			t.Errorf("%s statements differ from %s; run go test -run StatementGoldens -update and review the diff", db, path)
		}
	}
}

// TestStatementsComplete: every statement has a unique name and renders to text on
// every database, and every override names a database that exists.
func TestStatementsComplete(t *testing.T) {
	if len(databases()) < 2 {
		t.Fatalf("databases linked into the test: %v", databases())
	}
	if len(registry) < 100 {
		t.Fatalf("only %d statements registered", len(registry))
	}
	known := map[database.Name]bool{}
	for _, db := range databases() {
		known[db] = true
	}
	names := map[string]bool{}
	for _, s := range registry {
		if names[s.Name] {
			t.Errorf("statement name %s declared twice", s.Name)
		}
		names[s.Name] = true
		if s.owner > checkStatements {
			t.Errorf("%s: owner %d is neither a transaction nor check", s.Name, s.owner)
		}
		for _, o := range s.overrides {
			if !known[o.db] {
				t.Errorf("%s: override for unknown database %q", s.Name, o.db)
			}
		}
	}
	for _, db := range databases() {
		st := mustStatements(t, db)
		for _, s := range registry {
			if strings.TrimSpace(st.of(s)) == "" {
				t.Errorf("%s: %s is empty", db, s.Name)
			}
		}
	}
}

// TestOverridesDiffer: an override exists only where the database's rendering of the
// portable text would not do (a hook that refuses the portable text, as MySQL's does a
// parameter bound twice, needs the override).
func TestOverridesDiffer(t *testing.T) {
	for _, s := range registry {
		for _, o := range s.overrides {
			hook := mustHook(o.db)
			if portable, ok := renders(hook, s.portable); ok && hook(o.sql) == portable {
				t.Errorf("%s: the %s override renders like the portable text; drop it", s.Name, o.db)
			}
		}
	}
}

// renders is hook's rendering of text, and false when the hook refuses it (panics).
func renders(hook func(string) string, text string) (out string, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return hook(text), true
}

var placeholder = regexp.MustCompile(`(?:\$|@p)([0-9]+)\b`)

// paramSet lists the parameter numbers a text binds ($n or @pN), sorted; a text of
// positional ? placeholders (MySQL's, each parameter once and in order) binds 1 to
// their count.
func paramSet(s string) string {
	seen := map[int]bool{}
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		var n int
		fmt.Sscan(m[1], &n)
		seen[n] = true
	}
	if len(seen) == 0 {
		for n := 1; n <= strings.Count(s, "?"); n++ {
			seen[n] = true
		}
	}
	var out []int
	for n := range seen {
		out = append(out, n)
	}
	sort.Ints(out)
	return fmt.Sprint(out)
}

// TestParametersMatchAcrossDatabases: the executor binds the same arguments on every
// database, so every statement must use exactly the same parameter numbers as its
// portable text.
func TestParametersMatchAcrossDatabases(t *testing.T) {
	for _, db := range databases() {
		st := mustStatements(t, db)
		for _, s := range registry {
			if a, b := paramSet(s.portable), paramSet(st.of(s)); a != b {
				t.Errorf("%s: portable text binds %s, %s binds %s", s.Name, a, db, b)
			}
		}
	}
}

// TestStatementLookupAllocatesNothing: a frame's lookup is an index.
func TestStatementLookupAllocatesNothing(t *testing.T) {
	st := mustStatements(t, database.SQLServer)
	var sink string
	if n := testing.AllocsPerRun(100, func() { sink = st.of(tradeResultTrade) }); n != 0 {
		t.Fatalf("%v allocations per lookup", n)
	}
	_ = sink
}
