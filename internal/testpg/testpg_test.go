package testpg

import (
	"context"
	"os"
	"testing"

	"github.com/brokerbench/brokerbench/database"
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
		db, err := database.Open(context.Background(), dsn, database.Options{})
		if err != nil {
			t.Fatal(err)
		}
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
