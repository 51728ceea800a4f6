package driver

import (
	"context"
	"errors"
	"math"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brokerbench/brokerbench/results"
)

// runWithOutage runs three 5 s steps (1 s warm-up) on fake executors whose server
// is down from 6.5 s into the run until `until` (0: for good), with a grace of
// grace. It returns the steps, Run's error and the longest time into a step the
// live line showed.
func runWithOutage(t *testing.T, until time.Duration, grace time.Duration) ([]results.Step, error, time.Duration) {
	steps, err, maxInStep, _ := runWithOutageDriver(t, until, grace)
	return steps, err, maxInStep
}

func runWithOutageDriver(t *testing.T, until time.Duration, grace time.Duration) ([]results.Step, error, time.Duration, *Driver) {
	m := newFakeMarket()
	cfg := fakeConfig(m, []int{2, 2, 2}, 5*time.Second, time.Second)
	cfg.LostGrace = grace
	var mu sync.Mutex
	var maxInStep time.Duration
	cfg.OnTick = func(l Live) {
		mu.Lock()
		maxInStep = max(maxInStep, l.InStep)
		mu.Unlock()
	}
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	m.downFrom.Store(start.Add(6500 * time.Millisecond).UnixNano())
	if until == 0 {
		m.downUntil.Store(math.MaxInt64)
	} else {
		m.downUntil.Store(start.Add(until).UnixNano())
	}
	steps, err := d.Run(context.Background())
	mu.Lock()
	defer mu.Unlock()
	return steps, err, maxInStep, d
}

// TestServerLost: a server that stays down longer than the grace period ends the
// run with a ServerLostError in the step it went down in; the finished step is kept
// whole, the cut one is marked server-lost, and the live line never counts past a
// step.
func TestServerLost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		steps, err, maxInStep := runWithOutage(t, 0, time.Second)
		var lost *ServerLostError
		if !IsServerLost(err) || !errors.As(err, &lost) {
			t.Fatalf("Run returned %v, want a ServerLostError", err)
		}
		// The failures began at 6.5 s, seen by the tick at 7 s or (when that tick's
		// second still had successes) at 8 s; the grace runs a second more, so the
		// run ends inside step 2 (5 s to 10 s).
		if at := lost.At.Sub(start); at < 6*time.Second || at > 8*time.Second {
			t.Errorf("lost at %s into the run, want between 6 s and 8 s", at)
		}
		if lost.Refused == 0 {
			t.Error("no refused connection counted")
		}
		if len(steps) != 2 {
			t.Fatalf("%d steps, want the finished one and the cut one", len(steps))
		}
		if steps[0].Partial || steps[0].Faults != nil || steps[0].TPS <= 0 {
			t.Errorf("step 1 %+v: should be whole and clean", steps[0])
		}
		cut := steps[1]
		if !cut.Partial || cut.Faults == nil || !cut.Faults.ServerLost || !slices.Contains(cut.Flags, results.FlagServerLost) {
			t.Errorf("step 2: partial %v faults %+v flags %v: not marked server-lost", cut.Partial, cut.Faults, cut.Flags)
		}
		if maxInStep > 5*time.Second {
			t.Errorf("the live line counted %s into a 5 s step", maxInStep)
		}
	})
}

// TestServerOutageRiddenOut: a server down for 1.5 s within a 5 s grace period
// costs no step: the run finishes all three, and the step the outage fell in is
// flagged with its length.
func TestServerOutageRiddenOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		steps, err, _ := runWithOutage(t, 8*time.Second, 5*time.Second)
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		if len(steps) != 3 {
			t.Fatalf("%d steps, want 3", len(steps))
		}
		f := steps[1].Faults
		if f == nil || f.ServerOutages != 1 || f.ServerDownS < 1 || f.ServerDownS > 3 || !slices.Contains(steps[1].Flags, results.FlagServerOutage) {
			t.Errorf("step 2 faults %+v flags %v: want one outage of about 1.5 s, flagged", f, steps[1].Flags)
		}
		if f != nil && f.ServerLost {
			t.Error("step 2 marked lost")
		}
		for _, i := range []int{0, 2} {
			if steps[i].Faults != nil && steps[i].Faults.ServerOutages > 0 {
				t.Errorf("step %d flagged with an outage it did not see", i+1)
			}
		}
		if steps[2].TPS <= 0 {
			t.Errorf("step 3 ran nothing after the server came back: %+v", steps[2])
		}
	})
}

// TestServerLostAtEnd: a server that went down within the grace period of the
// run's end: every step ran (Run returns nil), and DownAtEnd says the server is
// down, so the caller does not check a dead server.
func TestServerLostAtEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		steps, err, _, d := runWithOutageDriver(t, 0, 30*time.Second)
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		var lost *ServerLostError
		if !errors.As(d.DownAtEnd(), &lost) || !lost.AtEnd {
			t.Fatalf("DownAtEnd returned %v, want a ServerLostError at the end", d.DownAtEnd())
		}
		if len(steps) != 3 {
			t.Errorf("%d steps, want all 3", len(steps))
		}
	})
}
