// Package archtest holds the repository-wide architecture tests: which package may import
// which, who may name a database, the import graph ARCHITECTURE.md draws, and function
// size. It has only tests, so it is fast and runs apart from the end-to-end suites.
package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
)

const module = "github.com/brokerbench/brokerbench/"

// root is the repository's root, seen from this package's folder (where go test runs).
var root = filepath.Join("..", "..", "..")

// walkSources calls fn for every Go file of the repository but its tests (path as
// opened, rel from the repository's root with slashes), leaving out testdata, hidden
// folders and the folders skip names (paths from the root).
func walkSources(t *testing.T, skip []string, fn func(path, rel string) error) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || strings.HasPrefix(n, ".") && path != root || slices.Contains(skip, rel) {
				return filepath.SkipDir
			}
			return nil
		}
		// Tests may reach for whatever they need to check real effects.
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		return fn(path, rel)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// packageImports returns, for every package of the repository but its tests, each
// import path and a file that imports it: package dir -> import path -> file.
func packageImports(t *testing.T) map[string]map[string]string {
	t.Helper()
	imports := map[string]map[string]string{}
	walkSources(t, nil, func(path, file string) error {
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(filepath.Dir(file))
		if imports[rel] == nil {
			imports[rel] = map[string]string{}
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			imports[rel][p] = filepath.Base(path)
		}
		return nil
	})
	return imports
}

// TestDependencyDirection is the architecture test: imports point one way, database
// clients live behind database/..., only cmd chooses the concrete databases, only cmd
// knows cobra, and only tests import the test harnesses.
func TestDependencyDirection(t *testing.T) {
	imports := packageImports(t)
	clients := clientModules(t, imports)
	ours := func(p string) (string, bool) {
		if strings.HasPrefix(p, module) {
			return strings.TrimPrefix(p, module), true
		}
		return "", false
	}
	// allowed lists, per package prefix, which of our packages it may import.
	allowed := map[string][]string{
		"database":   {"schema", "database"},
		"schema/rnd": {"schema"},
		"schema":     {},
		// The results tree, one layer on another (results/doc.go); TestResultsLayers
		// holds the order.
		"results":         {"internal/bytesize"},
		"results/stats":   {},
		"results/record":  {"results", "internal/bytesize"},
		"results/figures": {"results", "results/stats", "internal/bytesize"},
		"results/merge":   {"results", "results/stats", "results/figures", "internal/bytesize"},
		"results/compare": {"results", "results/stats", "results/figures", "internal/bytesize"},
		"results/report":  {"results", "results/stats", "results/figures", "results/merge", "results/compare", "results/chart", "internal/bytesize"},
		// Sizes read and shown one way everywhere: a leaf any package may import.
		"internal/bytesize": {},
		// The charts of the HTML reports: series in, SVG out, no result files.
		"results/chart": {},
		"loader":        {"schema", "internal", "database"},
		"txn":           {"schema", "database"},
		"driver":        {"txn", "results", "schema", "driver", "internal", "database"},
		"internal":      {"schema", "internal", "loader", "database"},
		// The test harnesses also build result files for the tests of results/....
		"internal/testkit": {"schema", "internal", "loader", "database", "results", "txn"},
		// The storage and host sampler: the database's I/O views in, a step's figures out.
		"internal/iostat": {"database", "results"},
		// The storage profiles read result files (from-run) and run fio.
		"diskprofile":  {"results", "internal/fio"},
		"internal/fio": {},
		// Block-I/O capture and replay: tracefs, its trace files, fio.
		"iotrace": {"results", "internal/fio"},
		// The sessions orchestrate everything below the command; cmd turns flags into
		// their options, so nothing of theirs knows the command line.
		"session": {"schema", "database", "loader", "txn", "driver", "results", "internal", "diskprofile", "iotrace", "session"},
	}
	for _, line := range testkitImports(imports) {
		t.Error(line)
	}
	for pkg, ims := range imports {
		// Benchmarks of brokerbench itself (scripts/pgxfloor, a main package) measure
		// the database client under brokerbench's own pool of it.
		bench := under(pkg, "scripts")
		for im, file := range ims {
			where := pkg + "/" + file
			if client := moduleOf(im, clients); client != "" {
				if (!under(pkg, "database") || pkg == "database") && !bench {
					t.Errorf("%s imports the database client %s: only database's sub-packages may", where, im)
				}
			}
			if dep, ok := ours(im); ok && under(dep, "database") && dep != "database" && !under(pkg, dep) && !wiresDatabases(pkg, file) {
				t.Errorf("%s imports the concrete database %s: only cmd chooses the databases; use package database", where, dep)
			}
			if strings.HasPrefix(im, "github.com/spf13/") && !under(pkg, "cmd") {
				t.Errorf("%s imports %s: only cmd may know the command line", where, im)
			}
			dep, ok := ours(im)
			// An import of a test harness is testkitImports's to judge.
			if !ok || under(dep, testkit) || under(pkg, "cmd") || under(pkg, "examples") || under(pkg, "scripts") {
				continue
			}
			// The longest matching rule wins (schema/rnd before schema).
			rule, best := []string(nil), ""
			for prefix, deps := range allowed {
				if under(pkg, prefix) && len(prefix) > len(best) {
					rule, best = deps, prefix
				}
			}
			if best == "" {
				continue
			}
			okDep := false
			for _, a := range rule {
				if under(dep, a) {
					okDep = true
				}
			}
			if !okDep {
				t.Errorf("%s imports %s, which %s must not depend on", where, dep, best)
			}
		}
	}
}

