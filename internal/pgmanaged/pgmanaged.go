// Package pgmanaged runs a throwaway (or kept) local PostgreSQL cluster: the managed
// default every command uses when no --db is given, and the test harness's server.
// It finds the server binaries, runs initdb, starts the server on a free port with
// its own unix socket, and stops it. As root it runs the server as the postgres OS
// user, because initdb and postgres refuse to run as root. Every cluster requires a
// password, kept in a file only the invoking user can read (auth.go).
package pgmanaged

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/brokerbench/brokerbench/internal/managed"
	"github.com/brokerbench/brokerbench/internal/memcap"
)

// ErrNoBinaries is returned when no PostgreSQL server binaries can be found.
var ErrNoBinaries = errors.New("no PostgreSQL server binaries found (looked in PATH and /usr/lib/postgresql/*/bin); " +
	"install them, e.g. `apt-get install postgresql` on Debian/Ubuntu, `dnf install postgresql-server` on Fedora, " +
	"`brew install postgresql` on macOS, or pass --db URL to use an existing server")

// Options configure a cluster.
type Options struct {
	// DataDir keeps the cluster there (created by initdb when empty); "" makes a
	// temporary cluster that Stop removes.
	DataDir string
	// Settings are appended to postgresql.conf (name -> value, already quoted when a
	// string needs quotes).
	Settings map[string]string
	// Log receives one line per step ("initdb", "started ..."); nil for none.
	Log func(format string, args ...any)
	// MemoryCap runs the server in a memory cgroup of this many bytes, page cache
	// included (memory.go); 0 for none.
	MemoryCap int64
	// KeepMemoryCap, with MemoryCap 0, starts a kept cluster with the cap it last
	// started with (the caller was given no cap at all, rather than "no cap").
	KeepMemoryCap bool
}

// Cluster is a running (or stopped) managed cluster.
type Cluster struct {
	BinDir    string
	Dir       string // holds the socket, the server log and the state file
	DataDir   string
	Port      int
	temporary bool
	runAs     *user.User // nil: run as ourselves
	// password is the superuser's; "" only for a cluster an earlier brokerbench
	// started with trust authentication, until its next Start converts it.
	password string
	log      func(string, ...any)

	// MemoryCap is the server's memory cap in bytes, 0 for none (memory.go).
	MemoryCap int64
	settings  map[string]string
	cgroup    *memcap.Group // the server's memory cgroup when capped
	// startIn is the memory group the server programs run now start in (pg_ctl
	// start or restart, whose postmaster inherits it), nil outside a capped start.
	startIn *memcap.Group
}

// state is what `pg status` reads back in a later process.
//
// It outlives a stop: the next start takes the same port (portToTry), so a run or a
// psql session that held the URL reaches the restarted server.
type state struct {
	Port   int    `json:"port"`
	BinDir string `json:"bin_dir"`
	// DataDir is the folder the port was used for: a copy of the folder (the test
	// harness copies a stopped cluster) must not inherit its port.
	DataDir string `json:"data_dir,omitempty"`
	// MemoryCap and Cgroup let a later process (pg stop, run --pgdata) see the cap
	// and remove the group.
	MemoryCap int64  `json:"memory_cap,omitempty"`
	Cgroup    string `json:"cgroup,omitempty"`
}

const stateFile = "brokerbench-managed.json"

// DefaultSettings suit a benchmark on a small machine: enough connections for 300
// users plus the emulator, and memory that is realistic but not a laptop's all.
func DefaultSettings() map[string]string {
	return map[string]string{
		"max_connections":           "500",
		"shared_buffers":            "'512MB'",
		"max_wal_size":              "'4GB'",
		"checkpoint_timeout":        "'15min'",
		"maintenance_work_mem":      "'512MB'",
		"synchronous_commit":        "on",
		"log_min_messages":          "warning",
		"logging_collector":         "off",
		"track_io_timing":           "on",
		"max_locks_per_transaction": "256",
	}
}

// FindBinaries returns the directory holding initdb, pg_ctl and postgres: first PATH,
// then the usual install folders, newest version first.
func FindBinaries() (string, error) {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		dir := filepath.Dir(resolve(p))
		if hasServer(dir) {
			return dir, nil
		}
	}
	var cands []string
	for _, pat := range []string{"/usr/lib/postgresql/*/bin", "/usr/pgsql-*/bin", "/usr/local/pgsql/bin",
		"/opt/homebrew/opt/postgresql*/bin", "/usr/local/opt/postgresql*/bin"} {
		m, _ := filepath.Glob(pat)
		cands = append(cands, m...)
	}
	sort.Slice(cands, func(i, j int) bool { return versionOf(cands[i]) > versionOf(cands[j]) })
	for _, d := range cands {
		if hasServer(d) {
			return d, nil
		}
	}
	return "", ErrNoBinaries
}

