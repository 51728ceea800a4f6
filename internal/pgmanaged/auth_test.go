package pgmanaged

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/brokerbench/brokerbench/internal/managed"
)

// psqlClient returns the psql beside the server binaries (or on PATH).
func psqlClient(t *testing.T, c *Cluster) string {
	t.Helper()
	if p := filepath.Join(c.BinDir, "psql"); hasFile(p) {
		return p
	}
	p, err := exec.LookPath("psql")
	if err != nil {
		t.Skip("no psql client beside the server binaries or on PATH: the connection checks need one")
	}
	return p
}

func hasFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// psqlAs runs psql -X -w (never prompt for a password) as osUser ("" for ourselves)
// with extra environment, and returns its output and error.
func psqlAs(psql, osUser string, env []string, args ...string) (string, error) {
	args = append([]string{"-X", "-w", "-At"}, args...)
	cmd := exec.Command(psql, args...)
	if osUser != "" {
		cmd = exec.Command("runuser", append([]string{"-u", osUser, "--", psql}, args...)...)
	}
	// Only the test's own libpq settings: none from the environment of whoever runs it.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "PGCONNECT_TIMEOUT=20")
	cmd.Env = append(cmd.Env, env...)
	cmd.Dir = "/"
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func wantMode(t *testing.T, what, path string, mode os.FileMode, uid int) {
	t.Helper()
	st, err := os.Lstat(path)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if got := st.Mode().Perm(); got != mode {
		t.Errorf("%s %s: mode %04o, want %04o", what, path, got, mode)
	}
	if got := int(st.Sys().(*syscall.Stat_t).Uid); got != uid {
		t.Errorf("%s %s: owned by uid %d, want %d", what, path, got, uid)
	}
}

// checkProtected checks a running cluster: file modes, no trust in pg_hba.conf, no
// way in without the password, and the ways in a person is shown.
func checkProtected(t *testing.T, c *Cluster) {
	t.Helper()
	if c.Unprotected() {
		t.Fatal("the cluster has no password")
	}
	wantMode(t, "password file", c.PassFile(), 0o600, os.Geteuid())
	wantMode(t, "socket directory", c.SocketDir(), 0o700, c.serverUID())
	if !hasSocket(filepath.Join(c.SocketDir(), ".s.PGSQL."+strconv.Itoa(c.Port))) {
		t.Errorf("no socket in %s", c.SocketDir())
	}
	if hbaTrusts(filepath.Join(c.DataDir, "pg_hba.conf")) {
		t.Error("pg_hba.conf has a trust line")
	}
	for _, shown := range []string{c.PassfileURL("postgres"), c.PsqlCommand("postgres")} {
		if strings.Contains(shown, c.password) {
			t.Errorf("shown to people, carries the password: %s", shown)
		}
	}
	psql := psqlClient(t, c)
	for what, args := range map[string][]string{
		"URL with the password":      {c.URL("postgres")},
		"URL naming the passfile":    {c.PassfileURL("postgres")},
		"PGPASSFILE over the socket": {"-h", c.SocketDir(), "-p", strconv.Itoa(c.Port), "-U", superuser, "postgres"},
	} {
		if out, err := psqlAs(psql, "", []string{"PGPASSFILE=" + c.PassFile()}, append(args, "-c", "select 41+1")...); err != nil || strings.TrimSpace(out) != "42" {
			t.Errorf("psql with the %s: %v %s", what, err, out)
		}
	}
	// The command a person is told to type, as they would type it.
	out, err := exec.Command("sh", "-c", c.PsqlCommand("postgres")+" -X -w -At -c 'select 41+1'").CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "42" {
		t.Errorf("%s: %v %s", c.PsqlCommand("postgres"), err, out)
	}
	for what, args := range map[string][]string{
		"TCP":        {c.url("postgres", false)},
		"the socket": {"-h", c.SocketDir(), "-p", strconv.Itoa(c.Port), "-U", superuser, "postgres"},
	} {
		if out, err := psqlAs(psql, "", nil, append(args, "-c", "select 1")...); err == nil || !strings.Contains(out, "password") {
			t.Errorf("psql over %s without a password: %v %s", what, err, out)
		}
	}
}

func hasSocket(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode()&os.ModeSocket != 0
}

// testOtherUsersLockedOut: an unprivileged local account (nobody) gets no connection
// to a managed cluster, over TCP or the socket, as postgres or as itself, nor by
// pointing PGPASSFILE at the password file. TestStartStop runs it on its cluster.
func testOtherUsersLockedOut(t *testing.T, c *Cluster) {
	if os.Geteuid() != 0 {
		t.Skip("running psql as the unprivileged user nobody needs root (runuser)")
	}
	checkProtected(t, c)
	psql := psqlClient(t, c)
	// The control: nobody can run psql at all, so each refusal below is the server's
	// or the socket directory's doing.
	if out, err := psqlAs(psql, "nobody", nil, "--version"); err != nil {
		t.Fatalf("psql as nobody does not run: %v %s", err, out)
	}
	port := strconv.Itoa(c.Port)
	for _, tc := range []struct {
		what, why string
		env       []string
		args      []string
	}{
		{"TCP as postgres", "password", nil, []string{"-h", "127.0.0.1", "-p", port, "-U", superuser, "postgres"}},
		{"TCP with no user name", "password", nil, []string{"-h", "127.0.0.1", "-p", port, "postgres"}},
		{"the socket as postgres", "Permission denied", nil, []string{"-h", c.SocketDir(), "-p", port, "-U", superuser, "postgres"}},
		{"the socket with no user name", "Permission denied", nil, []string{"-h", c.SocketDir(), "-p", port, "postgres"}},
		{"the URL pg start prints", "password", nil, []string{c.PassfileURL("postgres")}},
		{"PGPASSFILE at the password file", "password", []string{"PGPASSFILE=" + c.PassFile()}, []string{"-h", "127.0.0.1", "-p", port, "-U", superuser, "postgres"}},
	} {
		out, err := psqlAs(psql, "nobody", tc.env, append(tc.args, "-c", "select 'in'")...)
		t.Logf("nobody over %s: %v: %s", tc.what, err, strings.TrimSpace(out))
		if err == nil || strings.Contains(out, "in\n") {
			t.Errorf("nobody connected over %s", tc.what)
		} else if !strings.Contains(out, tc.why) {
			t.Errorf("nobody over %s: refused, but not for want of a %q: %s", tc.what, tc.why, out)
		}
	}
}

// reachableDir makes a folder the server's user can reach (t.TempDir's parent is
// closed to others), removed when the test ends.
func reachableDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "brokerbench-pgtest-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// startLikeEarlierVersions makes and starts a cluster in dataDir as brokerbench did
// before clusters had a password: initdb -A trust, no password file.
func startLikeEarlierVersions(t *testing.T, dataDir string) {
	t.Helper()
	c, err := newCluster(nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Dir, c.DataDir = dataDir, dataDir
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := c.chownForServer(dataDir); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.run(ctx, "initdb", "-D", dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		t.Fatal(err)
	}
	port, err := managed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	settings := map[string]string{"listen_addresses": "'127.0.0.1'", "port": strconv.Itoa(port),
		"unix_socket_directories": "'" + dataDir + "'", "shared_buffers": "'32MB'"}
	if err := c.writeConf(settings); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.run(context.Background(), "pg_ctl", "-D", dataDir, "-m", "immediate", "stop") })
	if err := c.run(ctx, "pg_ctl", "-D", dataDir, "-l", filepath.Join(dataDir, "server.log"), "-w", "start"); err != nil {
		t.Fatal(err)
	}
	c.Port = port
	if err := c.writeState(); err != nil {
		t.Fatal(err)
	}
}

