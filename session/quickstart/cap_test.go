package quickstart

import (
	"testing"

	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/session/run"
	"github.com/brokerbench/brokerbench/session/target"
)

// TestQuickstartCap: half the database when that holds the run's backends, else
// what they need, so quickstart's own cap never draws its own warning.
func TestQuickstartCap(t *testing.T) {
	conns := run.Connections(16)
	if want := 16 + driver.MEEWorkersFor(16) + 5; conns != want {
		t.Errorf("run.Connections(16) = %d, want %d (16 users, the emulator's workers, the timer, the run's lock's two, the sampler and the liveness probe)", conns, want)
	}
	for _, db := range []int64{455 << 20, 2 << 30, 20 << 30} {
		c := capFor(db, conns)
		if c < db/2 || c < target.CapNeeded(conns) {
			t.Errorf("capFor(%d MB) = %d MB: below half the database or below what %d connections need", db>>20, c>>20, conns)
		}
		var warned bool
		target.WarnTightCap(c, conns, func(string, ...any) { warned = true })
		if warned {
			t.Errorf("quickstart's own cap of %d MB for a %d MB database draws the tight-cap warning", c>>20, db>>20)
		}
	}
	if c := capFor(20<<30, conns); c != 10<<30 {
		t.Errorf("a 20 GB database: cap %d MB, want half of it", c>>20)
	}
}
