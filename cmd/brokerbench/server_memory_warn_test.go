package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestWarnTightCap: a cap whose three quarters cannot hold the run's backends is
// named with the cap to give; one that can, or no cap, says nothing.
func TestWarnTightCap(t *testing.T) {
	for _, tc := range []struct {
		capBytes int64
		conns    int
		warn     bool
	}{
		{0, 300, false},
		{227 << 20, 27, false}, // quickstart: 170 MB beside shared_buffers for 162 MB of backends
		{1 << 30, 310, true},   // 300 users on a 1 GB cap
		{3 << 30, 310, false},
	} {
		var got []string
		warnTightCap(tc.capBytes, tc.conns, func(f string, a ...any) { got = append(got, fmt.Sprintf(f, a...)) })
		if (len(got) > 0) != tc.warn {
			t.Errorf("cap %d MB, %d connections: warned %q, want a warning %v", tc.capBytes>>20, tc.conns, got, tc.warn)
		}
		if tc.warn && !strings.Contains(got[0], "--server-memory") {
			t.Errorf("the warning does not say what to give: %s", got[0])
		}
	}
}
