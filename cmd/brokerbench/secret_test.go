package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/pgmanaged"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/schema"
)

// secretPW is the password of the secret test's role. Its distinctive prefix is what
// the test searches for: it catches the raw and the URL-encoded form alike ('#'
// becomes %23 in a URL, '&' stays).
const (
	secretPW     = "Tr0ub4dorSecret&3#pw"
	secretMarker = "Tr0ub4dor"
)

// secretRole creates (or re-keys) a login role with a known password on the tests'
// own cluster and returns the URL of dsn's database as that role, over TCP to
// 127.0.0.1. The cluster checks passwords, so the DSN the commands see carries one
// that really opens the door, as in the field.
func secretRole(t *testing.T, dsn string) string {
	t.Helper()
	if testpg.Cluster(t) == nil {
		t.Skip("the secret test creates a superuser role: only on the tests' own managed cluster")
	}
	u := loginRole(t, dsn, "bbsecret", secretPW)
	if !strings.HasPrefix(u.Host, "127.0.0.1:") {
		t.Fatalf("test DSN host %q: want TCP to 127.0.0.1", u.Host)
	}
	return u.String()
}

// loginRole creates (or re-keys) a superuser login role with password pw on the
// tests' own cluster and returns dsn as that role.
func loginRole(t *testing.T, dsn, role, pw string) *url.URL {
	t.Helper()
	admin := testpg.OpenDB(t, testpg.AdminDSN(t), database.Options{MaxConns: 1})
	ctx := context.Background()
	if _, err := admin.Exec(ctx, `DO $$ BEGIN
		IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '`+role+`') THEN CREATE ROLE `+role+` LOGIN SUPERUSER; END IF; END $$`); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(ctx, "ALTER ROLE "+role+" PASSWORD '"+strings.ReplaceAll(pw, "'", "''")+"'"); err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(role, pw)
	return u
}

