package driver

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/txn"
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
// In a synctest bubble, as every fake run is: a source that stops after a step
// that committed nothing must not see one only because a busy machine stalled
// the test past a step's whole window.
func TestStepSource(t *testing.T) { synctest.Test(t, testStepSource) }

func testStepSource(t *testing.T) {
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
	steps := mustRun(t, cfg)
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
	d, err := New(bad)
	if err != nil {
		t.Fatal(err)
	}
	steps, err = d.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "step 2: --users: 0 users") || len(steps) != 1 {
		t.Fatalf("bad second level: %d steps, %v", len(steps), err)
	}
}

// roleExec counts the transactions an executor of the wrong factory runs: users
// run the customer mix, the market's executors the emulator's and the timer's.
type roleExec struct {
	txn.Executor
	market bool
	wrong  *atomic.Int64
}

func (e roleExec) Run(ctx context.Context, k txn.Kind) (txn.Outcome, error) {
	if timer := k == txn.TradeCleanup || k == txn.DataMaintenance; timer != e.market {
		e.wrong.Add(1)
	}
	return e.Executor.Run(ctx, k)
}

func (e roleExec) TradeResult(ctx context.Context, id, price int64) (txn.Outcome, error) {
	if !e.market {
		e.wrong.Add(1)
	}
	return e.Executor.TradeResult(ctx, id, price)
}

func (e roleExec) MarketFeed(ctx context.Context, entries []txn.TickerEntry) (txn.Outcome, error) {
	if !e.market {
		e.wrong.Add(1)
	}
	return e.Executor.MarketFeed(ctx, entries)
}

// TestExecutorFactories: each user gets a user executor on its own stream; the
// emulator's workers and the timer get the market's, on streams no user has.
func TestExecutorFactories(t *testing.T) { synctest.Test(t, testExecutorFactories) }

func testExecutorFactories(t *testing.T) {
	m := newFakeMarket()
	cfg := fakeConfig(m, []int{3, 5}, 800*time.Millisecond, 200*time.Millisecond)
	cfg.DataMaintenanceEvery = 200 * time.Millisecond
	var wrong atomic.Int64
	var mu sync.Mutex
	users, market := map[int]bool{}, map[int]bool{}
	inner := cfg.NewUserExecutor
	cfg.NewUserExecutor = func(stream int) txn.Executor {
		mu.Lock()
		users[stream] = true
		mu.Unlock()
		return roleExec{inner(stream), false, &wrong}
	}
	cfg.NewMarketExecutor = func(stream int) txn.Executor {
		mu.Lock()
		market[stream] = true
		mu.Unlock()
		return roleExec{inner(stream), true, &wrong}
	}
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(users) != 5 || !users[0] || !users[4] {
		t.Errorf("user streams %v, want 0 to 4", users)
	}
	if len(market) != cfg.Market.Workers+1 {
		t.Errorf("%d market streams, want %d workers and the timer", len(market), cfg.Market.Workers)
	}
	for s := range market {
		if s < MaxUsers {
			t.Errorf("market stream %d could be a user's", s)
		}
	}
	if n := wrong.Load(); n > 0 || m.results.Load() == 0 {
		t.Errorf("%d transactions on the wrong factory's executor; %d Trade-Results", n, m.results.Load())
	}
}