// clientModules are the database clients that only database's sub-packages may
// import: the modules (go.mod's, so a client's sub-packages map to it) that the
// registered engines' packages import, each package found from its engine's Open
// function. A new engine's client is covered as cmd links the engine in.
func clientModules(t *testing.T, imports map[string]map[string]string) []string {
	t.Helper()
	linked := requiredModules(t)
	var clients []string
	for _, e := range database.Engines() {
		pkg := enginePackage(e)
		found := false
		for im := range imports[pkg] {
			if m := moduleOf(im, linked); m != "" {
				found = true
				if !slices.Contains(clients, m) {
					clients = append(clients, m)
				}
			}
		}
		if !found {
			t.Errorf("engine %s: its package %s imports no module: its database client is not found", e.Name, pkg)
		}
	}
	return clients
}

// requiredModules are the modules go.mod requires: every module the build can link. (A
// test binary's build information lists its modules only when the package is main.)
func requiredModules(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	var mods []string
	block := false
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case block && f[0] == ")":
			block = false
		case block:
			mods = append(mods, f[0])
		case f[0] == "require" && len(f) == 2 && f[1] == "(":
			block = true
		case f[0] == "require" && len(f) > 2:
			mods = append(mods, f[1])
		}
	}
	if len(mods) == 0 {
		t.Fatal("go.mod requires no module")
	}
	return mods
}

// under says whether package pkg is prefix or inside it.
func under(pkg, prefix string) bool { return pkg == prefix || strings.HasPrefix(pkg, prefix+"/") }

// moduleOf returns the module of mods that import path im is in (the longest that
// holds it), "" for none.
func moduleOf(im string, mods []string) string {
	best := ""
	for _, m := range mods {
		if (im == m || strings.HasPrefix(im, m+"/")) && len(m) > len(best) {
			best = m
		}
	}
	return best
}

// wiresDatabases says whether a non-test file may import a concrete database package:
// cmd links them in; the test harnesses (internal/testkit/testpg, internal/testkit/testdb,
// ...) open servers of one kind by design, and so do the benchmarks under scripts/.
func wiresDatabases(pkg, file string) bool {
	switch {
	case pkg == "cmd/brokerbench", strings.HasPrefix(pkg, "internal/testkit/"), strings.HasPrefix(pkg, "scripts/"):
		return true
	}
	return false
}

// engineNames are what would name a registered engine outside database/...: the
// identifiers of package database's Name constants whose value is a registered
// engine's name ("Postgres"), and the engines' names and products as string literals
// ("postgres", "PostgreSQL"). They are derived from the engines linked in, which
// TestEnginesLinked holds to those cmd links in (databases.go), so a new engine is
// covered as cmd links it in.
func engineNames(t *testing.T) (idents, literals map[string]string) {
	t.Helper()
	idents, literals = map[string]string{}, map[string]string{}
	registered := map[string]bool{}
	for _, e := range database.Engines() {
		registered[string(e.Name)] = true
		literals[string(e.Name)], literals[e.Product] = string(e.Name), string(e.Name)
	}
	if len(registered) < 2 {
		t.Fatalf("engines linked in: %v", slices.Sorted(maps.Keys(registered)))
	}
	files, err := filepath.Glob(filepath.Join(root, "database", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				v := spec.(*ast.ValueSpec)
				if typ, ok := v.Type.(*ast.Ident); !ok || typ.Name != "Name" {
					continue
				}
				for i, id := range v.Names {
					if i < len(v.Values) {
						if lit, ok := v.Values[i].(*ast.BasicLit); ok {
							if val, _ := strconv.Unquote(lit.Value); registered[val] {
								idents[id.Name] = val
							}
						}
					}
				}
			}
		}
	}
	if len(idents) == 0 {
		t.Fatal("found no database.Name constant of a registered engine in database/*.go")
	}
	return idents, literals
}

