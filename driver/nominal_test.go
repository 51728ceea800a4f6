package driver

import (
	"context"
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/schema"
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
	cfg.NominalTPSE = results.NominalTPSE(cfg.Scale.Customers)
	cfg.Think = time.Second // ignored under nominal pacing
	cfg.DataMaintenanceEvery = -1
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := d.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range steps {
		results.SetNominal(&st, cfg.Scale.Customers)
		n := float64(st.Transactions["Trade-Result"].Count)
		sd := 100 / math.Sqrt(n)
		t.Logf("%d users: tpsE %.2f, %.1f %% of nominal %.0f (Trade-Results %.0f, ±%.1f %%), tps %.1f",
			st.Users, st.TPSE, st.NominalPercent, cfg.NominalTPSE, n, sd, st.TPS)
		if st.NominalPercent < results.NominalFloorPercent || st.NominalPercent > results.NominalCeilingPercent || math.Abs(st.NominalPercent-100) > 4*sd {
			t.Errorf("%d users: %.1f %% of nominal, want 80-102 %% and 100 ± %.1f %%", st.Users, st.NominalPercent, 4*sd)
		}
		if results.HasFlag(&st, results.FlagOverNominal) {
			t.Errorf("%d users: flagged %v", st.Users, st.Flags)
		}
	}
}
