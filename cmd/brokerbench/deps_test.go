package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/brokerbench/brokerbench/"

// TestDependencyDirection is the architecture test (style.md practice 15): imports
// point one way, database clients live behind schema/dialect, and only cmd knows cobra.
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
		"schema/dialect": {"schema"},
		"schema/rnd":     {"schema"},
		"schema":         {},
		"results":        {},
		"loader":         {"schema", "internal"},
		"txn":            {"schema"},
		"driver":         {"txn", "results", "schema", "driver", "internal"},
		"internal":       {"schema", "internal", "loader"},
	}
	for pkg, ims := range imports {
		for im, file := range ims {
			where := pkg + "/" + file
			if strings.HasPrefix(im, "github.com/jackc/pgx") || strings.HasPrefix(im, "github.com/microsoft/go-mssqldb") {
				// The test harness talks to servers directly so dialect's own tests can use it.
				if !under(pkg, "schema/dialect") && !strings.HasPrefix(pkg, "internal/test") {
					t.Errorf("%s imports the database client %s: only schema/dialect may", where, im)
				}
			}
			if strings.HasPrefix(im, "github.com/spf13/") && !under(pkg, "cmd") {
				t.Errorf("%s imports %s: only cmd may know the command line", where, im)
			}
			dep, ok := ours(im)
			if !ok || under(pkg, "cmd") || under(pkg, "examples") || under(pkg, "scripts") {
				continue
			}
			// The longest matching rule wins (schema/dialect before schema).
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
