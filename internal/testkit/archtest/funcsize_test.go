package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"
)

// Function size is part of the architecture: a long orchestration becomes a session
// with a method per phase, a helper of many parameters takes a struct.
const (
	maxFuncLines  = 79 // a function's lines, from func to its closing brace
	maxFuncParams = 6
)

// funcSize is one function or function literal of the module's non-test code.
type funcSize struct {
	where  string // "txn.(*executor).toFrame3", "loader.Load", "cmd/brokerbench.newPGCommand.func1"
	lines  int
	params int
	data   bool // mostly composite literals: a table, exempt from the line limit
}

// measureFuncs measures every function of the module's non-test code (examples/ is a
// module of its own). A function literal is measured on its own, and its lines count
// in the enclosing function too.
func measureFuncs(t *testing.T) []funcSize {
	t.Helper()
	var out []funcSize
	walkSources(t, []string{"examples"}, func(path, rel string) error {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(rel))
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			name := pkg + "." + fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				name = pkg + ".(" + recvType(fd.Recv.List[0].Type) + ")." + fd.Name.Name
			}
			out = append(out, measureFunc(fset, name, fd, fd.Type, fd.Body))
			n := 0
			ast.Inspect(fd.Body, func(x ast.Node) bool {
				if fl, ok := x.(*ast.FuncLit); ok {
					n++
					out = append(out, measureFunc(fset, fmt.Sprintf("%s.func%d", name, n), fl, fl.Type, fl.Body))
				}
				return true
			})
		}
		return nil
	})
	return out
}

func recvType(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return "*" + recvType(x.X)
	case *ast.IndexExpr:
		return recvType(x.X)
	case *ast.Ident:
		return x.Name
	}
	return "?"
}

// measureFunc counts a function's lines and parameters, and whether three quarters of
// its body's lines are inside composite literals (not counting the bodies of function
// literals within them).
func measureFunc(fset *token.FileSet, name string, n ast.Node, typ *ast.FuncType, body *ast.BlockStmt) funcSize {
	m := funcSize{where: name, lines: fset.Position(n.End()).Line - fset.Position(n.Pos()).Line + 1}
	for _, p := range typ.Params.List {
		m.params += max(1, len(p.Names))
	}
	data := map[int]bool{}
	var inLit func(x ast.Node) bool
	inLit = func(x ast.Node) bool {
		switch v := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CompositeLit:
			for l := fset.Position(v.Pos()).Line; l <= fset.Position(v.End()).Line; l++ {
				data[l] = true
			}
			// A function literal inside is code: its lines are not data.
			ast.Inspect(v, func(y ast.Node) bool {
				if fl, ok := y.(*ast.FuncLit); ok {
					for l := fset.Position(fl.Body.Lbrace).Line + 1; l < fset.Position(fl.Body.Rbrace).Line; l++ {
						delete(data, l)
					}
					return false
				}
				return true
			})
			return false
		}
		return true
	}
	ast.Inspect(body, inLit)
	bodyLines := max(1, fset.Position(body.Rbrace).Line-fset.Position(body.Lbrace).Line-1)
	m.data = len(data)*4 >= bodyLines*3
	return m
}

// TestFunctionSize: no function of the module's code but a data table is longer than
// maxFuncLines, and none takes more than maxFuncParams parameters.
func TestFunctionSize(t *testing.T) {
	funcs := measureFuncs(t)
	if len(funcs) < 1000 {
		t.Fatalf("measured only %d functions", len(funcs))
	}
	longest := funcSize{}
	for _, f := range funcs {
		if !f.data && f.lines > maxFuncLines {
			t.Errorf("%s is %d lines (at most %d): split it, a session with a method per phase or helpers named by what they do", f.where, f.lines, maxFuncLines)
		}
		if f.params > maxFuncParams {
			t.Errorf("%s takes %d parameters (at most %d): give it a struct", f.where, f.params, maxFuncParams)
		}
		if !f.data && f.lines > longest.lines {
			longest = f
		}
	}
	t.Logf("longest non-data function: %s, %d lines", longest.where, longest.lines)
}