func resolve(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

func hasServer(dir string) bool {
	for _, b := range []string{"initdb", "pg_ctl", "postgres"} {
		if st, err := os.Stat(filepath.Join(dir, b)); err != nil || st.IsDir() {
			return false
		}
	}
	return true
}

// versionOf extracts the major version from a path like /usr/lib/postgresql/15/bin.
func versionOf(dir string) int {
	for _, part := range strings.Split(dir, string(filepath.Separator)) {
		part = strings.TrimPrefix(strings.TrimPrefix(part, "pgsql-"), "postgresql@")
		if n, err := strconv.Atoi(part); err == nil {
			return n
		}
	}
	return 0
}

// Start initialises the cluster when needed and starts it. With a DataDir that already
// holds a running managed cluster it attaches to it instead.
func Start(ctx context.Context, o Options) (*Cluster, error) {
	c, err := newCluster(o.Log)
	if err != nil {
		return nil, err
	}
	c.MemoryCap, c.settings = o.MemoryCap, o.Settings
	if o.DataDir == "" {
		dir, err := os.MkdirTemp("", "brokerbench-pg-")
		if err != nil {
			return nil, fmt.Errorf("make a temporary folder for the managed PostgreSQL: %w", err)
		}
		c.Dir, c.DataDir, c.temporary = dir, filepath.Join(dir, "data"), true
	} else {
		abs, err := filepath.Abs(o.DataDir)
		if err != nil {
			return nil, err
		}
		c.DataDir = abs
		c.Dir = abs
		// The socket lives in the data folder; sun_path is limited to 107 bytes.
		if len(abs)+len("/.s.PGSQL.65535") > 107 {
			return nil, fmt.Errorf("--pgdata %s is too long a path for a unix socket (limit about 90 characters)", abs)
		}
		// Before anything else: a folder brokerbench did not make is left as it is.
		if err := c.checkOurs(abs); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(abs, 0o700); err != nil {
			return nil, fmt.Errorf("create --pgdata %s: %w", abs, err)
		}
		running, err := c.attachRunning()
		if err != nil {
			return nil, err
		}
		if running {
			return c, nil
		}
	}
	if err := c.prepare(ctx); err != nil {
		c.cleanup()
		return nil, err
	}
	if o.KeepMemoryCap && c.MemoryCap == 0 && !c.temporary {
		c.keepRememberedCap()
	}
	if err := c.startCapped(ctx, o.Settings); err != nil {
		c.cleanup()
		return nil, err
	}
	return c, nil
}

// attachRunning attaches to the server already running in the cluster. One an earlier
// brokerbench started without a password is stopped instead (running false), for
// Start to convert it.
func (c *Cluster) attachRunning() (running bool, err error) {
	st, err := c.status()
	if err != nil || st.Port == 0 {
		return false, nil
	}
	c.Port = st.Port
	c.MemoryCap, c.cgroup = st.MemoryCap, groupFromState(st)
	c.restoreLiftedCap()
	pw, err := readPassFile(c.PassFile())
	switch {
	case err == nil:
		c.password = pw
		c.log("managed PostgreSQL already running in %s on port %d", c.DataDir, c.Port)
		return true, nil
	case !errors.Is(err, fs.ErrNotExist):
		return false, err
	}
	c.log("managed PostgreSQL in %s runs without a password (started by an earlier brokerbench): restarting it to convert it", c.DataDir)
	if err := c.stopServer(); err != nil {
		return false, err
	}
	return false, nil
}

// prepare makes the cluster ready to start: its folder handed to the server's user,
// initdb (with a new password) or the existing password, pg_hba.conf, and a socket
// directory closed to others.
func (c *Cluster) prepare(ctx context.Context) error {
	if err := c.chownForServer(c.Dir); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(c.DataDir, "PG_VERSION")); err != nil {
		if err := c.initdb(ctx); err != nil {
			return err
		}
	} else if err := c.usePassword(ctx); err != nil {
		return err
	}
	if err := c.writeHBA(); err != nil {
		return err
	}
	return c.closeSocketDir()
}

