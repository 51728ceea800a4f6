// Package golden compares what a test renders with a file under testdata, the
// contract a reviewer reads in a diff (rendered SQL, for instance). `go test -update`
// rewrites the files instead; review their diff before committing.
//
// A package's tests that use it must not define an -update flag of their own.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// Check compares got with the file at path (under testdata), or writes it there when
// the tests run with -update. what names the content in the failure message.
func Check(t testing.TB, path, what, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s; if the change is intended, rerun with -update and review the diff", what, path)
	}
}
