package driver

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/txn"
)

func customerShares(st results.Step) (map[string]float64, int64) {
	var n int64
	for _, s := range txn.Catalogue {
		if s.Origin == txn.Customer {
			n += st.Transactions[s.Name].Count
		}
	}
	out := map[string]float64{}
	for _, s := range txn.Catalogue {
		if s.Origin == txn.Customer {
			out[s.Name] = float64(st.Transactions[s.Name].Count) / float64(n)
		}
	}
	return out, n
}

// mustRun runs a driver on cfg to the end and returns its steps; any error fails
// the test.
func mustRun(t *testing.T, cfg Config) []results.Step {
	t.Helper()
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := d.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return steps
}

// TestRunFake ramps users on fake executors: steps as planned, the customer mix as
// the deck deals it, the emulator's Trade-Results and Market-Feeds following
// Trade-Orders, and the step's figures filled.
func TestRunFake(t *testing.T) { synctest.Test(t, testRunFake) }

func testRunFake(t *testing.T) {
	m := newFakeMarket()
	cfg := fakeConfig(m, []int{2, 6, 3}, 1500*time.Millisecond, 500*time.Millisecond)
	var ticks int
	var seen []int
	cfg.OnTick = func(l Live) { ticks++ }
	cfg.OnStep = func(st *results.Step) { seen = append(seen, st.Users) }
	cfg.DataMaintenanceEvery = 250 * time.Millisecond
	steps := mustRun(t, cfg)
	if len(steps) != 3 || len(seen) != 3 || seen[1] != 6 {
		t.Fatalf("steps %d, OnStep saw %v", len(steps), seen)
	}
	if ticks < 3 {
		t.Errorf("%d live ticks in a 4.5 s run", ticks)
	}
	for i, st := range steps {
		if math.Abs(st.MeasuredS-1) > 0.05 || st.WarmupS != 0.5 {
			t.Errorf("step %d measured %.3f s after %.1f s warm-up", i, st.MeasuredS, st.WarmupS)
		}
		if st.TPS <= 0 || st.Statements <= 0 || st.Partial {
			t.Errorf("step %d: tps %.1f statements %d partial %v", i, st.TPS, st.Statements, st.Partial)
		}
		var total int64
		for _, tx := range st.Transactions {
			total += tx.Count
		}
		if got := float64(total) / st.MeasuredS; math.Abs(got-st.TPS) > 0.02*st.TPS {
			t.Errorf("step %d: tps %.1f but %d transactions in %.2f s", i, st.TPS, total, st.MeasuredS)
		}
		tr := st.Transactions["Trade-Result"]
		if tr.Count == 0 || math.Abs(st.TPSE/st.TPS-tr.Share) > 0.005 {
			t.Errorf("step %d: tpsE/tps %.4f vs Trade-Result share %.4f", i, st.TPSE/st.TPS, tr.Share)
		}
		if st.Transactions["Trade-Order"].Response == "" {
			t.Errorf("step %d: no encoded histogram", i)
		}
	}
	// Shares over all steps, among the customer transactions.
	var all results.Step
	all.Transactions = map[string]results.TxnStats{}
	for _, st := range steps {
		for name, tx := range st.Transactions {
			a := all.Transactions[name]
			a.Count += tx.Count
			all.Transactions[name] = a
		}
	}
	shares, n := customerShares(all)
	for _, s := range txn.Catalogue {
		if s.Origin != txn.Customer {
			continue
		}
		want := float64(s.Weight) / 890
		if math.Abs(shares[s.Name]-want) > 0.015 {
			t.Errorf("%s share %.3f, want %.3f ± 0.015 (of %d)", s.Name, shares[s.Name], want, n)
		}
	}
	if n := m.cleanups.Load(); n != 1 {
		t.Errorf("Trade-Cleanup ran %d times, want once before the first step", n)
	}
	for i, st := range steps {
		// Every 250 ms on the schedule: 4 in each 1 s window (3 to 5 at the edges).
		if n := st.Transactions["Data-Maintenance"].Count; n < 3 || n > 5 {
			t.Errorf("step %d: %d Data-Maintenance in %.2f s", i, n, st.MeasuredS)
		}
	}
	if m.feeds.Load() == 0 || m.results.Load() < 10 {
		t.Errorf("emulator ran %d Trade-Results and %d Market-Feeds", m.results.Load(), m.feeds.Load())
	}
	// One Market-Feed per TickerBatch/2 Trade-Results (each adds two entries).
	if r, f := m.results.Load(), m.feeds.Load(); math.Abs(float64(r)/float64(f)-10) > 2 {
		t.Errorf("%d Trade-Results per Market-Feed, want about 10", r/f)
	}
}

// TestRunRate: with --rate below capacity the achieved rate of all transaction
// starts (the users', the emulator's and the timer's) is within 2 %, and the
// emulator did take part of it.
func TestRunRate(t *testing.T) { synctest.Test(t, testRunRate) }

