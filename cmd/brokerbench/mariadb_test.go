package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testdb"
	"github.com/brokerbench/brokerbench/internal/testmdb"
	"github.com/brokerbench/brokerbench/results"
)

// TestQuickstartOnManagedMariaDB is the "done when": one command starts a
// managed MariaDB, loads the quickstart scale, runs a ramp with the market emulator
// and prints the report; the result file says MariaDB, and the server is gone
// afterwards.
func TestQuickstartOnManagedMariaDB(t *testing.T) {
	testmdb.Require(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "mdb.json")
	code, stdout, stderr := runMain("quickstart", "--engine", "mariadb", "--users", "2,4", "--step", "4s", "--warmup", "1s",
		"--server-memory", "0", "--out", out)
	if code != 0 {
		t.Fatalf("quickstart --engine mariadb: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"a temporary managed MariaDB", "managed MariaDB started", "2/4 loading", "4/4"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("progress lacks %q:\n%s", want, stderr)
		}
	}
	if !strings.Contains(stdout, " step  users") {
		t.Errorf("no step table:\n%s", stdout)
	}
	r, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Database.Product != "MariaDB" || !r.Database.Managed || len(r.Steps) != 2 {
		t.Fatalf("result: %+v, %d steps", r.Database, len(r.Steps))
	}
	var total, errs int64
	for _, st := range r.Steps {
		for _, x := range st.Transactions {
			total += x.Count
			errs += x.Errors
		}
	}
	// Trade-Result comes from the market emulator: its trades were ordered and
	// completed on MariaDB.
	if total == 0 || errs != 0 || r.Steps[1].Transactions["Trade-Result"].Count == 0 {
		t.Errorf("transactions %d, errors %d, Trade-Results %d", total, errs, r.Steps[1].Transactions["Trade-Result"].Count)
	}
	if strings.Contains(stderr, "stop managed MariaDB") {
		t.Errorf("the managed server did not stop cleanly:\n%s", stderr)
	}
}

// TestFindMaxAndShardsOnMariaDB runs the PostgreSQL tests of find-max
// (TestFindMaxRealSearch) and of three sharded drivers against one database
// (TestShardedRun) on a MariaDB loaded once by the load command.
func TestFindMaxAndShardsOnMariaDB(t *testing.T) {
	t.Parallel()
	dsn := testmdb.DSN(t)
	if code, out, errOut := runMain("load", "--db", dsn, "--customers", fmt.Sprint(testdb.Scale.Customers),
		"--trade-days", fmt.Sprint(testdb.Scale.TradeDays)); code != 0 {
		t.Fatalf("load: exit %d\n%s\n%s", code, out, errOut)
	}
	t.Run("find-max", func(t *testing.T) { findMaxReal(t, dsn) })
	t.Run("three shards", func(t *testing.T) { shardedRun(t, dsn) })
}
