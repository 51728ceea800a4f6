package main

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testmdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
)

// TestMain stops the PostgreSQL and MariaDB servers testpg and testmdb may start for
// the package's tests, which run more at once than go test's default (widenParallel).
func TestMain(m *testing.M) {
	widenParallel()
	code := testpg.Main(m)
	testmdb.Stop()
	os.Exit(code)
}

func TestCheckCommand(t *testing.T) {
	t.Parallel()
	dsn := testdb.Loaded(t)
	code, out, errOut := runMain("check", "--db", dsn)
	if code != 0 || !strings.HasPrefix(out, "OK: ") || !strings.Contains(out, "1000 customers, 5 trade days") {
		t.Fatalf("check on a fresh load: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	db := testpg.OpenDB(t, dsn, database.Options{MaxConns: 1})
	// Break two invariants: a holding lot off its summary, and a completed trade
	// without its settlement.
	for _, s := range []string{
		"UPDATE holding SET h_qty = h_qty + 1 WHERE h_t_id = (SELECT MIN(h_t_id) FROM holding)",
		"DELETE FROM settlement WHERE se_t_id = (SELECT MIN(se_t_id) FROM settlement)",
	} {
		if _, err := db.Exec(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut = runMain("check", "--db", dsn)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 2 || !strings.HasPrefix(lines[0], "holding summary: ") ||
		!strings.HasPrefix(lines[1], "completed trade: ") || !strings.Contains(errOut, "2 consistency violations") {
		t.Fatalf("check on a broken database: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	if strings.Contains(out+errOut, "password") {
		t.Fatal("output mentions a password")
	}
}

func TestCheckWithoutLoad(t *testing.T) {
	t.Parallel()
	dsn := testpg.NewDB(t)
	code, _, errOut := runMain("check", "--db", dsn)
	if code != 1 || !strings.Contains(errOut, "brokerbench load") {
		t.Fatalf("check on an empty database: exit %d, stderr %s", code, errOut)
	}
}
