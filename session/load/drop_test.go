package load

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/session"
)

// TestDropWithoutTheCommandLine is `schema drop` through the Go API: a loaded
// database loses every table of the load and says so; an empty one, which holds no
// load marker, is refused untouched.
func TestDropWithoutTheCommandLine(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := testdb.Loaded(t)
	var stdout bytes.Buffer
	g := &session.Globals{DB: dsn, Console: session.Console{Stdout: &stdout, Stderr: &bytes.Buffer{}}}
	if err := Drop(ctx, g); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout.String(), "dropped the brokerbench schema in ") {
		t.Errorf("schema drop said %q", stdout.String())
	}
	if tables, err := loader.ExistingTables(ctx, testpg.OpenDB(t, dsn, database.Options{MaxConns: 1})); err != nil || len(tables) != 0 {
		t.Errorf("after the drop: tables %v (%v)", tables, err)
	}
	empty := testpg.NewDB(t)
	err := Drop(ctx, &session.Globals{DB: empty, Console: session.Console{Stdout: &stdout, Stderr: &bytes.Buffer{}}})
	if !errors.Is(err, loader.ErrNotLoaded) {
		t.Errorf("schema drop on an empty database: %v, want loader.ErrNotLoaded", err)
	}
}