// newCluster finds the binaries and the OS user the server runs as.
func newCluster(log func(string, ...any)) (*Cluster, error) {
	bin, err := FindBinaries()
	if err != nil {
		return nil, err
	}
	c := &Cluster{BinDir: bin, log: log}
	if c.log == nil {
		c.log = func(string, ...any) {}
	}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, errors.New("running as root, but there is no `postgres` OS user to run the server as " +
				"(PostgreSQL refuses to run as root); create one (`useradd -r postgres`) or run as another user")
		}
		c.runAs = u
	}
	return c, nil
}

func (c *Cluster) chownForServer(dir string) error {
	if c.runAs == nil {
		return nil
	}
	uid, _ := strconv.Atoi(c.runAs.Uid)
	// Only the folder itself changes owner: an existing cluster (Start checked it is
	// brokerbench's) already belongs to the server's user, and a folder initdb is
	// about to fill must be empty. A folder with anything else in it is never handed
	// over, so no file of someone else's changes owner (docs/faults.md).
	if _, err := os.Stat(filepath.Join(c.DataDir, "PG_VERSION")); err != nil {
		empty, err := folderEmpty(dir)
		if err != nil {
			return fmt.Errorf("give %s to the postgres user: %w", dir, err)
		}
		if !empty {
			return fmt.Errorf("%s holds files but no PostgreSQL cluster; brokerbench hands only a new or empty folder to initdb: "+
				"remove what is in it, or give another --pgdata", dir)
		}
	}
	if err := c.giveToServer(dir); err != nil {
		return err
	}
	// The postgres user must be able to reach the folder through its parents.
	for p := filepath.Dir(dir); p != "/"; p = filepath.Dir(p) {
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		owned := false
		if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) == uid {
			owned = st.Mode().Perm()&0o100 != 0
		}
		if !owned && st.Mode().Perm()&0o001 == 0 {
			return fmt.Errorf("the postgres user cannot reach %s: parent folder %s is not searchable by others "+
				"(chmod o+x %s, or choose a --pgdata outside it)", dir, p, p)
		}
	}
	return nil
}

func (c *Cluster) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	path := filepath.Join(c.BinDir, name)
	var cmd *exec.Cmd
	if c.runAs != nil {
		uid, _ := strconv.Atoi(c.runAs.Uid)
		gid, _ := strconv.Atoi(c.runAs.Gid)
		cmd = exec.CommandContext(ctx, path, args...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
		cmd.Env = append(os.Environ(), "HOME="+c.runAs.HomeDir, "USER=postgres")
	} else {
		cmd = exec.CommandContext(ctx, path, args...)
	}
	cmd.Dir = c.Dir
	// The server must outlive a Ctrl-C aimed at us: we stop it ourselves, in order.
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	return cmd
}

func (c *Cluster) run(ctx context.Context, name string, args ...string) error {
	_, err := c.runSecret(ctx, "", "", name, args...)
	return err
}

// runSecret runs a server program with stdin as its input and returns its output;
// secret (which stdin may carry) is scrubbed from the output and the error.
func (c *Cluster) runSecret(ctx context.Context, stdin, secret, name string, args ...string) (string, error) {
	cmd := c.command(ctx, name, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	err := c.runCommand(cmd)
	text := scrub(out.String(), secret)
	if err != nil {
		return text, fmt.Errorf("%s failed: %w: %s", name, err, managed.LastLines(text, 5))
	}
	return text, nil
}

// runCommand runs cmd, inside startIn when a capped start set it.
func (c *Cluster) runCommand(cmd *exec.Cmd) error {
	if c.startIn == nil {
		return cmd.Run()
	}
	if err := c.startIn.Start(cmd); err != nil {
		return err
	}
	return cmd.Wait()
}

// startInGroup runs fn, a start, with its server programs started inside g.
func (c *Cluster) startInGroup(g *memcap.Group, fn func() error) error {
	c.startIn = g
	defer func() { c.startIn = nil }()
	return fn()
}

func (c *Cluster) initdb(ctx context.Context) error {
	c.log("initdb %s", c.DataDir)
	pw, err := newPassword()
	if err != nil {
		return err
	}
	pwfile, remove, err := c.privateFile(pw + "\n")
	if err != nil {
		return err
	}
	defer remove()
	// --no-sync: the cluster's own files are made fresh; the benchmark's durability
	// comes from the server's settings, not from initdb.
	if err := c.run(ctx, "initdb", "-D", c.DataDir, "-U", superuser, "--auth=scram-sha-256", "--pwfile="+pwfile,
		"-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		return err
	}
	c.password = pw
	return c.writeMarker()
}

func (c *Cluster) start(ctx context.Context, settings map[string]string) error {
	var lastErr error
	// A free port can be taken between asking and binding; try a few.
	for attempt := 0; attempt < 3; attempt++ {
		port, err := managed.FreePort()
		if err != nil {
			return err
		}
		// Every attempt: one may fail while a killed server's last backends still
		// hold its shared memory, and the port must not move for that.
		port = c.portToTry(port)
		all := DefaultSettings()
		for k, v := range settings {
			all[k] = v
		}
		all["listen_addresses"] = "'127.0.0.1'"
		all["port"] = strconv.Itoa(port)
		all["unix_socket_directories"] = "'" + c.SocketDir() + "'"
		all["password_encryption"] = "'scram-sha-256'"
		if err := c.writeConf(all); err != nil {
			return err
		}
		if err := c.writePassFile(port); err != nil {
			return err
		}
		logPath := filepath.Join(c.Dir, "server.log")
		err = c.run(ctx, "pg_ctl", "-D", c.DataDir, "-l", logPath, "-w", "-t", "120", "start")
		if err == nil {
			c.Port = port
			if err := c.writeState(); err != nil {
				return err
			}
			c.log("managed PostgreSQL started in %s on port %d", c.DataDir, port)
			return nil
		}
		lastErr = fmt.Errorf("%w (server log: %s)", err, tail(logPath, 3))
	}
	return lastErr
}

func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "unreadable"
	}
	return managed.LastLines(string(b), n)
}

