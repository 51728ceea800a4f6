package archtest

// The engines the rules are derived from (engineNames, clientModules): the ones cmd links
// in, linked here too, as a test cannot import package main. TestEnginesLinked fails
// when cmd links in one that is missing here.
import (
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	_ "github.com/brokerbench/brokerbench/database/mysql"
	_ "github.com/brokerbench/brokerbench/database/postgres"
	_ "github.com/brokerbench/brokerbench/database/sqlserver"
)

// enginePackage is the package of ours that registered e, found from its Open function
// ("database/postgres").
func enginePackage(e *database.Engine) string {
	fn := runtime.FuncForPC(reflect.ValueOf(e.Open).Pointer()).Name()
	slash := strings.LastIndex(fn, "/")
	pkg, _, _ := strings.Cut(fn[slash+1:], ".")
	return strings.TrimPrefix(fn[:slash+1]+pkg, module)
}

// TestEnginesLinked: every database package cmd/brokerbench links in for its engine (a
// blank import, databases.go) is linked into this test, so the rules cover it.
func TestEnginesLinked(t *testing.T) {
	linked := map[string]bool{}
	for _, e := range database.Engines() {
		linked[enginePackage(e)] = true
	}
	files, err := filepath.Glob(filepath.Join(root, "cmd", "brokerbench", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	wired := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			pkg, ours := strings.CutPrefix(p, module)
			if im.Name == nil || im.Name.Name != "_" || !ours || !strings.HasPrefix(pkg, "database/") {
				continue
			}
			wired++
			if !linked[pkg] {
				t.Errorf("cmd/brokerbench/%s links in the engine %s, which the architecture tests do not: add its import to internal/testkit/archtest/engines_test.go", filepath.Base(path), pkg)
			}
		}
	}
	if wired < 2 {
		t.Fatalf("found %d engine imports in cmd/brokerbench: the blank imports of databases.go are not where this test looks", wired)
	}
}
