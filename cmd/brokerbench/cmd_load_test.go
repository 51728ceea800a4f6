package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/txn"
)

// runCLI runs the command line as a user types it and returns exit code and output.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, &out, &errb)
	return code, out.String(), errb.String()
}

// oneErrorLine asserts stderr is exactly one line that contains every word.
func oneErrorLine(t *testing.T, stderr string, words ...string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) != 1 {
		t.Errorf("want one error line, got %d:\n%s", len(lines), stderr)
	}
	for _, w := range words {
		if !strings.Contains(stderr, w) {
			t.Errorf("error line lacks %q: %s", w, stderr)
		}
	}
}

// checkLoadEndToEnd checks a finished `load --customers 1000 --trade-days 5 --seed 7
// --quiet` of dsn, given its exit code and output: the summary on standard output and
// nothing on standard error, the marker, and that a second load without --drop
// refuses, naming --drop. TestFaultLoadCut's load that starts over after the cut is
// such a load: it carries these checks, so the package loads one database less.
func checkLoadEndToEnd(t *testing.T, dsn string, code int, out, errb string) {
	t.Helper()
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if errb != "" {
		t.Errorf("--quiet wrote to stderr: %s", errb)
	}
	for _, w := range []string{"trade ", "daily_market", "288000", "phase generate and copy", "phase indexes and keys", "phase analyze", "rows/s", "MB/s", "seed 7"} {
		if !strings.Contains(out, w) {
			t.Errorf("summary lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(strings.ToLower(out), "tpc-e result") {
		t.Error("the summary claims TPC-E results")
	}
	db := testpg.OpenDB(t, dsn, database.Options{MaxConns: 2})
	m, err := loader.ReadMarker(context.Background(), db)
	if err != nil || m.Seed != 7 || m.Scale.Customers != 1000 || m.Scale.TradeDays != 5 || m.Workers < 1 {
		t.Fatalf("marker %+v, %v", m, err)
	}
	// load installs the server routines with their version marker (run --frames server).
	if v, digest, err := txn.InstalledRoutines(context.Background(), db); err != nil || v != txn.RoutinesVersion || digest == "" {
		t.Errorf("server routines after load: version %d, digest %q, %v; want version %d", v, digest, err, txn.RoutinesVersion)
	}

	// A second load without --drop refuses, naming --drop, and changes nothing.
	code, _, errb = runCLI(t, "--db", dsn, "load", "--customers", "1000", "--trade-days", "5")
	if code != 1 {
		t.Errorf("load over a schema: exit %d", code)
	}
	oneErrorLine(t, errb, "--drop", "already present")
}

func TestLoadRefusesUnfinishedLoad(t *testing.T) {
	t.Parallel()
	dsn := testdb.Loaded(t)
	db := testpg.OpenDB(t, dsn, database.Options{MaxConns: 2})
	if _, err := db.Exec(context.Background(), "UPDATE bb_load SET completed_at = NULL"); err != nil {
		t.Fatal(err)
	}
	code, _, errb := runCLI(t, "--db", dsn, "load", "--customers", "1000", "--trade-days", "5")
	if code != 1 {
		t.Errorf("exit %d", code)
	}
	oneErrorLine(t, errb, "did not finish", "brokerbench load --drop")

	// schema drop removes everything; a later check of the marker says to load.
	if code, _, errb := runCLI(t, "--db", dsn, "schema", "drop"); code != 0 {
		t.Fatalf("schema drop: exit %d: %s", code, errb)
	}
	left, err := loader.ExistingTables(context.Background(), db)
	if err != nil || len(left) != 0 {
		t.Errorf("after schema drop: %v %v", left, err)
	}
}

// A missing database and an unreachable server are one line naming host and database,
// exit 1, and never show the password.
func TestLoadConnectionErrors(t *testing.T) {
	t.Parallel()
	const secret = "S3cretLoadPw"
	admin := testpg.AdminDSN(t)
	missing := strings.Replace(testpg.WithDatabase(admin, "no_such_db_for_load"), "postgres@", "postgres:"+secret+"@", 1)
	for _, tc := range []struct {
		dsn   string
		words []string
	}{
		{missing, []string{"no_such_db_for_load", "127.0.0.1"}},
		{"postgres://bench:" + secret + "@127.0.0.1:1/benchdb?connect_timeout=2", []string{"127.0.0.1:1", "benchdb"}},
	} {
		code, out, errb := runCLI(t, "--db", tc.dsn, "load", "--customers", "1000", "--trade-days", "5")
		if code != 1 {
			t.Errorf("%s: exit %d", database.Redact(tc.dsn), code)
		}
		oneErrorLine(t, errb, tc.words...)
		if strings.Contains(out+errb, secret) {
			t.Errorf("the password leaked: %s", errb)
		}
	}
}

func TestSchemaCommandPrintsDDL(t *testing.T) {
	code, out, errb := runCLI(t, "schema", "--database", "postgres")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, w := range []string{"CREATE TABLE trade (", "CONSTRAINT pk_trade PRIMARY KEY (t_id)", "CREATE INDEX i_t_ca_id_dts",
		"FOREIGN KEY (th_t_id) REFERENCES trade (t_id)", "CREATE TABLE bb_load", "CREATE TABLE bb_opening_balance", "CREATE SEQUENCE seq_trade_id"} {
		if !strings.Contains(out, w) {
			t.Errorf("DDL lacks %q", w)
		}
	}
	if strings.Index(out, "CREATE INDEX") < strings.LastIndex(out, "CREATE TABLE") ||
		strings.Index(out, "FOREIGN KEY") < strings.LastIndex(out, "CREATE INDEX") {
		t.Error("DDL is not tables, then indexes, then foreign keys")
	}
	code, sqlserver, _ := runCLI(t, "schema", "--database", "sqlserver")
	if code != 0 || sqlserver == out {
		t.Errorf("sqlserver DDL: exit %d, the same as PostgreSQL's: %v", code, sqlserver == out)
	}
	// --dialect, the old name, still works: the same script on stdout, a line on stderr.
	code, old, errb := runCLI(t, "schema", "--dialect", "sqlserver")
	if code != 0 || old != sqlserver || !strings.Contains(errb, "--dialect is an old name of --database") {
		t.Errorf("--dialect: exit %d, same script %v, stderr %q", code, old == sqlserver, errb)
	}
}

// --size and --trade-days bad forms: one line, exit 2, before any connection.
// load --size's plan and what it loads are checked by TestSecretManagedNeverShown
// (loadShardsBySize): its load of the managed cluster's empty database is by size.
func TestLoadSizeBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		say  []string
	}{
		{[]string{"load", "--size", "lots"}, []string{"--size", "50GB"}},
		{[]string{"load", "--size", "50PB"}, []string{"--size", "unit"}},
		{[]string{"load", "--size", "-5GB"}, []string{"--size"}},
		{[]string{"load", "--size", "0GB"}, []string{"--size"}},
		{[]string{"load", "--size", "50"}, []string{"--size", "unit", "50GB"}},
		{[]string{"load", "--size", "50GB", "--customers", "2000"}, []string{"--size", "--customers"}},
		{[]string{"load", "--size", "50GB", "--trade-days", "10"}, []string{"--size", "--trade-days"}},
		{[]string{"load", "--trade-days", "301"}, []string{"--trade-days", "5 to 300"}},
		{[]string{"load", "--trade-days", "4"}, []string{"--trade-days", "5 to 300"}},
	} {
		code, _, errb := runCLI(t, append([]string{"--db", "postgres://bench@127.0.0.1:1/bench?connect_timeout=1"}, tc.args...)...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2: %s", tc.args, code, errb)
		}
		oneErrorLine(t, errb, tc.say...)
	}
}

