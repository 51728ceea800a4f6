package testpg

import (
	"context"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/postgres"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

func TestTemplateBuiltOnceAndCloned(t *testing.T) {
	builds := 0
	build := func(ctx context.Context, dsn string) error {
		builds++
		db, err := database.Open(ctx, dsn, database.Options{})
		if err != nil {
			return err
		}
		defer db.Close()
		_, err = db.Exec(ctx, "CREATE TABLE t AS SELECT generate_series(1, 10) AS x")
		return err
	}
	for i := 0; i < 2; i++ {
		dsn := FromTemplate(t, "unit", build)
		db := OpenDB(t, dsn, database.Options{})
		var n int
		if err := db.QueryRow(context.Background(), "SELECT count(*) FROM t").Scan(&n); err != nil || n != 10 {
			t.Fatalf("clone %d: n=%d err=%v", i, n, err)
		}
		// A write in one clone must not show in the next.
		if _, err := db.Exec(context.Background(), "DELETE FROM t"); err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
	if builds != 1 {
		t.Fatalf("template built %d times, want 1", builds)
	}
}

// TestHarnessRequiresPassword: the tests' own cluster is a managed cluster like any
// other, so the tests exercise the real path: the harness's URL carries the password,
// and without it the server refuses.
func TestHarnessRequiresPassword(t *testing.T) {
	c := Cluster(t)
	if c == nil {
		t.Skip("the tests use " + EnvDSN + ": a server they do not own")
	}
	if c.Unprotected() {
		t.Fatal("the harness's cluster has no password")
	}
	u, err := url.Parse(AdminDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := u.User.Password(); !ok {
		t.Fatalf("the harness's URL carries no password: %s", database.Redact(u.String()))
	}
	u.User = url.User(u.User.Username())
	db, err := database.Open(context.Background(), u.String(), database.Options{MaxConns: 1})
	if err == nil {
		db.Close()
		t.Fatal("the harness's cluster let a connection in without a password")
	}
	if code := postgres.SQLState(err); code != "28P01" && !strings.Contains(err.Error(), "password") {
		t.Fatalf("refused, but not for the password: %v", err)
	}
}
