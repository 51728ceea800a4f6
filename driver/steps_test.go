package driver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/results"
)

// doublingSource runs 2 users, then doubles them while the last step committed
// anything, for at most max steps; a level it cannot run stops the run.
type doublingSource struct {
	max   int
	bad   int // 1-based step to give zero users; 0: never
	lasts []*results.Step
}

func (s *doublingSource) Next(last *results.Step) (Level, bool) {
	s.lasts = append(s.lasts, last)
	n := len(s.lasts)
	switch {
	case n > s.max:
		return Level{}, false
	case n == s.bad:
		return Level{Users: 0, Step: time.Second}, true
	case last == nil:
		return Level{Users: 2, Step: 800 * time.Millisecond, Warmup: 200 * time.Millisecond}, true
	case last.TPS == 0:
		return Level{}, false
	}
	return Level{Users: 2 * last.Users, Step: 800 * time.Millisecond, Warmup: 200 * time.Millisecond}, true
}

func (s *doublingSource) Steps() int { return 0 }

// TestStepSource: a source chooses each step from the one before, sees the step
// the probes annotated, and a level it gets wrong stops the run with its error.
func TestStepSource(t *testing.T) {
	m := newFakeMarket()
	cfg := fakeConfig(m, nil, 0, 0) // the source replaces the plan
	src := &doublingSource{max: 3}
	cfg.Steps = src
	var probed []*results.Step
	opened := 0
	cfg.Probes = []WindowProbe{func() func(*results.Step) {
		opened++
		return func(st *results.Step) { probed = append(probed, st) }
	}}
	var lines []string
	cfg.OnTick = func(l Live) { lines = append(lines, l.String()) }
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := d.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 3 || steps[0].Users != 2 || steps[1].Users != 4 || steps[2].Users != 8 {
		t.Fatalf("steps: %+v", steps)
	}
	if opened != 3 || len(probed) != 3 || len(src.lasts) != 4 || src.lasts[0] != nil {
		t.Fatalf("probes opened %d closed %d; Next called %d times", opened, len(probed), len(src.lasts))
	}
	for i, p := range probed {
		if src.lasts[i+1] != p {
			t.Errorf("step %d: the source did not get the step the probe annotated", i+1)
		}
	}
	if len(lines) == 0 || strings.Contains(lines[0], "/") || !strings.HasPrefix(lines[0], "step ") {
		t.Errorf("live lines of a source of unknown length: %q", lines)
	}

	bad := fakeConfig(newFakeMarket(), nil, 0, 0)
	bad.Steps = &doublingSource{max: 3, bad: 2}
	d, err = New(bad)
	if err != nil {
		t.Fatal(err)
	}
	steps, err = d.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "step 2: --users: 0 users") || len(steps) != 1 {
		t.Fatalf("bad second level: %d steps, %v", len(steps), err)
	}
}