// load --help lists the units sizes are read in (session/load's
// TestSizeReadsEverySizeForm reads each).
func TestLoadSizeHelpListsTheUnits(t *testing.T) {
	code, out, _ := runCLI(t, "load", "--help")
	if code != 0 || !strings.Contains(strings.Join(strings.Fields(out), " "), bytesize.Units) {
		t.Errorf("load --help (exit %d) does not list the units sizes are read in, %q:\n%s", code, bytesize.Units, out)
	}
}

// load and run refuse a server older than the versions the README states, in one
// line, before they touch the database. The harness's server is as new as any, so the
// test raises the PostgreSQL engine's oldest version above it; it does not call
// t.Parallel, so no parallel test of the package runs while the engine is changed.
func TestLoadAndRunRefuseAnOldServer(t *testing.T) {
	dsn := testpg.NewDB(t)
	e, err := database.Lookup(database.Postgres)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := testpg.OpenDB(t, dsn, database.Options{MaxConns: 1}).Server(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	saved := e.MinVersion
	e.MinVersion = srv.Num + 1
	t.Cleanup(func() { e.MinVersion = saved })
	for _, args := range [][]string{
		{"--db", dsn, "load", "--customers", "1000", "--trade-days", "5"},
		{"--db", dsn, "run", "--users", "1", "--step", "10s", "--warmup", "2s", "--out", filepath.Join(t.TempDir(), "r.json")},
	} {
		code, _, errb := runCLI(t, args...)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1", args[2], code)
		}
		oneErrorLine(t, errb, "PostgreSQL "+srv.Version+" is older than the versions brokerbench supports (PostgreSQL "+e.Versions+")")
	}
	if tables, err := loader.ExistingTables(context.Background(), testpg.OpenDB(t, dsn, database.Options{MaxConns: 1})); err != nil || len(tables) != 0 {
		t.Errorf("a refused load created %v (%v)", tables, err)
	}
}
