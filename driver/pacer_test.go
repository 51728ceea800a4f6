package driver

import (
	"math"
	"testing"
	"time"
)

func TestThinkTime(t *testing.T) {
	mean := 2 * time.Second
	for _, tc := range []struct {
		mean time.Duration
		u    float64
		want time.Duration
	}{
		{0, 0.5, 0},
		{mean, 0, 0},
		{mean, 1 - 1/math.E, mean},                      // the mean's quantile
		{mean, 0.5, time.Duration(1386294361)},          // the median
		{mean, 0.999999999, 10 * mean},                  // truncated at 10x
		{mean, 1 - math.Exp(-9.5), time.Duration(19e9)}, // just under the cap
	} {
		got := ThinkTime(tc.mean, tc.u)
		if d := got - tc.want; d < -time.Microsecond || d > time.Microsecond {
			t.Errorf("ThinkTime(%s, %g) = %s, want %s", tc.mean, tc.u, got, tc.want)
		}
	}
}

// TestRateSchedule drives the schedule with explicit times (a fake clock): the
// intended starts, the lag they imply, and the missed slots.
func TestRateSchedule(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	type call struct {
		now      int // ms after t0
		intended int // ms after t0
	}
	for _, tc := range []struct {
		name   string
		rate   float64
		calls  []call
		missAt int // ms
		missed int64
	}{
		{
			name: "on time: callers ask exactly at each slot",
			rate: 10, calls: []call{{0, 100}, {100, 200}, {200, 300}, {300, 400}},
			missAt: 400, missed: 0,
		},
		{
			name: "eager callers queue into future slots",
			rate: 100, calls: []call{{0, 10}, {0, 20}, {0, 30}, {5, 40}},
			missAt: 40, missed: 0,
		},
		{
			name: "a stall keeps the slots' intended times (coordinated omission)",
			rate: 10,
			// Slots at 100 and 200 were taken; nobody came back until 1000 (a 0.8 s
			// stall): the slots due at 300..1000 are owed, oldest first.
			calls:  []call{{0, 100}, {100, 200}, {1000, 300}, {1000, 400}, {1000, 500}, {1001, 600}},
			missAt: 1001, missed: 0,
		},
		{
			name: "slots beyond the horizon are dropped and counted",
			rate: 1,
			// 10 s horizon at 1/s: after 25 s with one start, 10 slots wait in the
			// bucket and the rest were dropped.
			calls:  []call{{0, 1000}, {25000, 16000}},
			missAt: 25000, missed: 25 - 2 - 9,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewRateSchedule(tc.rate, t0)
			for i, c := range tc.calls {
				got := s.Next(at(c.now))
				if d := got.Sub(at(c.intended)); d < -time.Microsecond || d > time.Microsecond {
					t.Errorf("call %d at %d ms: intended %s after t0, want %d ms", i, c.now, got.Sub(t0), c.intended)
				}
			}
			if m := s.Missed(at(tc.missAt)); m != tc.missed {
				t.Errorf("Missed at %d ms = %d, want %d", tc.missAt, m, tc.missed)
			}
		})
	}
}

// A schedule followed by punctual callers delivers its rate exactly.
func TestRateScheduleAchievesRate(t *testing.T) {
	t0 := time.Unix(0, 0)
	s := NewRateSchedule(250, t0)
	now := t0
	n := 0
	for {
		next := s.Next(now)
		if next.After(t0.Add(10 * time.Second)) {
			break
		}
		if next.After(now) {
			now = next
		}
		n++
	}
	if n < 2499 || n > 2501 {
		t.Errorf("%d starts in 10 s at 250/s", n)
	}
	if s.Due(t0.Add(10*time.Second)) != 2500 {
		t.Errorf("Due = %d", s.Due(t0.Add(10*time.Second)))
	}
}

// Owed counts the slots that fell due and wait for a user, none while callers
// keep up.
func TestRateScheduleOwed(t *testing.T) {
	t0 := time.Unix(0, 0)
	s := NewRateSchedule(10, t0)
	if got := s.Owed(t0.Add(50 * time.Millisecond)); got != 0 {
		t.Errorf("owed %d before the first slot, want 0", got)
	}
	s.Next(t0)
	// The slot due at 100 ms was taken; those due at 200..1000 ms were not.
	if got := s.Owed(t0.Add(time.Second)); got != 9 {
		t.Errorf("owed %d after a 0.9 s stall at 10/s, want 9", got)
	}
}
