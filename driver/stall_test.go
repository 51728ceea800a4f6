package driver

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brokerbench/brokerbench/results"
)

// stalledProbe is a liveness probe of the fake server: it gets no answer while the
// server is stalled (or, with slow, answers at once: a slow server, not a stopped one).
func stalledProbe(m *fakeMarket, slow bool) func(context.Context) error {
	return func(ctx context.Context) error {
		if d := time.Until(time.Unix(0, m.stallUntil.Load())); d > 0 && !slow {
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	}
}

// runStalled runs three 5 s steps (1 s warm-up) whose server stalls from at into
// the run for stall, with a grace of grace; slow makes the probe answer throughout.
func runStalled(t *testing.T, ctx context.Context, at, stall, grace time.Duration, slow bool) ([]results.Step, error) {
	m := newFakeMarket()
	cfg := fakeConfig(m, []int{2, 2, 2}, 5*time.Second, time.Second)
	cfg.LostGrace = grace
	cfg.ShutdownGrace = time.Minute
	cfg.Probe = stalledProbe(m, slow)
	go func() {
		time.Sleep(at)
		m.stallUntil.Store(time.Now().Add(stall).UnixNano())
	}()
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return d.Run(ctx)
}

// TestStallRiddenOut: a 4 s stall within a 10 s grace costs no step; the step it
// ended in is flagged server-stall with its length, and no other is.
func TestStallRiddenOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		steps, err := runStalled(t, context.Background(), 6500*time.Millisecond, 4*time.Second, 10*time.Second, false)
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		var flagged int
		for i, st := range steps {
			if f := st.Faults; f != nil && f.ServerStalls > 0 {
				flagged++
				if f.ServerStallS < 3 || f.ServerStallS > 6 || !slices.Contains(st.Flags, results.FlagServerStall) {
					t.Errorf("step %d faults %+v flags %v: want one stall of about 4 s, flagged", i+1, f, st.Flags)
				}
			}
		}
		if len(steps) != 3 || flagged != 1 {
			t.Errorf("%d steps, %d flagged with a stall; want 3 and 1", len(steps), flagged)
		}
	})
}

// TestStallLost: a stall longer than the grace ends the run as a stopped server,
// dated from its last answer, within the grace and a few ticks.
func TestStallLost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		steps, err := runStalled(t, context.Background(), 5500*time.Millisecond, time.Hour, 3*time.Second, false)
		var lost *ServerLostError
		if !errors.As(err, &lost) || !lost.Stalled {
			t.Fatalf("Run returned %v, want a stalled ServerLostError", err)
		}
		if at := lost.At.Sub(start); at < 5*time.Second || at > 6*time.Second {
			t.Errorf("stopped answering at %s into the run, want about 5.5 s", at)
		}
		if took := time.Since(start); took > 5500*time.Millisecond+stallMin+3*time.Second {
			t.Errorf("the run took %s to end", took)
		}
		if len(steps) != 2 || !steps[1].Partial || !slices.Contains(steps[1].Flags, results.FlagServerLost) {
			t.Errorf("%d steps: want the finished one and the cut one marked lost", len(steps))
		} else if steps[0].Partial || steps[0].TPS <= 0 {
			t.Errorf("step 1 was not kept whole: partial %v, %.0f tps", steps[0].Partial, steps[0].TPS)
		}
		if !strings.Contains(err.Error(), "the server stopped answering at ") {
			t.Errorf("the loss reads %q", err)
		}
	})
}

// TestSlowServerNotStalled: transactions that wait longer than the grace on a
// server that still answers the probe (a lock, a slow disk) are not a stall.
func TestSlowServerNotStalled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		steps, err := runStalled(t, context.Background(), 6500*time.Millisecond, 8*time.Second, 3*time.Second, true)
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		for i, st := range steps {
			if st.Faults != nil && (st.Faults.ServerStalls > 0 || st.Faults.ServerLost) {
				t.Errorf("step %d of a slow server: faults %+v", i+1, st.Faults)
			}
		}
	})
}

// TestStallInterrupted: an interrupt during a stall ends the run at once, not after
// the one-minute shutdown grace.
func TestStallInterrupted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(11*time.Second, cancel)
		start := time.Now()
		steps, err := runStalled(t, ctx, 6500*time.Millisecond, time.Hour, time.Hour, false)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Run = %v, want context.Canceled", err)
		}
		if took := time.Since(start); took > 13*time.Second {
			t.Errorf("the interrupted run took %s", took)
		}
		if len(steps) < 1 || steps[0].Partial {
			t.Errorf("steps %+v: the finished step was not kept", steps)
		}
	})
}

// TestLostLineNamesKinds: the lost-server line counts refusals, resets and timeouts
// apart, and a silence without any is told as a server that stopped answering.
func TestLostLineNamesKinds(t *testing.T) {
	at := time.Date(2026, 1, 2, 23, 41, 7, 0, time.Local)
	for _, tc := range []struct {
		e    ServerLostError
		want string
	}{
		{ServerLostError{At: at, Refused: 370, Reset: 12, TimedOut: 1, Grace: 10 * time.Second},
			"lost the database server at 23:41:07 (370 connections refused, 12 reset, 1 timed out, none answered for 10s)"},
		{ServerLostError{At: at, Reset: 1, Grace: 10 * time.Second},
			"lost the database server at 23:41:07 (1 connection reset, none answered for 10s)"},
		{ServerLostError{At: at, Stalled: true, InFlight: 3, TimedOut: 2, Grace: 10 * time.Second},
			"the server stopped answering at 23:41:07 (3 transaction(s) in flight, 2 connections timed out; no answer to them or to the liveness probe for 10s)"},
		{ServerLostError{At: at, Stalled: true, InFlight: 1, AtEnd: true},
			"the server stopped answering at 23:41:07 (1 transaction(s) in flight; still silent when the last step ended)"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}
