// Package mdbmanaged runs a throwaway local MariaDB server: what `--engine mariadb`
// starts when no --db is given, and the MariaDB test server. It finds the
// distribution's server binaries, makes a data directory with mariadb-install-db,
// starts mariadbd on a free loopback port with its socket in a folder only the
// server's user can enter, and stops it and removes everything afterwards.
//
// Who may connect: the only accounts with a login are root@localhost and
// brokerbench@localhost/127.0.0.1, both with one random password kept in a 0600 file
// of the invoking user; the install's passwordless and socket-authenticated accounts
// and any anonymous one are dropped by the init file of the first start, before the
// server takes its first connection. As root the server runs as the mysql OS user.
package mdbmanaged

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/internal/managed"
	"github.com/brokerbench/brokerbench/internal/memcap"
)

// ErrNoBinaries is returned when no MariaDB server binaries can be found.
var ErrNoBinaries = errors.New("no MariaDB server binaries found (looked for mariadbd and mariadb-install-db in PATH, /usr/sbin and /usr/bin); " +
	"install them, e.g. `apt-get install mariadb-server` on Debian/Ubuntu, `dnf install mariadb-server` on Fedora, " +
	"or pass --db mysql://... to use an existing server")

// Database is the database the server is made with, and User the account
// brokerbench connects as.
const (
	Database = "brokerbench"
	User     = "brokerbench"
)

// Options configure a server.
type Options struct {
	// Log receives one line per step; nil for none.
	Log func(format string, args ...any)
	// MemoryCap runs the server in a memory cgroup of this many bytes, page cache
	// included (internal/memcap), with its memory settings sized from it (memory.go);
	// 0 for no cap.
	MemoryCap int64
	// Settings are extra mariadbd options (name -> value, as --name=value).
	Settings map[string]string
}

// Server is a running managed MariaDB.
type Server struct {
	Dir     string // the server's folder: data, socket folder, logs
	DataDir string
	Socket  string
	Port    int
	// MemoryCap is the server's cap in bytes, 0 for none.
	MemoryCap int64
	password  string
	runAs     *user.User // nil: the server runs as ourselves
	cmd       *exec.Cmd
	exited    chan struct{}
	cgroup    *memcap.Group
	settings  map[string]string
	log       func(string, ...any)
}

// binaries finds the server and the installer.
func binaries() (server, install string, err error) {
	find := func(names ...string) string {
		for _, n := range names {
			if p, err := exec.LookPath(n); err == nil {
				return p
			}
			for _, d := range []string{"/usr/sbin", "/usr/bin", "/usr/local/mysql/bin"} {
				if st, err := os.Stat(filepath.Join(d, n)); err == nil && !st.IsDir() {
					return filepath.Join(d, n)
				}
			}
		}
		return ""
	}
	server, install = find("mariadbd", "mysqld"), find("mariadb-install-db", "mysql_install_db")
	if server == "" || install == "" {
		return "", "", ErrNoBinaries
	}
	return server, install, nil
}

// Available says why no managed MariaDB can start here (no binaries), or nil.
func Available() error {
	_, _, err := binaries()
	return err
}

// Start makes a throwaway server and starts it.
func Start(ctx context.Context, o Options) (*Server, error) {
	if err := CheckMemoryCap(o.MemoryCap); err != nil {
		return nil, err
	}
	serverBin, installBin, err := binaries()
	if err != nil {
		return nil, err
	}
	s := &Server{MemoryCap: o.MemoryCap, settings: o.Settings, log: o.Log}
	if s.log == nil {
		s.log = func(string, ...any) {}
	}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("mysql")
		if err != nil {
			return nil, errors.New("running as root, but there is no `mysql` OS user to run MariaDB as; create one (`useradd -r mysql`) or run as another user")
		}
		s.runAs = u
	}
	if s.Dir, err = os.MkdirTemp("", "brokerbench-mdb-"); err != nil {
		return nil, fmt.Errorf("make a folder for the managed MariaDB: %w", err)
	}
	s.DataDir, s.Socket = filepath.Join(s.Dir, "data"), filepath.Join(s.Dir, "run", "mysqld.sock")
	if err := s.start(ctx, serverBin, installBin, o.Settings); err != nil {
		_ = s.Stop()
		return nil, err
	}
	return s, nil
}