// writeConf rewrites our include file and makes postgresql.conf include it once, so a
// kept cluster can be restarted with other settings.
func (c *Cluster) writeConf(settings map[string]string) error {
	// A load killed before it could restore the cluster's settings left its own.
	if err := c.removeLoadConf(); err != nil {
		return err
	}
	return c.writeInclude("brokerbench.conf", "rewritten at every managed start", settings)
}

// writeInclude writes settings to name in the data directory and makes
// postgresql.conf include it once, after the includes written before it (later ones
// override earlier ones). Only the two files written here change owner: walking a
// kept cluster of many gigabytes at every start would be wasted work.
func (c *Cluster) writeInclude(name, note string, settings map[string]string) error {
	keys := make([]string, 0, len(settings))
	for k := range settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("# written by brokerbench; " + note + "\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "%s = %s\n", k, settings[k])
	}
	inc := filepath.Join(c.DataDir, name)
	// replaceFile, not WriteFile: the folder belongs to the server's user, and root
	// must not write through a link planted there.
	if err := replaceFile(inc, []byte(b.String()), 0o600); err != nil {
		return err
	}
	main := filepath.Join(c.DataDir, "postgresql.conf")
	conf, err := os.ReadFile(main)
	if err != nil {
		return err
	}
	if line := []byte("include_if_exists = '" + name + "'"); !bytes.Contains(conf, line) {
		conf = append(append(append(conf, '\n'), line...), '\n')
		if err := replaceFile(main, conf, 0o600); err != nil {
			return err
		}
	}
	return c.giveToServer(inc, main)
}

// giveToServer hands files we wrote as root to the server's user.
func (c *Cluster) giveToServer(paths ...string) error {
	if c.runAs == nil {
		return nil
	}
	uid, _ := strconv.Atoi(c.runAs.Uid)
	gid, _ := strconv.Atoi(c.runAs.Gid)
	for _, p := range paths {
		if err := os.Lchown(p, uid, gid); err != nil {
			return fmt.Errorf("give %s to the postgres user: %w", p, err)
		}
	}
	return nil
}

func (c *Cluster) writeState() error {
	b, _ := json.Marshal(state{Port: c.Port, BinDir: c.BinDir, DataDir: c.DataDir, MemoryCap: c.MemoryCap, Cgroup: c.MemoryGroup()})
	return replaceFile(filepath.Join(c.Dir, stateFile), b, 0o644)
}

// portToTry is the port this cluster had before (its state file, kept across a stop
// or a crash) when it is free, else fallback: a restarted server stays where its
// clients look for it unless something else took the port meanwhile.
func (c *Cluster) portToTry(fallback int) int {
	b, err := os.ReadFile(filepath.Join(c.Dir, stateFile))
	if err != nil {
		return fallback
	}
	var st state
	if json.Unmarshal(b, &st) != nil || st.Port <= 0 || st.Port > 65535 || st.DataDir != c.DataDir {
		return fallback
	}
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(st.Port)))
	if err != nil {
		c.log("port %d of the last start is taken; starting on %d", st.Port, fallback)
		return fallback
	}
	l.Close()
	return st.Port
}