// TestSecretNeverShown runs run (with the Prometheus endpoint), report (with HTML and
// CSV files), compare and check with a password in the DSN, and a set of failing
// connections (load among them), and searches every output for the password:
// standard output and error, the live line and logs, the result file, the report
// files, the /metrics page and every error message.
//
// The database is a clone of the loaded template: a load with a password in the DSN
// (by size, with its plan and progress on standard error) is
// TestSecretManagedNeverShown's, whose managed cluster hands the load a URL with its
// password; loads are what makes the package's tests slow.
func TestSecretNeverShown(t *testing.T) {
	t.Parallel()
	dsn := secretRole(t, testdb.Loaded(t))
	dir := t.TempDir()
	var searched int
	clean := func(what, text string) {
		t.Helper()
		searched++
		if strings.Contains(text, secretMarker) {
			t.Errorf("%s shows the DSN's password:\n%s", what, text)
		}
	}
	cli := func(want int, args ...string) (string, string) {
		t.Helper()
		code, out, errb := runMain(args...)
		clean(strings.Join(args[:1], " ")+" stdout", out)
		clean(args[0]+" stderr", errb)
		if want >= 0 && code != want {
			t.Fatalf("%s: exit %d, want %d\n%s\n%s", args[0], code, want, out, errb)
		}
		return out, errb
	}

	// The load's refusal of a size below the smallest load happens before any
	// connection; it is checked here with this DSN's password too.
	_, errb := cli(exitUsage, "load", "--db", dsn, "--size", "1MB")
	oneErrorLine(t, errb, "--size 1MB", "smallest load", "1000 customers")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	result := filepath.Join(dir, "secret.json")
	ran := make(chan struct{})
	var runOut, runErr string
	go func() {
		defer close(ran)
		// Paced (as TestRunFlow's runs): the search is for the password, not throughput.
		runOut, runErr = cli(-1, "run", "--db", dsn, "--users", "2", "--step", "3s", "--warmup", "1s", "--rate", "30",
			"--metrics-addr", addr, "--label", "secret", "--out", result)
	}()
	var metrics string
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if metrics = string(b); strings.Contains(metrics, "brokerbench_transactions_total") {
			break
		}
	}
	<-ran
	if !strings.Contains(runOut, "check: OK") {
		t.Fatalf("run did not complete:\n%s\n%s", runOut, runErr)
	}
	if !strings.Contains(metrics, "brokerbench_transactions_total") {
		t.Errorf("no transactions on /metrics:\n%s", metrics)
	}
	if !strings.Contains(runErr, "step 1/1") {
		t.Errorf("no live line on stderr:\n%s", runErr)
	}
	clean("/metrics", metrics)

	html, csv := filepath.Join(dir, "secret.html"), filepath.Join(dir, "secret.csv")
	cli(0, "report", "--html", html, "--csv", csv, result)
	cli(0, "report", "--json", result)
	cli(0, "compare", "--html", filepath.Join(dir, "cmp.html"), result, result)
	cli(0, "check", "--db", dsn)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		clean(e.Name(), string(b))
	}

	// Failing connections: every error names the target, never the password.
	u, _ := url.Parse(dsn)
	wrongPort := *u
	wrongPort.Host = "127.0.0.1:1"
	noDB := *u
	noDB.Path = "/no_such_database"
	noRole := *u
	noRole.User = url.UserPassword("no_such_role", secretPW)
	badCA := *u
	badCA.RawQuery = "sslmode=verify-full&sslrootcert=" + url.QueryEscape(filepath.Join(dir, "missing-ca.pem"))
	for _, tc := range []struct {
		dsn  string
		args []string
		say  string
		code int // 0: exitRuntime
	}{
		{wrongPort.String(), []string{"check"}, "127.0.0.1:1", 0},
		{wrongPort.String(), []string{"run", "--users", "1", "--step", "2s", "--warmup", "1s", "--out", filepath.Join(dir, "never.json")}, "127.0.0.1:1", 0},
		{noDB.String(), []string{"load", "--customers", "1000", "--trade-days", "5"}, "no_such_database", 0},
		{noRole.String(), []string{"check"}, "no_such_role", 0},
		{badCA.String(), []string{"check"}, "missing-ca.pem", 0},
		{strings.Replace(dsn, "@127.0.0.1", "@[::1", 1), []string{"check"}, "dsn", exitUsage}, // a malformed URL
		{"host=127.0.0.1 port=1 user=bbsecret password='" + secretPW + "'", []string{"check"}, "127.0.0.1", 0},
	} {
		code := exitRuntime
		if tc.code != 0 {
			code = tc.code
		}
		_, errb := cli(code, append([]string{tc.args[0], "--db", tc.dsn}, tc.args[1:]...)...)
		oneErrorLine(t, errb, "brokerbench: ")
		t.Logf("%s: %s", tc.args[0], strings.TrimSpace(errb))
		if !strings.Contains(strings.ToLower(errb), strings.ToLower(tc.say)) {
			t.Errorf("%s with a bad DSN: %q does not mention %q", tc.args[0], errb, tc.say)
		}
	}
	t.Logf("searched %d outputs", searched)
}