func (s *Server) start(ctx context.Context, serverBin, installBin string, settings map[string]string) error {
	pw, err := newPassword()
	if err != nil {
		return err
	}
	s.password = pw
	if err := os.WriteFile(s.PassFile(), []byte(pw+"\n"), 0o600); err != nil {
		return fmt.Errorf("write the managed MariaDB's password file: %w", err)
	}
	// The server's user owns its folder (0700): the socket folder inside is closed to
	// everyone else, and so is its folder for temporary tables and sort files, which
	// would otherwise go to /tmp, shared with every program on the machine. The
	// password file stays the invoking user's.
	for _, d := range []string{filepath.Dir(s.Socket), s.tmpDir()} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return err
		}
	}
	if err := s.giveToServer(s.Dir, filepath.Dir(s.Socket), s.tmpDir()); err != nil {
		return err
	}
	s.log("mariadb-install-db %s", s.DataDir)
	// The install's bootstrap server makes temporary tables too: in the shared /tmp,
	// installs running at once removed each other's ("Could not remove temporary
	// table … Unknown table 'mysql.tmp_proxies_priv'", then Aborting: 3 of 6 failed).
	install := s.command(context.WithoutCancel(ctx), installBin, "--no-defaults", "--datadir="+s.DataDir, "--tmpdir="+s.tmpDir(),
		"--skip-test-db", "--auth-root-authentication-method=socket")
	if out, err := install.CombinedOutput(); err != nil {
		return fmt.Errorf("mariadb-install-db failed: %w: %s", err, managed.ErrorLines(string(out), 3))
	}
	// Right after the install: a data folder without the marker is never started
	// again (RestartWithMemoryCap).
	if err := managed.Mark(s.DataDir, "MariaDB"); err != nil {
		return err
	}
	initFile := filepath.Join(s.Dir, "init.sql")
	if err := os.WriteFile(initFile, []byte(initSQL(pw)), 0o600); err != nil {
		return err
	}
	defer os.Remove(initFile) // read at start; it holds the password
	if err := s.giveToServer(initFile); err != nil {
		return err
	}
	var lastErr error
	// A free port can be taken between asking and binding; try a few.
	for attempt := 0; attempt < 3; attempt++ {
		if s.Port, err = managed.FreePort(); err != nil {
			return err
		}
		if lastErr = s.launch(ctx, serverBin, initFile, settings); lastErr == nil {
			return nil
		}
		if ctx.Err() != nil {
			return lastErr
		}
	}
	return lastErr
}

// initSQL sets who may connect, at the first start, before any connection: root with
// the password (it had socket authentication only), brokerbench on the socket and
// loopback TCP, and no other login.
func initSQL(pw string) string {
	q := "'" + pw + "'" // URL-safe base64: no quote or backslash to escape
	return strings.Join([]string{
		// The install's other logins: anonymous ones, and the socket-authenticated
		// account of the OS user that ran it (mysql@localhost as root).
		"DELETE FROM mysql.global_priv WHERE User NOT IN ('root', 'mariadb.sys')",
		"FLUSH PRIVILEGES",
		"ALTER USER 'root'@'localhost' IDENTIFIED BY " + q,
		"CREATE USER '" + User + "'@'localhost' IDENTIFIED BY " + q,
		"CREATE USER '" + User + "'@'127.0.0.1' IDENTIFIED BY " + q,
		"GRANT ALL ON *.* TO '" + User + "'@'localhost' WITH GRANT OPTION",
		"GRANT ALL ON *.* TO '" + User + "'@'127.0.0.1' WITH GRANT OPTION",
		"CREATE DATABASE " + Database,
		"FLUSH PRIVILEGES",
	}, ";\n") + ";\n"
}

// launch starts mariadbd (in the memory cgroup when capped) and waits until it
// accepts connections or exits.
func (s *Server) launch(ctx context.Context, serverBin, initFile string, settings map[string]string) error {
	args := []string{"--no-defaults", "--datadir=" + s.DataDir, "--socket=" + s.Socket,
		"--port=" + strconv.Itoa(s.Port), "--bind-address=127.0.0.1", "--skip-name-resolve",
		"--pid-file=" + filepath.Join(s.Dir, "run", "mysqld.pid"), "--log-error=" + filepath.Join(s.Dir, "error.log")}
	if initFile != "" {
		args = append(args, "--init-file="+initFile)
	}
	if s.runAs != nil {
		args = append(args, "--user=mysql")
	}
	opts := DefaultSettings()
	opts["tmpdir"] = s.tmpDir()
	maps.Copy(opts, memorySettings(s.MemoryCap))
	maps.Copy(opts, settings)
	for _, k := range sortedKeys(opts) {
		args = append(args, "--"+k+"="+opts[k])
	}
	// mariadbd drops to --user itself; it is started as we are.
	s.cmd = exec.Command(serverBin, args...)
	s.cmd.Dir = s.Dir
	s.cmd.Env = serverEnv(s.MemoryCap)
	// The server must outlive a Ctrl-C aimed at us: Stop ends it, in order.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// A restart appends to the log of the previous start: only what follows counts.
	logFrom := len(s.errorLog())
	if s.MemoryCap > 0 {
		g, err := s.openMemoryGroup(opts["innodb-buffer-pool-size"])
		if err != nil {
			return err
		}
		s.cgroup = g
		if err := g.Start(s.cmd); err != nil {
			return err
		}
	} else if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("start mariadbd: %w", err)
	}
	s.exited = make(chan struct{})
	go func(c *exec.Cmd, done chan struct{}) { _ = c.Wait(); close(done) }(s.cmd, s.exited)
	return s.waitReady(ctx, logFrom)
}

