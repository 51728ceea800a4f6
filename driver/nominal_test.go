package driver

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/schema/rnd"
	"github.com/brokerbench/brokerbench/txn"
)

// TestNominalThink pins the arithmetic of --pace nominal (nominal.go).
func TestNominalThink(t *testing.T) {
	if got := TradeResultsPerCustomerTxn; math.Abs(got-100.0/890) > 1e-12 {
		t.Errorf("Trade-Results per customer transaction %.6f, want 100/890", got)
	}
	if got := NominalThink(10, 2); got.Round(time.Millisecond) != 562*time.Millisecond {
		t.Errorf("10 users at 2 tpsE: think %s, want 562ms", got)
	}
	near := func(a, b time.Duration) bool { return (a - b).Abs() <= time.Microsecond }
	if !near(NominalThink(20, 2), 2*NominalThink(10, 2)) || !near(NominalThink(10, 4), NominalThink(5, 2)) {
		t.Errorf("think time not proportional to users per tpsE")
	}
	if NominalThink(0, 2) != 0 || NominalThink(10, 0) != 0 {
		t.Errorf("no users or no target: want no think time")
	}
}

// TestRunNominalPace runs --pace nominal on fake executors in virtual time, long
// enough for the price wave to release the limit orders (one 900 s period), at two
// user counts: each step's tpsE is the nominal one for the customers within the
// reference's 80-102 %, and within the Poisson noise of the window's Trade-Result
// count of 100 %, whatever the user count.
func TestRunNominalPace(t *testing.T) { synctest.Test(t, testRunNominalPace) }

func testRunNominalPace(t *testing.T) {
	m := newFakeMarket()
	cfg := fakeConfig(m, []int{10, 40}, 20*time.Minute, 16*time.Minute)
	cfg.Scale = schema.Scale{Customers: 10000, TradeDays: 5}
	cfg.NominalTPSE = figures.NominalTPSE(cfg.Scale.Customers)
	cfg.Think = time.Second // ignored under nominal pacing
	cfg.DataMaintenanceEvery = -1
	steps := mustRun(t, cfg)
	for _, st := range steps {
		figures.SetNominal(&st, cfg.Scale.Customers)
		n := float64(st.Transactions["Trade-Result"].Count)
		sd := 100 / math.Sqrt(n)
		t.Logf("%d users: tpsE %.2f, %.1f %% of nominal %.0f (Trade-Results %.0f, ±%.1f %%), tps %.1f",
			st.Users, st.TPSE, st.NominalPercent, cfg.NominalTPSE, n, sd, st.TPS)
		if st.NominalPercent < figures.NominalFloorPercent || st.NominalPercent > figures.NominalCeilingPercent || math.Abs(st.NominalPercent-100) > 4*sd {
			t.Errorf("%d users: %.1f %% of nominal, want 80-102 %% and 100 ± %.1f %%", st.Users, st.NominalPercent, 4*sd)
		}
		if results.HasFlag(&st, figures.FlagOverNominal) {
			t.Errorf("%d users: flagged %v", st.Users, st.Flags)
		}
	}
}

// TestNominalPaceIgnoresResponseTimes: under --pace nominal each user's starts
// follow a schedule drawn in advance, so a database answering in 2, 200 or 400 ms is
// offered the same customer transactions per second, within 2 % of the nominal
// rate's, whenever the users' think time leaves room for the response time; where it
// does not (2 users, 112 ms think time, 400 ms responses) the step says it fell
// behind instead of quietly offering less. The fake database answers the users in
// the given time and the emulator at once, so only the users' pacing is measured.
func TestNominalPaceIgnoresResponseTimes(t *testing.T) {
	cases := []struct {
		users  int
		lat    time.Duration
		behind bool
	}{
		{10, 2 * time.Millisecond, false},
		{10, 200 * time.Millisecond, false},
		{10, 400 * time.Millisecond, false},
		{4, 200 * time.Millisecond, false},
		{2, 400 * time.Millisecond, true},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%d users at %s", c.users, c.lat), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				st := runNominalFake(t, c.users, c.lat)
				var starts int64
				for _, s := range txn.Catalogue {
					if s.Origin == txn.Customer {
						starts += st.Transactions[s.Name].Count
					}
				}
				offered := float64(starts) / st.MeasuredS * TradeResultsPerCustomerTxn
				nominal := figures.NominalTPSE(1000)
				t.Logf("offered %.3f tpsE of nominal %.1f (%.1f %%), %d customer starts, owed %d, dropped %d",
					offered, nominal, offered/nominal*100, starts, st.Lag.Owed, st.Lag.Missed)
				if got := figures.BehindSchedule(&st); got != c.behind {
					t.Errorf("behind schedule %v (owed %d, dropped %d), want %v", got, st.Lag.Owed, st.Lag.Missed, c.behind)
				}
				if !c.behind && math.Abs(offered/nominal-1) > 0.02 {
					t.Errorf("offered %.1f %% of nominal, want within 2 %%", offered/nominal*100)
				}
			})
		})
	}
}

// runNominalFake runs one 20-minute step of users under nominal pacing at 1,000
// customers against fake executors whose user transactions take lat.
func runNominalFake(t *testing.T, users int, lat time.Duration) results.Step {
	t.Helper()
	m := newFakeMarket()
	cfg := fakeConfig(m, []int{users}, 21*time.Minute, time.Minute)
	cfg.NominalTPSE = figures.NominalTPSE(cfg.Scale.Customers)
	cfg.DataMaintenanceEvery = -1
	cfg.NewUserExecutor = func(w int) txn.Executor {
		return &fakeExec{m: m, r: rnd.New(7, uint64(w)), clock: cfg.Clock, lat: lat}
	}
	steps := mustRun(t, cfg)
	if len(steps) != 1 {
		t.Fatalf("%d steps, want 1", len(steps))
	}
	return steps[0]
}

// TestNominalShortSaysWhy: a step paced at the nominal rate in a run's first minutes
// reads below nominal, since the limit orders placed so far wait for the price wave;
// the step records how many still wait, and the note under it says so with its figure.
// After a wave period (TestRunNominalPace) the same pacing lands within 80-102 %.
func TestNominalShortSaysWhy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newFakeMarket()
		cfg := fakeConfig(m, []int{10}, 2*time.Minute, 30*time.Second)
		cfg.Scale = schema.Scale{Customers: 10000, TradeDays: 5}
		cfg.NominalTPSE = figures.NominalTPSE(cfg.Scale.Customers)
		cfg.DataMaintenanceEvery = -1
		st := mustRun(t, cfg)[0]
		figures.SetNominal(&st, cfg.Scale.Customers)
		if st.LimitOrders == nil || st.LimitOrders.Waiting == 0 {
			t.Fatalf("limit orders %+v: want some still waiting two minutes into the run", st.LimitOrders)
		}
		t.Logf("tpsE %.1f %% of nominal, limit orders %+v", st.NominalPercent, *st.LimitOrders)
		if st.NominalPercent >= figures.NominalShortPercent {
			t.Fatalf("%.1f %% of nominal two minutes into the run: want it short", st.NominalPercent)
		}
		run := &results.Run{Options: map[string]any{"pace": "nominal"}}
		note := figures.NominalShortNote(run, &st)
		if want := fmt.Sprintf("%d limit orders were still waiting", st.LimitOrders.Waiting+st.LimitOrders.Triggered); !strings.Contains(note, want) {
			t.Errorf("note %q lacks %q", note, want)
		}
		if figures.NominalShortNote(&results.Run{}, &st) != "" {
			t.Error("a step not paced at nominal got the note")
		}
	})
}