// loadShardsBySize loads an empty database in two shards, one after the other,
// through cli; target is the load's flags that name the database (--db or --pgdata)
// and dsn its URL. It checks load --size: a size below the smallest load is one line
// naming it, and half a day's growth above the smallest load still plans 5 days,
// prints the plan first and loads what it planned. And it checks sharded loads from
// the command line: the first shard leaves the post-load to the last; in between, a
// plain load is refused naming --resume and --drop and how much is in, a resume with
// another scale and a shard with another seed are refused naming the marker's; the
// last shard completes the load and check passes. One load carries both, as loads
// are what makes the package's tests slow.
func loadShardsBySize(t *testing.T, target []string, dsn string, cli func(want int, args ...string) (string, string)) {
	t.Helper()
	load := func(args ...string) []string { return append(append([]string{"load"}, target...), args...) }
	m := loader.SizeModelFor("postgres")
	smallest := loader.PlanFor(schema.Scale{Customers: 1000, TradeDays: 5}, m)
	_, errb := cli(exitUsage, load("--size", "1MB")...)
	oneErrorLine(t, errb, "--size 1MB", "smallest load", "1000 customers")

	size := fmt.Sprintf("%dMB", (smallest.Bytes+m.PerLUDayBytes/2)/1e6)
	out, errb := cli(0, load("--shard", "0/2", "--size", size)...)
	first := strings.SplitN(errb, "\n", 2)[0]
	for _, w := range []string{"plan: 1000 customers, 5 trade days", "on disk with indexes", "at the measured load rate"} {
		if !strings.Contains(first, w) {
			t.Errorf("the first line is not the plan (lacks %q): %s", w, first)
		}
	}
	if !strings.Contains(out, "still to come from the other shards") {
		t.Errorf("shard 0/2 does not say the last shard finishes: %s", out)
	}

	_, errb = cli(exitRuntime, load("--quiet")...)
	oneErrorLine(t, errb, "did not finish (", "segments committed", `run "brokerbench load --resume" to continue it or "brokerbench load --drop" to start over`)
	_, errb = cli(exitRuntime, load("--resume", "--customers", "2000", "--quiet")...)
	oneErrorLine(t, errb, "is 1000 customers, 5 trade days, seed 20050103", "asks for 2000 customers")
	_, errb = cli(exitRuntime, load("--shard", "1/2", "--customers", "1000", "--trade-days", "5", "--quiet", "--seed", "9")...)
	oneErrorLine(t, errb, "seed 20050103", "seed 9")

	out, _ = cli(0, load("--shard", "1/2", "--customers", "1000", "--trade-days", "5", "--quiet")...)
	for _, w := range []string{"daily_market", "phase indexes and keys", "loaded in"} {
		if !strings.Contains(out, w) {
			t.Errorf("the last shard's summary lacks %q:\n%s", w, out)
		}
	}
	db := testpg.OpenDB(t, dsn, database.Options{MaxConns: 2})
	if mk, err := loader.ReadMarker(context.Background(), db); err != nil || mk.Scale != smallest.Scale {
		t.Errorf("loaded %+v (%v), planned %+v", mk.Scale, err, smallest.Scale)
	}
	if out, _ := cli(0, append([]string{"check"}, target...)...); !strings.HasPrefix(out, "OK: ") {
		t.Errorf("check after the sharded load: %s", out)
	}
}