// TestNoNameSwitchOnDatabases: outside database/..., code gets what differs between
// databases from the registered Engine, never by naming an engine: no database.X
// constant of a registered engine, no string literal of an engine's name or product.
// cmd may name the default (schema --database postgres); the managed PostgreSQL and MariaDB
// (internal/pgmanaged, internal/mdbmanaged), the session that chooses and starts them by
// --engine's names (session/target) and the test harnesses run one product by
// design; txn's
// per-database statement texts are data keyed by the name (override{database.X, sql}).
func TestNoNameSwitchOnDatabases(t *testing.T) {
	idents, literals := engineNames(t)
	walkSources(t, []string{"database"}, func(path, rel string) error {
		if strings.HasPrefix(rel, "cmd/") {
			return nil
		}
		oneProduct := strings.HasPrefix(rel, "internal/pgmanaged/") || strings.HasPrefix(rel, "internal/mdbmanaged/") || strings.HasPrefix(rel, "session/target/") || wiresDatabases(filepath.ToSlash(filepath.Dir(rel)), "")
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		var inspect func(n ast.Node) bool
		inspect = func(n ast.Node) bool {
			if lit, ok := n.(*ast.CompositeLit); ok && strings.HasPrefix(rel, "txn/") {
				if id, ok := lit.Type.(*ast.Ident); ok && id.Name == "override" && len(lit.Elts) == 2 {
					ast.Inspect(lit.Elts[1], inspect)
					return false
				}
			}
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "database" && idents[sel.Sel.Name] != "" {
					t.Errorf("%s names database.%s: take the behaviour from the Engine instead", rel, sel.Sel.Name)
				}
			}
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && !oneProduct {
				if v, _ := strconv.Unquote(lit.Value); literals[v] != "" {
					t.Errorf("%s: the string %s names the engine %s: take the behaviour from the Engine instead", rel, lit.Value, literals[v])
				}
			}
			return true
		}
		ast.Inspect(f, inspect)
		return nil
	})
}

// TestArchitectureDiagram: ARCHITECTURE.md's import diagram is the import graph. Each
// package of the module (examples/ is a module of its own) has one line, "pkg ──► dep,
// dep" or "pkg ──► nothing of ours", listing exactly its imports of ours.
func TestArchitectureDiagram(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	const start = "<!-- the import graph: internal/testkit/archtest/deps_test.go checks it -->\n```\n"
	_, block, ok := strings.Cut(string(b), start)
	block, _, _ = strings.Cut(block, "```")
	if !ok {
		t.Fatalf("ARCHITECTURE.md has no block after %q", start)
	}
	drawn := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		pkg, deps, ok := strings.Cut(line, "──►")
		pkg = strings.TrimSpace(pkg)
		if !ok || pkg == "" {
			t.Errorf("ARCHITECTURE.md: %q is not \"pkg ──► deps\"", line)
			continue
		}
		if _, dup := drawn[pkg]; dup {
			t.Errorf("ARCHITECTURE.md: %s drawn twice", pkg)
		}
		drawn[pkg] = []string{}
		if deps = strings.TrimSpace(deps); deps != "nothing of ours" {
			drawn[pkg] = strings.Split(deps, ", ")
			slices.Sort(drawn[pkg])
		}
	}
	actual := map[string][]string{}
	for pkg, ims := range packageImports(t) {
		if pkg == "examples" || strings.HasPrefix(pkg, "examples/") {
			continue
		}
		actual[pkg] = []string{}
		for im := range ims {
			if dep, ok := strings.CutPrefix(im, module); ok {
				actual[pkg] = append(actual[pkg], dep)
			}
		}
		slices.Sort(actual[pkg])
	}
	for _, pkg := range slices.Sorted(maps.Keys(actual)) {
		want := actual[pkg]
		got, ok := drawn[pkg]
		switch {
		case !ok:
			t.Errorf("ARCHITECTURE.md does not draw %s; add the line: %s ──► %s", pkg, pkg, depsText(want))
		case !slices.Equal(got, want):
			t.Errorf("ARCHITECTURE.md draws %s ──► %s; it imports %s", pkg, depsText(got), depsText(want))
		}
	}
	for pkg := range drawn {
		if _, ok := actual[pkg]; !ok {
			t.Errorf("ARCHITECTURE.md draws %s, which is no package", pkg)
		}
	}
}

func depsText(deps []string) string {
	if len(deps) == 0 {
		return "nothing of ours"
	}
	return strings.Join(deps, ", ")
}
