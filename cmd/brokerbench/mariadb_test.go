package main

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/mdbmanaged"
	"github.com/brokerbench/brokerbench/internal/memcap"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testmdb"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session/run"
)

// TestQuickstartOnManagedMariaDB is the "done when": one command starts a
// managed MariaDB, loads the quickstart scale, runs a ramp with the market emulator
// and prints the report; the result file says MariaDB, and the server is gone
// afterwards. The server is the command's own, so the test runs beside the others.
func TestQuickstartOnManagedMariaDB(t *testing.T) {
	t.Parallel()
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

// TestCappedQuickstartOnManagedMariaDB runs quickstart's load, a ramp up to 16 users
// and the check after it on a managed MariaDB capped at what those connections need
// (mdbmanaged.CapFor): with MariaDB's own memory defaults the cap's OOM killer ended
// the server during check. The server must finish every step and pass the check
// inside the cap, with the buffer pool the cap implies. The server and its memory
// cgroup are the command's own, so the test runs beside the others.
func TestCappedQuickstartOnManagedMariaDB(t *testing.T) {
	t.Parallel()
	testmdb.Require(t)
	if testing.Short() {
		t.Skip("a load and a 16-user ramp under a memory cap; skipped with -short")
	}
	if _, err := memcap.Find(); err != nil {
		t.Skipf("no memory cgroup can be made here, so no capped run: %v", err)
	}
	capBytes := mdbmanaged.CapFor(run.Connections(16))
	out := filepath.Join(t.TempDir(), "mdb.json")
	code, stdout, stderr := runMain("quickstart", "--engine", "mariadb", "--users", "4,16", "--step", "4s", "--warmup", "1s",
		"--server-memory", strconv.FormatInt(capBytes, 10), "--out", out)
	if code != 0 {
		t.Fatalf("capped quickstart --engine mariadb: exit %d (the OOM killer ends mariadbd when its memory outgrows the cap)\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "check: OK") {
		t.Errorf("no passing check after the run:\n%s", stdout)
	}
	if !strings.Contains(stderr, "/"+memcap.Prefix+"mariadb-") || strings.Contains(stderr, "warning: the server's memory cap") {
		t.Errorf("want the server in a brokerbench-mariadb- cgroup, with no warning that the cap is tight:\n%s", stderr)
	}
	r, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	pool := strconv.FormatInt(mdbmanaged.BufferPoolFor(capBytes), 10)
	if r.Database.MemoryCapBytes != capBytes || r.Database.Settings["innodb_buffer_pool_size"] != pool || len(r.Steps) != 2 {
		t.Errorf("result: cap %d (want %d), innodb_buffer_pool_size %s (want %s), %d steps",
			r.Database.MemoryCapBytes, capBytes, r.Database.Settings["innodb_buffer_pool_size"], pool, len(r.Steps))
	}
	for _, st := range r.Steps {
		for name, x := range st.Transactions {
			if x.Errors != 0 {
				t.Errorf("%d users: %s had %d errors", st.Users, name, x.Errors)
			}
		}
	}
}