// TestSecretManagedNeverShown: a managed cluster kept in --pgdata requires the
// password brokerbench keeps in its password file, and every command finds it there -
// pg start and status, load, check, run, quickstart, the URL pg start prints, and
// commands that start the cluster themselves (the storage-bound run under a memory
// cap among them) or a temporary one - while the password shows in no output, log
// line or result file. Its load is by size and in two shards, and carries load
// --size's and the sharded load's checks (loadShardsBySize).
func TestSecretManagedNeverShown(t *testing.T) {
	t.Parallel()
	if _, err := pgmanaged.FindBinaries(); err != nil {
		t.Skip("no PostgreSQL server binaries: ", err)
	}
	// The server's OS user (postgres, when the tests run as root) must reach --pgdata.
	top, err := os.MkdirTemp("", "brokerbench-secret-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(top) })
	if err := os.Chmod(top, 0o755); err != nil {
		t.Fatal(err)
	}
	pgdata, dir := filepath.Join(top, "pgdata"), t.TempDir()
	t.Cleanup(func() { runMain("pg", "stop", "--pgdata", pgdata) })

	var outputs []string
	cli := func(want int, args ...string) (string, string) {
		t.Helper()
		code, out, errb := runMain(args...)
		outputs = append(outputs, strings.Join(args, " ")+" stdout:\n"+out, strings.Join(args, " ")+" stderr:\n"+errb)
		if want >= 0 && code != want {
			t.Fatalf("%s: exit %d, want %d\n%s\n%s", strings.Join(args, " "), code, want, out, errb)
		}
		return out, errb
	}

	printed, errb := cli(0, "pg", "start", "--pgdata", pgdata)
	shown := strings.TrimSpace(printed)
	c, err := pgmanaged.Attach(pgdata)
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(c.URL(""))
	if err != nil {
		t.Fatal(err)
	}
	password, ok := u.User.Password()
	if !ok || len(password) < 16 {
		t.Fatalf("the managed cluster's URL carries no real password")
	}
	if !strings.HasPrefix(shown, "postgres://postgres@127.0.0.1:") || !strings.Contains(shown, "passfile="+c.PassFile()) {
		t.Errorf("pg start prints %q: want a URL naming the password file", shown)
	}
	if !strings.Contains(errb, "connect with psql: PGPASSFILE="+c.PassFile()+" psql -h 127.0.0.1") {
		t.Errorf("pg start does not say how to connect with psql:\n%s", errb)
	}
	if out, _ := cli(0, "pg", "status", "--pgdata", pgdata); !strings.Contains(out, "running: "+shown) {
		t.Errorf("pg status: %q, want the URL pg start printed", out)
	}
	if out, _ := cli(0, "pg", "start", "--pgdata", pgdata); !strings.Contains(out, "already running: "+shown) {
		t.Errorf("pg start on a running cluster: %q", out)
	}

	// The load is by size and in two shards: this one load also carries load
	// --size's checks and the sharded load's from the command line, and its check.
	loadShardsBySize(t, []string{"--pgdata", pgdata}, c.URL("brokerbench"), cli)
	cli(0, "check", "--db", shown)
	run := filepath.Join(dir, "managed.json")
	if out, _ := cli(0, "run", "--pgdata", pgdata, "--users", "2", "--step", "3s", "--warmup", "1s", "--rate", "30", "--out", run); !strings.Contains(out, "check: OK") {
		t.Errorf("run did not complete:\n%s", out)
	}
	// One user, one short step: quickstart has no --rate, and only its finding the
	// password is under test here.
	cli(0, "quickstart", "--pgdata", pgdata, "--users", "1", "--step", "2s", "--warmup", "1s", "--out", filepath.Join(dir, "qs.json"))
	cli(0, "pg", "stop", "--pgdata", pgdata)
	// Stopped: the command starts the cluster itself, with the same password, and
	// stops it again.
	cli(0, "check", "--pgdata", pgdata)
	if _, err := pgmanaged.Attach(pgdata); err == nil {
		t.Error("check left the cluster it started running")
	}
	// The stopped, loaded cluster serves the storage-bound run: its output joins the
	// search too.
	t.Run("storage-bound run", func(t *testing.T) { outputs = append(outputs, storageBoundRun(t, pgdata)...) })
	// No --pgdata: a temporary cluster, with a password of its own. Its database is
	// empty, so check fails, but after connecting.
	_, errb = cli(exitRuntime, "check")
	if low := strings.ToLower(errb); strings.Contains(low, "password") || strings.Contains(low, "connect") {
		t.Errorf("check on a temporary managed cluster did not get in: %s", errb)
	}

	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		outputs = append(outputs, e.Name()+":\n"+string(b))
	}
	for _, name := range []string{"brokerbench-managed.json", "brokerbench.conf", "postgresql.auto.conf", "server.log"} {
		if b, err := os.ReadFile(filepath.Join(pgdata, name)); err == nil {
			outputs = append(outputs, name+":\n"+string(b))
		}
	}
	for _, o := range outputs {
		if strings.Contains(o, password) {
			t.Errorf("the managed cluster's password shows in %s", o)
		}
	}
	t.Logf("searched %d outputs and files", len(outputs))
}
