package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/brokerbench/brokerbench/"

// TestDependencyDirection is the architecture test: imports point one way, database
// clients live behind database/..., only cmd chooses the concrete databases, and only
// cmd knows cobra.
func TestDependencyDirection(t *testing.T) {
	root := filepath.Join("..", "..")
	imports := map[string]map[string]string{} // package dir -> import path -> file
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || strings.HasPrefix(n, ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		// Tests may reach for whatever they need to check real effects.
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		if imports[rel] == nil {
			imports[rel] = map[string]string{}
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			imports[rel][p] = filepath.Base(path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ours := func(p string) (string, bool) {
		if strings.HasPrefix(p, module) {
			return strings.TrimPrefix(p, module), true
		}
		return "", false
	}
	under := func(pkg, prefix string) bool { return pkg == prefix || strings.HasPrefix(pkg, prefix+"/") }
	// allowed lists, per package prefix, which of our packages it may import.
	allowed := map[string][]string{
		"database":   {"schema", "database", "internal/netfault"}, // netfault: a leaf, for its tests
		"schema/rnd": {"schema"},
		"schema":     {},
		"results":    {},
		"loader":     {"schema", "internal", "database"},
		"txn":        {"schema", "database"},
		"driver":     {"txn", "results", "schema", "driver", "internal", "database"},
		"internal":   {"schema", "internal", "loader", "database"},
		// The storage profiles read result files (from-run) and run fio.
		"diskprofile":  {"results", "internal/fio"},
		"internal/fio": {},
		// Block-I/O capture and replay: tracefs, its trace files, fio.
		"iotrace": {"results", "internal/fio", "internal/testloop"},
	}
	for pkg, ims := range imports {
		// Benchmarks of brokerbench itself (scripts/pgxfloor, a main package) measure
		// the database client under brokerbench's own pool of it.
		bench := under(pkg, "scripts")
		for im, file := range ims {
			where := pkg + "/" + file
			if strings.HasPrefix(im, "github.com/jackc/pgx") || strings.HasPrefix(im, "github.com/microsoft/go-mssqldb") ||
				strings.HasPrefix(im, "github.com/go-sql-driver/mysql") {
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
			if !ok || under(pkg, "cmd") || under(pkg, "examples") || under(pkg, "scripts") {
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

// wiresDatabases says whether a non-test file may import a concrete database package:
// cmd links them in; the test harnesses (internal/testpg, internal/testdb) open
// servers of one kind by design, and so do the benchmarks under scripts/.
func wiresDatabases(pkg, file string) bool {
	switch {
	case pkg == "cmd/brokerbench", strings.HasPrefix(pkg, "internal/test"), strings.HasPrefix(pkg, "scripts/"):
		return true
	}
	return false
}

// TestNoNameSwitchOnDatabases: outside database/..., code gets what differs between
// databases from the registered Engine, never by comparing with an engine's name.
// cmd may name the default (--dialect postgres).
func TestNoNameSwitchOnDatabases(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || n == "database" && rel == "database" || strings.HasPrefix(n, ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasPrefix(rel, "cmd/") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		var inspect func(n ast.Node) bool
		inspect = func(n ast.Node) bool {
			// A statement's per-database text is data keyed by the database's name
			// (txn's override{database.X, sql}): only its SQL is inspected.
			if lit, ok := n.(*ast.CompositeLit); ok && strings.HasPrefix(rel, "txn/") {
				if id, ok := lit.Type.(*ast.Ident); ok && id.Name == "override" && len(lit.Elts) == 2 {
					ast.Inspect(lit.Elts[1], inspect)
					return false
				}
			}
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "database" && (sel.Sel.Name == "Postgres" || sel.Sel.Name == "SQLServer" || sel.Sel.Name == "MySQL") {
					t.Errorf("%s names database.%s: take the behaviour from the Engine instead", rel, sel.Sel.Name)
				}
			}
			return true
		}
		ast.Inspect(f, inspect)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