func testRunRate(t *testing.T) {
	m := newFakeMarket()
	cfg := fakeConfig(m, []int{8}, 3*time.Second, time.Second)
	cfg.Rate = 300
	steps := mustRun(t, cfg)
	st := steps[0]
	var all int64
	for _, f := range st.Transactions {
		all += f.Count
	}
	_, customer := customerShares(st)
	if got := float64(all) / st.MeasuredS; math.Abs(got-300) > 0.02*300 {
		t.Errorf("achieved %.1f starts/s (%d customer, %d all) at --rate 300", got, customer, all)
	}
	if market := st.Transactions["Trade-Result"].Count + st.Transactions["Market-Feed"].Count; market == 0 || customer+market > all {
		t.Errorf("%d emulator starts of %d: the emulator's share is not in the total", market, all)
	}
	if st.Lag.Missed != 0 {
		t.Errorf("lag %+v, driver %+v", st.Lag, st.Driver)
	}
}

// TestRunStall: a two-second stall of the "server" during a rate-limited step shows
// in the response times (from the intended start) but not in the service times.
func TestRunStall(t *testing.T) { synctest.Test(t, testRunStall) }

func testRunStall(t *testing.T) {
	m := newFakeMarket()
	cfg := fakeConfig(m, []int{4}, 6*time.Second, time.Second)
	cfg.Rate = 200
	go func() {
		time.Sleep(2500 * time.Millisecond)
		m.stallUntil.Store(time.Now().Add(2 * time.Second).UnixNano())
	}()
	steps := mustRun(t, cfg)
	ts := steps[0].Transactions["Trade-Status"]
	t.Logf("Trade-Status: p95 %.1f ms, p99 %.1f ms, service p95 %.1f ms; lag %+v", ts.P95MS, ts.P99MS, ts.ServiceP95MS, steps[0].Lag)
	if ts.P95MS < 500 {
		t.Errorf("response p95 %.1f ms: the stall's missed slots did not keep their intended starts", ts.P95MS)
	}
	if ts.ServiceP95MS > 50 {
		t.Errorf("service p95 %.1f ms: service time should not carry the stall", ts.ServiceP95MS)
	}
	if steps[0].Lag.Late < 100 || steps[0].Lag.MaxMS < 1000 {
		t.Errorf("lag %+v: the late starts after the stall were not counted", steps[0].Lag)
	}
}

// TestRunInterrupt: an interrupt keeps the finished steps and the partial one.
func TestRunInterrupt(t *testing.T) { synctest.Test(t, testRunInterrupt) }

func testRunInterrupt(t *testing.T) {
	m := newFakeMarket()
	cfg := fakeConfig(m, []int{2, 4, 8}, 1500*time.Millisecond, 300*time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(2500*time.Millisecond, cancel)
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := d.Run(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v, want context.Canceled", err)
	}
	if len(steps) != 2 || steps[0].Partial || !steps[1].Partial {
		t.Fatalf("steps %d, partial flags %v", len(steps), func() (p []bool) {
			for _, s := range steps {
				p = append(p, s.Partial)
			}
			return
		}())
	}
	if s := steps[1]; s.MeasuredS < 0.3 || s.MeasuredS > 0.8 || s.TPS <= 0 {
		t.Errorf("partial step measured %.2f s, tps %.1f", s.MeasuredS, s.TPS)
	}
}

// failingExec fails every transaction, as a database without the schema would.
type failingExec struct{}

func (failingExec) Run(ctx context.Context, _ txn.Kind) (txn.Outcome, error) {
	// Even a failure takes a round trip; an executor that fails in no time would spin
	// its user in a loop that never lets the bubble's virtual time move.
	_ = RealClock{}.Sleep(ctx, time.Millisecond)
	return txn.Outcome{Attempts: 1}, errors.New(`relation "trade" does not exist`)
}
func (failingExec) TradeResult(context.Context, int64, int64) (txn.Outcome, error) {
	return txn.Outcome{}, errors.New("no")
}
func (failingExec) MarketFeed(context.Context, []txn.TickerEntry) (txn.Outcome, error) {
	return txn.Outcome{}, errors.New("no")
}

// TestRunAllFailing: a run where nothing succeeds stops with the first error instead
// of measuring failures for the whole plan.
func TestRunAllFailing(t *testing.T) { synctest.Test(t, testRunAllFailing) }

func testRunAllFailing(t *testing.T) {
	m := newFakeMarket()
	cfg := fakeConfig(m, []int{2}, time.Minute, time.Second)
	// Trade-Cleanup (on the market's executors) passes; the users' transactions fail.
	cfg.NewUserExecutor = func(int) txn.Executor { return failingExec{} }
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = d.Run(context.Background())
	if !errors.Is(err, ErrAllFailing) || !strings.Contains(err.Error(), `relation "trade" does not exist`) {
		t.Fatalf("Run = %v", err)
	}
	if time.Since(start) > 10*time.Second {
		t.Errorf("took %s to give up", time.Since(start))
	}
}
