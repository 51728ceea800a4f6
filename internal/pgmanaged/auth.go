package pgmanaged

// Who may connect to a managed cluster. Benchmark machines are shared, and a kept
// cluster runs for days: only someone who holds the invoking user's files gets in.
//
//   - initdb gives the superuser (postgres) a random password, stored as SCRAM.
//   - pg_hba.conf, rewritten at every start, allows password (SCRAM) authentication
//     only, on loopback TCP and on the unix socket; there is no trust line.
//   - The socket lives in a directory only the server's OS user can enter (root, who
//     starts a server that runs as postgres, enters anywhere).
//   - The password is kept in a libpq password file beside the cluster's state file,
//     owned by the invoking user, mode 0600: brokerbench's commands read it, and a
//     person uses it as PGPASSFILE. It is never printed.
//   - A cluster without that file (made by an earlier brokerbench, with trust, or whose
//     file was lost) gets a new password at its next start, set in single-user mode
//     so that no connection is ever let in unauthenticated meanwhile.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/brokerbench/brokerbench/internal/managed"
)

const (
	// superuser is the role brokerbench connects as (initdb -U).
	superuser = "postgres"
	// passFileName is the password file, in libpq's .pgpass format.
	passFileName = "brokerbench.pgpass"
)

// hbaConf is the whole of every managed cluster's pg_hba.conf.
const hbaConf = `# written by brokerbench; rewritten at every managed start.
# Password (SCRAM) authentication only, on the unix socket and on loopback TCP;
# the password is in brokerbench.pgpass beside the cluster's state.
# TYPE  DATABASE     USER  ADDRESS       METHOD
local   all          all                 scram-sha-256
local   replication  all                 scram-sha-256
host    all          all   127.0.0.1/32  scram-sha-256
host    replication  all   127.0.0.1/32  scram-sha-256
`

// PassFile is the password file: libpq's .pgpass format, usable as PGPASSFILE, readable
// by its owner only.
func (c *Cluster) PassFile() string { return filepath.Join(c.Dir, passFileName) }

// SocketDir is the directory that holds the server's unix socket.
func (c *Cluster) SocketDir() string { return c.Dir }

// Unprotected reports whether the cluster runs without a password: it was started by
// an earlier brokerbench with trust authentication. The next Start converts it.
func (c *Cluster) Unprotected() bool { return c.password == "" }

// PassfileURL is the cluster's URL naming the password file instead of the password:
// what a person is shown. psql, pgbench and brokerbench's --db all accept it.
func (c *Cluster) PassfileURL(database string) string {
	u := c.url(database, false)
	if c.password != "" {
		// '/' needs no escaping in a query; keeping it makes the path readable.
		u += "&passfile=" + strings.ReplaceAll(url.QueryEscape(c.PassFile()), "%2F", "/")
	}
	return u
}