// waitReady waits until the server says in its error log that it is ready for
// connections, it exits, or ctx ends. The socket accepts earlier, before the init
// file has run; the log line comes after it (MariaDB's ER_STARTUP message: with
// --no-defaults its messages are English), so no login is served before the
// accounts are set.
func (s *Server) waitReady(ctx context.Context, logFrom int) error {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if l := s.errorLog(); len(l) > logFrom && strings.Contains(l[logFrom:], ": ready for connections") {
			s.log("managed MariaDB started in %s on port %d", s.DataDir, s.Port)
			return nil
		}
		select {
		case <-s.exited:
			if st, ok := s.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && st.Signaled() && st.Signal() == syscall.SIGKILL && s.MemoryCap > 0 {
				return fmt.Errorf("mariadbd was killed at start, by the OOM killer of its %s memory cap most likely: give --server-memory more", bytesize.Format(s.MemoryCap))
			}
			return fmt.Errorf("mariadbd exited at start: %s", managed.ErrorLines(s.errorLog(), 3))
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("mariadbd did not accept connections within two minutes: %s", managed.LastLines(s.errorLog(), 5))
		}
	}
}

func (s *Server) errorLog() string {
	b, _ := os.ReadFile(filepath.Join(s.Dir, "error.log"))
	return string(b)
}

// DefaultSettings suit a benchmark on a small machine, as the managed PostgreSQL's:
// enough connections for 300 users and the emulator, durable commits, a redo log
// that does not force checkpoints every few seconds, performance_schema on for the
// file I/O figures, and LOAD DATA LOCAL for the bulk path.
func DefaultSettings() map[string]string {
	m := map[string]string{
		"max-connections":                "500",
		"innodb-buffer-pool-size":        strconv.Itoa(512 << 20),
		"innodb-log-file-size":           strconv.Itoa(1 << 30),
		"innodb-flush-log-at-trx-commit": "1",
		"performance-schema":             "ON",
		"local-infile":                   "1",
		"character-set-server":           "utf8mb4",
	}
	for k, v := range performanceSchemaSettings {
		m[k] = v
	}
	return m
}

// performanceSchemaSettings keep performance_schema to what brokerbench reads: the
// file I/O summaries, which need the file instruments and the threads that do the
// I/O. Everything else it sizes from max_connections (statement, stage, memory,
// mutex, lock and table summaries per thread, account, user and host) came to 70 MiB
// of a 244 MiB cap at start, before a single query, and the cap's OOM killer ended
// the server; with these it takes about 11 MiB (docs/mysql.md §5).
var performanceSchemaSettings = map[string]string{
	"performance-schema-events-waits-history-size":             "0",
	"performance-schema-events-waits-history-long-size":        "0",
	"performance-schema-events-stages-history-size":            "0",
	"performance-schema-events-stages-history-long-size":       "0",
	"performance-schema-events-statements-history-size":        "0",
	"performance-schema-events-statements-history-long-size":   "0",
	"performance-schema-events-transactions-history-size":      "0",
	"performance-schema-events-transactions-history-long-size": "0",
	"performance-schema-digests-size":                          "0",
	"performance-schema-max-digest-length":                     "0",
	"performance-schema-max-sql-text-length":                   "0",
	"performance-schema-max-statement-stack":                   "1",
	"performance-schema-max-statement-classes":                 "0",
	"performance-schema-max-stage-classes":                     "0",
	"performance-schema-max-memory-classes":                    "0",
	"performance-schema-max-mutex-classes":                     "0",
	"performance-schema-max-rwlock-classes":                    "0",
	"performance-schema-max-cond-classes":                      "0",
	"performance-schema-max-socket-classes":                    "0",
	"performance-schema-max-table-instances":                   "0",
	"performance-schema-max-table-handles":                     "0",
	"performance-schema-max-index-stat":                        "0",
	"performance-schema-max-table-lock-stat":                   "0",
	"performance-schema-max-metadata-locks":                    "0",
	"performance-schema-max-prepared-statements-instances":     "0",
	"performance-schema-max-program-instances":                 "0",
	"performance-schema-accounts-size":                         "0",
	"performance-schema-hosts-size":                            "0",
	"performance-schema-users-size":                            "0",
}

