package main

import (
	"context"
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
	"github.com/brokerbench/brokerbench/internal/testpg"
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
// 127.0.0.1. The cluster trusts local connections, so the password is never
// checked, but it travels in every DSN the commands see, which is what matters here.
func secretRole(t *testing.T, dsn string) string {
	t.Helper()
	if testpg.Cluster(t) == nil {
		t.Skip("the secret test creates a superuser role: only on the tests' own managed cluster")
	}
	admin, err := database.Open(context.Background(), testpg.AdminDSN(t), database.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	ctx := context.Background()
	if _, err := admin.Exec(ctx, `DO $$ BEGIN
		IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'bbsecret') THEN CREATE ROLE bbsecret LOGIN SUPERUSER; END IF; END $$`); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(ctx, "ALTER ROLE bbsecret PASSWORD '"+strings.ReplaceAll(secretPW, "'", "''")+"'"); err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword("bbsecret", secretPW)
	if !strings.HasPrefix(u.Host, "127.0.0.1:") {
		t.Fatalf("test DSN host %q: want TCP to 127.0.0.1", u.Host)
	}
	return u.String()
}

// TestSecretNeverShown runs load, run (with the Prometheus endpoint), report (with
// HTML and CSV files), compare and check with a password in the DSN, and a set of
// failing connections, and searches every output for the password: standard output
// and error, the live line and logs, the result file, the report files, the
// /metrics page and every error message.
func TestSecretNeverShown(t *testing.T) {
	t.Parallel()
	dsn := secretRole(t, testpg.NewDB(t))
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

	cli(0, "load", "--db", dsn, "--customers", "1000", "--trade-days", "5")

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
		runOut, runErr = cli(-1, "run", "--db", dsn, "--users", "2", "--step", "3s", "--warmup", "1s",
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
	}{
		{wrongPort.String(), []string{"check"}, "127.0.0.1:1"},
		{wrongPort.String(), []string{"run", "--users", "1", "--step", "2s", "--warmup", "1s", "--out", filepath.Join(dir, "never.json")}, "127.0.0.1:1"},
		{noDB.String(), []string{"load", "--customers", "1000", "--trade-days", "5"}, "no_such_database"},
		{noRole.String(), []string{"check"}, "no_such_role"},
		{badCA.String(), []string{"check"}, "missing-ca.pem"},
		{strings.Replace(dsn, "@127.0.0.1", "@[::1", 1), []string{"check"}, "dsn"},
		{"host=127.0.0.1 port=1 user=bbsecret password='" + secretPW + "'", []string{"check"}, "127.0.0.1"},
	} {
		_, errb := cli(exitRuntime, append([]string{tc.args[0], "--db", tc.dsn}, tc.args[1:]...)...)
		oneErrorLine(t, errb, "brokerbench: ")
		t.Logf("%s: %s", tc.args[0], strings.TrimSpace(errb))
		if !strings.Contains(strings.ToLower(errb), strings.ToLower(tc.say)) {
			t.Errorf("%s with a bad DSN: %q does not mention %q", tc.args[0], errb, tc.say)
		}
	}
	t.Logf("searched %d outputs", searched)
}
