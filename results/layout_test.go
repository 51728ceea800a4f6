package results

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// reportFiles are the files that render runs and comparisons (ARCHITECTURE.md,
// "results": the reports group).
var reportFiles = regexp.MustCompile(`^(report.*|text|table|csv|html.*|compare_export|.*_report|disk_compare_text|disk_csv|disk_html|disk_sweep|chart_axis)\.go$`)

// TestModelCallsNoReport: the file format, merge, analysis, comparison and gates name
// nothing the report files declare at package level, so the reports stay a layer on
// top (ARCHITECTURE.md). Methods are not checked: their names are not unique; nor is
// a local variable told from a report declaration of its name, so name it otherwise.
func TestModelCallsNoReport(t *testing.T) {
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	declared := map[string]string{} // name -> report file
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = f
		if !reportFiles.MatchString(p) {
			continue
		}
		for _, d := range f.Decls {
			switch x := d.(type) {
			case *ast.FuncDecl:
				if x.Recv == nil {
					declared[x.Name.Name] = p
				}
			case *ast.GenDecl:
				for _, s := range x.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						declared[s.Name.Name] = p
					case *ast.ValueSpec:
						for _, n := range s.Names {
							declared[n.Name] = p
						}
					}
				}
			}
		}
	}
	if len(declared) < 50 {
		t.Fatalf("found only %d report declarations: is reportFiles still right?", len(declared))
	}
	for p, f := range files {
		if reportFiles.MatchString(p) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				ast.Inspect(x.X, func(m ast.Node) bool { return checkIdent(t, fset, m, declared) })
				return false // x.Sel is a field or method
			case *ast.KeyValueExpr:
				if _, ok := x.Key.(*ast.Ident); ok {
					ast.Inspect(x.Value, func(m ast.Node) bool { return checkIdent(t, fset, m, declared) })
					return false // a key may be a field's name
				}
			}
			return checkIdent(t, fset, n, declared)
		})
	}
}

func checkIdent(t *testing.T, fset *token.FileSet, n ast.Node, declared map[string]string) bool {
	if id, ok := n.(*ast.Ident); ok {
		if in, ok := declared[id.Name]; ok {
			t.Errorf("%s names %s, which the report file %s declares", fset.Position(id.Pos()), id.Name, in)
		}
	}
	return true
}
