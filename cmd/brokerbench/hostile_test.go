package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/netfault"
)

// TestConnectToSilentPort: a --db URL naming a port that accepts and never answers
// fails within its connect_timeout on both engines with one line naming host and
// port, exit 1; before, the sqlserver:// one hung for ever.
func TestConnectToSilentPort(t *testing.T) {
	t.Parallel()
	s := netfault.NewSilent(t)
	for _, dsn := range []string{
		"sqlserver://u:pw@" + s.Addr + "?database=x&connect_timeout=1",
		"postgres://u:pw@" + s.Addr + "/x?sslmode=disable&connect_timeout=1",
	} {
		code, _, stderr := runMain("check", "--db", dsn)
		if code != exitRuntime || !strings.Contains(stderr, s.Addr) || !strings.Contains(stderr, "no answer within 1s") {
			t.Errorf("%s: exit %d, %q", dsn, code, stderr)
		}
		if strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%s: more than one line:\n%s", dsn, stderr)
		}
	}
}

// TestInterruptReadOnlyCommands: the first SIGTERM or SIGINT ends report, compare and
// merge at once with exit 130: they own no server state to finish or save. Each is
// stuck reading a result file from a pipe that never ends (as a huge file would keep
// them busy), which the signal must cut.
func TestInterruptReadOnlyCommands(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		sig  syscall.Signal
	}{
		{[]string{"report"}, syscall.SIGTERM},
		{[]string{"compare", "base.json"}, syscall.SIGINT},
		{[]string{"merge", "-o", "merged.json"}, syscall.SIGTERM},
	} {
		dir := t.TempDir()
		fifo := filepath.Join(dir, "slow.json")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip("no FIFO: ", err)
		}
		args := append(append([]string(nil), tc.args...), fifo)
		for i, a := range args {
			if strings.HasSuffix(a, ".json") && a != fifo {
				args[i] = filepath.Join(dir, a)
			}
		}
		if tc.args[0] == "compare" {
			// compare reads the base first: let it be the pipe.
			args = []string{"compare", fifo, filepath.Join(dir, "other.json")}
		}
		ch := startChild(t, args...)
		// Opening the pipe for writing returns once the child opened it for reading:
		// it is past its signal set-up and blocked in the read.
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.WriteString(`{"format": 1, "label": "`); err != nil {
			t.Fatal(err)
		}
		ch.signal(t, tc.sig)
		if code := ch.wait(t); code != exitInterrupted {
			t.Errorf("%v: exit %d after %v, want %d\n%s", tc.args, code, tc.sig, exitInterrupted, ch.output())
		}
		w.Close()
	}
}

// TestMalformedDSN: a --db URL that does not parse is a usage error (exit 2) with the
// reason, and no password in it.
func TestMalformedDSN(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ dsn, want string }{
		{"postgres://u:secretpw@[::1", "invalid PostgreSQL DSN"},
		{"sqlserver://u:secretpw@h:notaport?database=x", "invalid SQL Server DSN"},
		{"sqlserver://u:secretpw@h?database=x&connect_timeout=NaN", "connect_timeout"},
	} {
		code, _, stderr := runMain("check", "--db", tc.dsn)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "secretpw") {
			t.Errorf("%s: exit %d, %q; want exit 2 saying %q", tc.dsn, code, stderr, tc.want)
		}
	}
}