// PsqlCommand is the shell command a person types to connect with psql.
func (c *Cluster) PsqlCommand(database string) string {
	if database == "" {
		database = "postgres"
	}
	cmd := fmt.Sprintf("psql -h 127.0.0.1 -p %d -U %s %s", c.Port, superuser, shellQuote(database))
	if c.password == "" {
		return cmd
	}
	return "PGPASSFILE=" + shellQuote(c.PassFile()) + " " + cmd
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// newPassword makes a random password of URL- and pgpass-safe characters.
func newPassword() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make a password for the managed PostgreSQL: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// usePassword reads the password of an existing, stopped cluster, or gives the
// superuser a new one when the cluster has no password file (made by an earlier
// brokerbench, or the file was lost).
func (c *Cluster) usePassword(ctx context.Context) error {
	pw, err := readPassFile(c.PassFile())
	if err == nil {
		c.password = pw
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	trusted := hbaTrusts(filepath.Join(c.DataDir, "pg_hba.conf"))
	if err := c.resetPassword(ctx); err != nil {
		return err
	}
	if trusted {
		c.log("managed PostgreSQL in %s let local users in without a password (made by an earlier brokerbench): "+
			"converted to password authentication; the new password is in %s", c.DataDir, c.PassFile())
	} else {
		c.log("managed PostgreSQL in %s had no password file: set a new password, kept in %s", c.DataDir, c.PassFile())
	}
	return nil
}

// hbaTrusts reports whether a pg_hba.conf has a trust line.
func hbaTrusts(path string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		line, _, _ = strings.Cut(line, "#")
		for _, f := range strings.Fields(line) {
			if f == "trust" {
				return true
			}
		}
	}
	return false
}

// resetPassword gives the superuser a new random password while the server is
// stopped, in single-user mode, which authenticates nobody: no window opens in which
// the old trust rules, or no password, would let a connection in.
func (c *Cluster) resetPassword(ctx context.Context) error {
	pw, err := newPassword()
	if err != nil {
		return err
	}
	// Small memory: single-user mode needs none of the benchmark's settings. No
	// statement is logged: the password must not reach a log.
	out, err := c.runSecret(ctx, "ALTER ROLE "+superuser+" PASSWORD '"+pw+"'\n", pw, "postgres", "--single",
		"-D", c.DataDir, "-c", "shared_buffers=16MB", "-c", "password_encryption=scram-sha-256",
		"-c", "log_statement=none", "-c", "log_min_error_statement=panic", "template1")
	if err == nil && (strings.Contains(out, "ERROR:") || strings.Contains(out, "FATAL:")) {
		err = fmt.Errorf("postgres --single: %s", managed.LastLines(out, 5))
	}
	if err != nil {
		return fmt.Errorf("set a password on the managed PostgreSQL in %s: %w", c.DataDir, err)
	}
	c.password = pw
	return nil
}

// writeHBA replaces pg_hba.conf with brokerbench's: whatever an earlier version or a
// person wrote there, no trust line survives a start.
func (c *Cluster) writeHBA() error {
	path := filepath.Join(c.DataDir, "pg_hba.conf")
	if err := replaceFile(path, []byte(hbaConf), 0o600); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return c.giveToServer(path)
}

// closeSocketDir makes the socket's directory enterable by its owner (the server's
// user) only: the socket is then out of other local users' reach whatever pg_hba says.
func (c *Cluster) closeSocketDir() error {
	if err := os.Chmod(c.SocketDir(), 0o700); err != nil {
		return fmt.Errorf("close the socket directory %s to other users: %w", c.SocketDir(), err)
	}
	return nil
}

// writePassFile stores the password for the port the server is about to listen on,
// for TCP (127.0.0.1, localhost) and for the socket. The file belongs to the invoking
// user, mode 0600: libpq ignores a password file others can read.
func (c *Cluster) writePassFile(port int) error {
	var b strings.Builder
	for _, host := range []string{"127.0.0.1", "localhost", c.SocketDir()} {
		fmt.Fprintf(&b, "%s:%d:*:%s:%s\n", pgpassEscape(host), port, superuser, c.password)
	}
	if err := replaceFile(c.PassFile(), []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("write the password file %s: %w", c.PassFile(), err)
	}
	return nil
}

// readPassFile returns the superuser's password from a password file brokerbench
// wrote. The file must be a plain file (not a link: a server's OS user who can write
// the cluster's folder must not make root read another file), belong to the caller and
// be unreadable by others.
func readPassFile(path string) (string, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		return "", fmt.Errorf("the managed PostgreSQL's password file %s: %w (it must be a plain file)", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	sys, _ := st.Sys().(*syscall.Stat_t)
	switch {
	case !st.Mode().IsRegular() || sys == nil || sys.Nlink != 1:
		return "", fmt.Errorf("the managed PostgreSQL's password file %s is not a plain file", path)
	case int(sys.Uid) != os.Geteuid():
		return "", fmt.Errorf("the managed PostgreSQL's password file %s belongs to uid %d, not to you (uid %d): only the user who started the cluster can use it",
			path, sys.Uid, os.Geteuid())
	case st.Mode().Perm()&0o077 != 0:
		return "", fmt.Errorf("the managed PostgreSQL's password file %s is open to other users (mode %04o): "+
			"delete it, and the next `brokerbench pg start` sets a new password", path, st.Mode().Perm())
	}
	b, err := io.ReadAll(io.LimitReader(f, 1<<16))
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := pgpassFields(line); len(f) == 5 && f[3] == superuser && f[4] != "" {
			return f[4], nil
		}
	}
	return "", fmt.Errorf("the managed PostgreSQL's password file %s holds no password for %s: "+
		"delete it, and the next `brokerbench pg start` sets a new password", path, superuser)
}

// pgpassEscape escapes a .pgpass field (':' and '\').
func pgpassEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `:`, `\:`).Replace(s)
}

// pgpassFields splits a .pgpass line into its unescaped fields.
func pgpassFields(line string) []string {
	var fields []string
	var cur bytes.Buffer
	for i := 0; i < len(line); i++ {
		switch ch := line[i]; {
		case ch == '\\' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
		case ch == ':' && len(fields) < 4:
			fields = append(fields, cur.String())
			cur.Reset()
		case ch == '\r':
		default:
			cur.WriteByte(ch)
		}
	}
	return append(fields, cur.String())
}

// replaceFile writes a file through a new temporary file renamed over it: a link
// planted at path by whoever can write the folder is replaced, never followed.
func replaceFile(path string, data []byte, mode os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	err = tmp.Chmod(mode)
	if err == nil {
		_, err = tmp.Write(data)
	}
	if closeErr := tmp.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		_ = os.Remove(name)
	}
	return err
}

// scrub removes a secret from text that may end up in an error message.
func scrub(text, secret string) string {
	if secret == "" {
		return text
	}
	return strings.ReplaceAll(text, secret, "xxxxx")
}

// serverUID is the uid the server runs as.
func (c *Cluster) serverUID() int {
	if c.runAs == nil {
		return os.Geteuid()
	}
	uid, _ := strconv.Atoi(c.runAs.Uid)
	return uid
}

// privateFile writes text to a new file that only the server's user can read, in a
// new folder of its own (the data folder must stay empty for initdb), and returns its
// path and how to remove it. initdb takes the password from a file: an argument would
// show in ps, and initdb cannot reopen a pipe root made once it runs as postgres.
func (c *Cluster) privateFile(text string) (path string, remove func(), err error) {
	dir, err := os.MkdirTemp("", "brokerbench-pw-")
	if err != nil {
		return "", nil, err
	}
	remove = func() { _ = os.RemoveAll(dir) }
	path = filepath.Join(dir, "pwfile")
	if err = os.WriteFile(path, []byte(text), 0o600); err == nil {
		err = c.giveToServer(dir, path)
	}
	if err != nil {
		remove()
		return "", nil, fmt.Errorf("hand the new password to initdb: %w", err)
	}
	return path, remove, nil
}
