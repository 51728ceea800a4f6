package results

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoTransactionRegistry keeps the workload's facts an argument: results holds no
// package-level state of transaction types, and no init() in the packages below cmd
// hands results its knowledge, so what report, compare and merge say depends on the
// files and the Workload passed in, not on which packages a binary links.
func TestNoTransactionRegistry(t *testing.T) {
	for _, dir := range []string{".", "../driver", "../txn", "../loader"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				text := string(src[d.Pos()-f.FileStart : d.End()-f.FileStart])
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv != nil {
						continue
					}
					if dir == "." && (d.Name.Name == "init" || strings.HasPrefix(d.Name.Name, "Register")) {
						t.Errorf("%s: func %s: results takes the workload's facts as a Workload argument, not by registration", path, d.Name.Name)
					}
					if dir != "." && d.Name.Name == "init" && strings.Contains(text, "results.") {
						t.Errorf("%s: an init() calls into results: hand it a Workload instead", path)
					}
				case *ast.GenDecl:
					if dir == "." && d.Tok == token.VAR && (strings.Contains(text, "Transaction") || strings.Contains(text, "Workload")) {
						t.Errorf("%s: package-level state of transaction types:\n%s", path, text)
					}
				}
			}
		}
	}
}