// URL is the DSN for database db over loopback TCP, password included: show it to
// no one.
func (s *Server) URL(db string) string {
	u := url.URL{Scheme: "mysql", User: url.UserPassword(User, s.password), Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)), Path: "/" + db}
	return u.String()
}

// tmpDir is the server's tmpdir: its internal temporary tables and sort files.
func (s *Server) tmpDir() string { return filepath.Join(s.Dir, "tmp") }

// PassFile holds the password, readable by the invoking user only.
func (s *Server) PassFile() string { return filepath.Join(s.Dir, "brokerbench.password") }

// Stop ends the server (SIGTERM: a clean shutdown), removes its cgroup and its
// folder.
func (s *Server) Stop() error {
	errs := []error{s.stopProcess()}
	if s.Dir != "" {
		errs = append(errs, os.RemoveAll(s.Dir))
	}
	return errors.Join(errs...)
}

// stopProcess ends the server and removes its memory cgroup, keeping its data.
func (s *Server) stopProcess() error {
	var errs []error
	if s.cmd != nil && s.cmd.Process != nil && s.exited != nil {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(2 * time.Minute):
			_ = s.cmd.Process.Kill()
			<-s.exited
			errs = append(errs, errors.New("mariadbd did not stop within two minutes; killed"))
		}
		s.cmd, s.exited = nil, nil
	}
	if s.cgroup != nil {
		errs = append(errs, s.cgroup.Remove())
		s.cgroup = nil
	}
	return errors.Join(errs...)
}

// RestartWithMemoryCap stops the server and starts it again on its data with a
// memory cap of capBytes (0: none), the buffer pool sized from it, on a new port
// (URL changes). The server's files are evicted from the page cache first, so what
// it reads afterwards is charged inside the cap.
func (s *Server) RestartWithMemoryCap(ctx context.Context, capBytes int64) error {
	if err := CheckMemoryCap(capBytes); err != nil {
		return err
	}
	serverBin, _, err := binaries()
	if err != nil {
		return err
	}
	if err := s.checkOurs(); err != nil {
		return err
	}
	if err := s.stopProcess(); err != nil {
		return err
	}
	if _, err := memcap.Evict(s.DataDir); err != nil {
		return fmt.Errorf("evict %s from the page cache: %w", s.DataDir, err)
	}
	s.MemoryCap = capBytes
	if s.Port, err = managed.FreePort(); err != nil {
		return err
	}
	return s.launch(ctx, serverBin, "", s.settings)
}

// checkOurs refuses to start mariadbd on a data folder brokerbench did not make
// (docs/faults.md, "Clusters and folders brokerbench did not create"): one without
// the marker mariadb-install-db's run left.
func (s *Server) checkOurs() error {
	ok, err := managed.Marked(s.DataDir)
	if err != nil {
		return fmt.Errorf("managed MariaDB: %w", err)
	}
	if !ok {
		return fmt.Errorf("%s holds a MariaDB data folder brokerbench did not create (no %s); it changes only data folders it made: "+
			"start the server yourself and give --db mysql://...", s.DataDir, managed.MarkerFile)
	}
	return nil
}

// command runs a server program as the server's user.
func (s *Server) command(ctx context.Context, path string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = s.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if s.runAs != nil {
		uid, _ := strconv.Atoi(s.runAs.Uid)
		gid, _ := strconv.Atoi(s.runAs.Gid)
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		cmd.Env = append(os.Environ(), "HOME="+s.runAs.HomeDir, "USER=mysql")
	}
	return cmd
}

// giveToServer hands paths to the server's user (as root), and checks it can reach
// them through their parents.
func (s *Server) giveToServer(paths ...string) error {
	if s.runAs == nil {
		return nil
	}
	uid, _ := strconv.Atoi(s.runAs.Uid)
	gid, _ := strconv.Atoi(s.runAs.Gid)
	for _, p := range paths {
		if err := os.Chown(p, uid, gid); err != nil {
			return fmt.Errorf("give %s to the mysql user: %w", p, err)
		}
	}
	for p := filepath.Dir(s.Dir); p != "/"; p = filepath.Dir(p) {
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		if st.Mode().Perm()&0o001 == 0 {
			return fmt.Errorf("the mysql user cannot reach %s: parent folder %s is not searchable by others (chmod o+x %s, or set TMPDIR)", s.Dir, p, p)
		}
	}
	return nil
}

// newPassword is 24 random bytes, URL-safe: it goes into URLs and SQL unescaped.
func newPassword() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make a password: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}
