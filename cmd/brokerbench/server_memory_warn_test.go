package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/driver"
)

// TestWarnTightCap: a cap whose three quarters cannot hold the server's other shared
// memory and the run's backends is named with the cap to give; one that can, or no
// cap, says nothing.
func TestWarnTightCap(t *testing.T) {
	for _, tc := range []struct {
		capBytes int64
		conns    int
		warn     bool
	}{
		{0, 300, false},
		// quickstart's old cap: half a 455 MB database for 27 connections. The OOM
		// killer ended a backend at the end of its 16-user step (101 MB of shmem
		// beside 25 backends of up to 6.6 MB each).
		{227 << 20, 27, true},
		{capNeeded(27), 27, false},
		{1 << 30, 310, true}, // 300 users on a 1 GB cap
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

// TestQuickstartCap: half the database when that holds the run's backends, else
// what they need, so quickstart's own cap never draws its own warning.
func TestQuickstartCap(t *testing.T) {
	conns := runConnections(16)
	if want := 16 + driver.MEEWorkersFor(16) + 5; conns != want {
		t.Errorf("runConnections(16) = %d, want %d (16 users, the emulator's workers, the timer, the run's lock's two, the sampler and the liveness probe)", conns, want)
	}
	for _, db := range []int64{455 << 20, 2 << 30, 20 << 30} {
		c := quickstartCap(db, conns)
		if c < db/2 || c < capNeeded(conns) {
			t.Errorf("quickstartCap(%d MB) = %d MB: below half the database or below what %d connections need", db>>20, c>>20, conns)
		}
		var warned bool
		warnTightCap(c, conns, func(string, ...any) { warned = true })
		if warned {
			t.Errorf("quickstart's own cap of %d MB for a %d MB database draws the tight-cap warning", c>>20, db>>20)
		}
	}
	if c := quickstartCap(20<<30, conns); c != 10<<30 {
		t.Errorf("a 20 GB database: cap %d MB, want half of it", c>>20)
	}
}