// status reads the state file and checks that the server answers pg_ctl status.
func (c *Cluster) status() (state, error) {
	var st state
	b, err := os.ReadFile(filepath.Join(c.Dir, stateFile))
	if err != nil {
		return st, err
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, err
	}
	if err := c.run(context.Background(), "pg_ctl", "-D", c.DataDir, "status"); err != nil {
		return state{}, err
	}
	return st, nil
}

// Attach returns the running managed cluster in dataDir, or an error saying it is not
// running.
func Attach(dataDir string) (*Cluster, error) {
	bin, err := FindBinaries()
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return nil, err
	}
	c := &Cluster{BinDir: bin, Dir: abs, DataDir: abs, log: func(string, ...any) {}}
	if os.Geteuid() == 0 {
		c.runAs, _ = user.Lookup("postgres")
	}
	st, err := c.status()
	if err != nil {
		return nil, fmt.Errorf("no managed PostgreSQL is running in %s (start one with `brokerbench pg start --pgdata %s`)", abs, dataDir)
	}
	c.Port = st.Port
	// No password file: an earlier brokerbench started it with trust (Unprotected).
	if pw, err := readPassFile(c.PassFile()); err == nil {
		c.password = pw
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	c.MemoryCap, c.cgroup = st.MemoryCap, groupFromState(st)
	c.restoreLiftedCap()
	return c, nil
}

// URL is the cluster's connection URL over TCP loopback, for brokerbench's own
// connections. It carries the password: never show it (show PassfileURL).
func (c *Cluster) URL(database string) string { return c.url(database, true) }

func (c *Cluster) url(database string, withPassword bool) string {
	if database == "" {
		database = "postgres"
	}
	u := url.URL{Scheme: "postgres", User: url.User(superuser), Host: "127.0.0.1:" + strconv.Itoa(c.Port),
		Path: "/" + database, RawQuery: "sslmode=disable"}
	if withPassword && c.password != "" {
		u.User = url.UserPassword(superuser, c.password)
	}
	return u.String()
}

// Stop stops the server; a temporary cluster is also removed.
func (c *Cluster) Stop() error {
	err := c.stopServer()
	if c.temporary {
		if rmErr := os.RemoveAll(c.Dir); rmErr != nil && err == nil {
			err = rmErr
		}
	}
	return err
}

// stopServer stops the server (fast: open transactions are rolled back).
func (c *Cluster) stopServer() error {
	// Stopping must work even after the caller's context was canceled by Ctrl-C.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	err := c.run(ctx, "pg_ctl", "-D", c.DataDir, "-m", "fast", "-w", "-t", "60", "stop")
	if err == nil {
		c.log("managed PostgreSQL stopped")
		err = c.removeMemoryGroup()
		// The state stays, without the removed group, for the next start's port.
		b, _ := json.Marshal(state{Port: c.Port, BinDir: c.BinDir, DataDir: c.DataDir})
		if werr := replaceFile(filepath.Join(c.Dir, stateFile), b, 0o644); werr != nil && err == nil && !c.temporary {
			err = werr
		}
	} else {
		// A server that died on its own (the cap's OOM killer took the postmaster)
		// cannot be stopped, but its empty group must still go.
		c.removeEmptyMemoryGroup()
	}
	return err
}

// Temporary reports whether Stop removes the cluster.
func (c *Cluster) Temporary() bool { return c.temporary }

// PostmasterPID returns the postmaster's pid, for tests that pause or kill the server.
func (c *Cluster) PostmasterPID() (int, error) { return PostmasterPIDIn(c.DataDir) }

// PostmasterPIDIn returns the pid a server running in the data folder data wrote in
// its postmaster.pid (the file's first line); an error when there is none.
func PostmasterPIDIn(data string) (int, error) {
	b, err := os.ReadFile(filepath.Join(data, "postmaster.pid"))
	if err != nil {
		return 0, err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return strconv.Atoi(strings.TrimSpace(line))
}

// Restart restarts the server on the same port (fault tests).
func (c *Cluster) Restart(ctx context.Context) error {
	if c.cgroup != nil {
		// pg_ctl forks the new postmaster: it must do so inside the group.
		return c.startInGroup(c.cgroup, func() error {
			return c.run(ctx, "pg_ctl", "-D", c.DataDir, "-l", filepath.Join(c.Dir, "server.log"), "-m", "fast", "-w", "-t", "120", "restart")
		})
	}
	return c.run(ctx, "pg_ctl", "-D", c.DataDir, "-l", filepath.Join(c.Dir, "server.log"), "-m", "fast", "-w", "-t", "120", "restart")
}

func (c *Cluster) cleanup() {
	if c.temporary {
		_ = os.RemoveAll(c.Dir)
	}
}
