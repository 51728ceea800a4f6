package main

import (
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/netfault"
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