type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, strings.TrimSpace(fmt.Sprintf(format, args...)))
}

func (l *logLines) take() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := strings.Join(l.lines, "\n")
	l.lines = nil
	return s
}

// TestTrustClusterConverted: a cluster an earlier brokerbench made and started with
// trust is attached as it is (it lets brokerbench in, and says it has no password),
// converted by the next Start with a clear line, and restarted quietly afterwards; a
// lost password file is replaced by a new password.
func TestTrustClusterConverted(t *testing.T) {
	t.Parallel()
	if _, err := FindBinaries(); err != nil {
		t.Skip("no PostgreSQL server binaries: ", err)
	}
	dataDir := filepath.Join(reachableDir(t), "pgdata")
	startLikeEarlierVersions(t, dataDir)

	old, err := Attach(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	if !old.Unprotected() {
		t.Fatal("a cluster with no password file is not reported unprotected")
	}
	psql := psqlClient(t, old)
	if out, err := psqlAs(psql, "", nil, old.URL("postgres"), "-c", "select 1"); err != nil {
		t.Fatalf("the old cluster does not let brokerbench in: %v %s", err, out)
	}

	var log logLines
	c, err := Start(context.Background(), Options{DataDir: dataDir, Log: log.logf})
	if err != nil {
		t.Fatal(err)
	}
	said := log.take()
	t.Logf("first start:\n%s", said)
	for _, want := range []string{"runs without a password (started by an earlier brokerbench): restarting it to convert it",
		"let local users in without a password (made by an earlier brokerbench): converted to password authentication; the new password is in " + c.PassFile()} {
		if !strings.Contains(said, want) {
			t.Errorf("the conversion does not say %q:\n%s", want, said)
		}
	}
	checkProtected(t, c)
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}

	again, err := Start(context.Background(), Options{DataDir: dataDir, Log: log.logf})
	if err != nil {
		t.Fatal(err)
	}
	if said := log.take(); strings.Contains(said, "password") {
		t.Errorf("a converted cluster's restart talks about passwords:\n%s", said)
	}
	if again.password != c.password {
		t.Error("a restart changed the password")
	}
	checkProtected(t, again)
	if err := again.Stop(); err != nil {
		t.Fatal(err)
	}

	if err := os.Remove(c.PassFile()); err != nil {
		t.Fatal(err)
	}
	renewed, err := Start(context.Background(), Options{DataDir: dataDir, Log: log.logf})
	if err != nil {
		t.Fatal(err)
	}
	defer renewed.Stop()
	if said := log.take(); !strings.Contains(said, "had no password file: set a new password, kept in "+c.PassFile()) {
		t.Errorf("a lost password file is replaced silently:\n%s", said)
	}
	if renewed.password == c.password {
		t.Error("the new password is the lost one")
	}
	checkProtected(t, renewed)
	if out, err := psqlAs(psql, "", nil, c.URL("postgres"), "-c", "select 1"); err == nil {
		t.Errorf("the lost password still works: %s", out)
	}
}

// TestPassFileRefused: the password file is read only when it is a plain file of the
// caller's that no one else can read.
func TestPassFileRefused(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	if err := os.WriteFile(good, []byte("127.0.0.1:5432:*:postgres:pw\\:1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if pw, err := readPassFile(good); err != nil || pw != "pw:1" {
		t.Fatalf("readPassFile = %q, %v", pw, err)
	}
	open := filepath.Join(dir, "open")
	if err := os.WriteFile(open, []byte("*:*:*:postgres:pw\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(good, link); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, []byte("*:*:*:someone:pw\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{open: "mode 0644", link: "plain file", other: "no password for postgres"} {
		if _, err := readPassFile(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("readPassFile(%s) = %v, want an error saying %q", filepath.Base(path), err, want)
		}
	}
	for _, s := range []string{"/tmp/a:b", `c:\d`, "plain"} {
		line := pgpassEscape(s) + ":1:*:postgres:" + pgpassEscape(s)
		if f := pgpassFields(line); len(f) != 5 || f[0] != s || f[4] != s {
			t.Errorf("pgpass round trip of %q: %q", s, f)
		}
	}
}
