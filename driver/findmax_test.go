package driver

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/schema/rnd"
	"github.com/brokerbench/brokerbench/txn"
)

// fakeDB is a database of known capacity: a probe passes when its load is at most
// capacity; from driverBound up (when set) the driver itself is the bottleneck.
type fakeDB struct {
	capacity, driverBound float64
	// estimate is what an unpaced calibration probe measures, as a share of the
	// capacity: below 1 when the users limit it, above when it breaks the limits.
	estimate  float64
	coldFirst bool // the first probe fails whatever its load (a cold cache)
	// unsteady: passing probes at these loads are unsteady the first time.
	unsteady map[float64]bool
	// flaky: probes at these loads fail the first time whatever the capacity.
	flaky    map[float64]bool
	probes   []float64
	cancelAt int // cancel ctx during this probe (1-based), 0: never
	cancel   context.CancelFunc
}

func (f *fakeDB) Probe(ctx context.Context, req ProbeRequest) (ProbeOutcome, error) {
	f.probes = append(f.probes, req.Load)
	if req.N == f.cancelAt {
		f.cancel()
		return ProbeOutcome{}, ctx.Err()
	}
	out := ProbeOutcome{Step: req.N - 1, TPS: min(req.Load, f.capacity), TPSE: min(req.Load, f.capacity) / 10}
	if req.Load == 0 {
		out.TPS = f.capacity * f.estimate
		return out, nil
	}
	switch {
	case f.flaky[req.Load]:
		delete(f.flaky, req.Load)
		out.Why, out.Limiting = "Trade-Status p90 1 s > 1 s", "Trade-Status"
	case f.coldFirst && req.N == 1:
		out.Why, out.Limiting = "Market-Feed p90 2.1 s > 2 s", "Market-Feed"
	case f.driverBound > 0 && req.Load >= f.driverBound:
		out.DriverBound, out.Why = true, "driver CPU 190 % of 2 cores"
	case req.Load <= f.capacity:
		out.Pass = true
		out.Unsteady = f.unsteady[req.Load]
		delete(f.unsteady, req.Load)
	default:
		out.Why, out.Limiting = "Trade-Status p90 1.4 s > 1 s", "Trade-Status"
	}
	return out, nil
}

func TestFindMaxAgainstKnownCapacity(t *testing.T) {
	base := SearchConfig{Start: 10, Growth: 2, Resolution: 0.05, MaxProbes: 20}
	for _, tc := range []struct {
		name        string
		cfg         SearchConfig
		capacity    float64
		driverBound float64
		coldFirst   bool
		cancelAt    int
		stopped     string
		best        float64 // expected best load when exact; 0: check the capacity bracket
		noBest      bool
	}{
		{name: "capacity between doublings", cfg: base, capacity: 437, stopped: StopResolved},
		{name: "capacity on a probe", cfg: base, capacity: 160, stopped: StopResolved},
		{name: "capacity just above the start", cfg: base, capacity: 10.3, stopped: StopResolved},
		{name: "capacity below the start: shrinks first", cfg: base, capacity: 3.3, stopped: StopResolved},
		{name: "a cold first probe is confirmed, not believed", cfg: base, capacity: 437, coldFirst: true, stopped: StopResolved},
		{name: "a cold first probe above the capacity", cfg: base, capacity: 7.7, coldFirst: true, stopped: StopResolved},
		{name: "fine resolution", cfg: SearchConfig{Start: 10, Growth: 2, Resolution: 0.01, MaxProbes: 30}, capacity: 777, stopped: StopResolved},
		{name: "growth x3", cfg: SearchConfig{Start: 5, Growth: 3, Resolution: 0.05, MaxProbes: 20}, capacity: 1234, stopped: StopResolved},
		{name: "nothing passes", cfg: SearchConfig{Start: 10, Growth: 2, Resolution: 0.05, MaxProbes: 20, Floor: 1}, capacity: 0.5, stopped: StopNonePassed, noBest: true},
		{name: "driver bottleneck before the capacity", cfg: base, capacity: 1000, driverBound: 300, stopped: StopDriver, best: 160},
		{name: "driver bottleneck at the first probe", cfg: base, capacity: 1000, driverBound: 5, stopped: StopDriver, noBest: true},
		{name: "bounded by --max-steps", cfg: SearchConfig{Start: 10, Growth: 2, Resolution: 0.05, MaxProbes: 4}, capacity: 1e6, stopped: StopMaxProbes, best: 80},
		{name: "interrupted keeps the best so far", cfg: base, capacity: 1e6, cancelAt: 3, stopped: StopInterrupt, best: 20},
		{name: "ceiling", cfg: SearchConfig{Start: 10, Growth: 2, Resolution: 0.05, MaxProbes: 20, Ceiling: 50}, capacity: 1e6, stopped: StopCeiling, best: 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			db := &fakeDB{capacity: tc.capacity, driverBound: tc.driverBound, coldFirst: tc.coldFirst, cancelAt: tc.cancelAt, cancel: cancel}
			res, err := FindMax(ctx, tc.cfg, db)
			if (err != nil) != (tc.cancelAt > 0) {
				t.Fatalf("err = %v", err)
			}
			if res.Stopped != tc.stopped {
				t.Fatalf("stopped %q (%s), want %q; probes %v", res.Stopped, res.Note, tc.stopped, db.probes)
			}
			if len(db.probes) > tc.cfg.MaxProbes {
				t.Errorf("%d probes, --max-steps %d", len(db.probes), tc.cfg.MaxProbes)
			}
			if tc.coldFirst && tc.capacity > tc.cfg.Start && (len(db.probes) < 2 || !strings.Contains(fmt.Sprint(res.Probes), "confirming 10: it failed (Market-Feed")) {
				t.Errorf("the cold first probe was not confirmed: %v", db.probes)
			}
			if len(res.Probes) != len(db.probes)-boolInt(tc.cancelAt > 0) {
				t.Errorf("%d probes recorded, %d run", len(res.Probes), len(db.probes))
			}
			if tc.noBest {
				if res.Best != nil {
					t.Errorf("best %v, want none", res.Best.Load)
				}
				return
			}
			if res.Best == nil {
				t.Fatalf("no best; probes %v", db.probes)
			}
			if tc.best > 0 {
				if res.Best.Load != tc.best {
					t.Errorf("best %v, want %v; probes %v", res.Best.Load, tc.best, db.probes)
				}
				return
			}
			// Resolved: the capacity lies between the best and the next probe up,
			// which are within the resolution of each other.
			if res.NextUp == nil {
				t.Fatalf("no failing probe above the best; probes %v", db.probes)
			}
			lo, hi := res.Best.Load, res.NextUp.Load
			if !(lo <= tc.capacity && tc.capacity < hi) {
				t.Errorf("capacity %v not in [%v, %v); probes %v", tc.capacity, lo, hi, db.probes)
			}
			if hi > lo*(1+tc.cfg.Resolution) {
				t.Errorf("[%v, %v] wider than %v; probes %v", lo, hi, tc.cfg.Resolution, db.probes)
			}
			if !tc.coldFirst && res.NextUp.Outcome.Limiting != "Trade-Status" {
				t.Errorf("limiting %q", res.NextUp.Outcome.Limiting)
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestFindMaxSaysWhy(t *testing.T) {
	db := &fakeDB{capacity: 100}
	res, err := FindMax(context.Background(), SearchConfig{Start: 40, Growth: 2, Resolution: 0.05, MaxProbes: 20}, db)
	if err != nil {
		t.Fatal(err)
	}
	whys := []string{}
	for _, p := range res.Probes {
		whys = append(whys, p.Why)
	}
	all := strings.Join(whys, "\n")
	for _, want := range []string{"start", "growing x2: 40 passed", "bisecting: 80 passed, 160 failed (Trade-Status p90 1.4 s > 1 s)"} {
		if !strings.Contains(all, want) {
			t.Errorf("whys lack %q:\n%s", want, all)
		}
	}
	dres, _ := FindMax(context.Background(), SearchConfig{Start: 40, Growth: 2, Resolution: 0.05, MaxProbes: 20}, &fakeDB{capacity: 1000, driverBound: 80})
	if !strings.Contains(dres.Note, "load driver itself was the bottleneck at 80 (driver CPU 190 % of 2 cores)") {
		t.Errorf("note %q", dres.Note)
	}
}

func TestSearchConfigValidate(t *testing.T) {
	for _, c := range []SearchConfig{
		{Start: 0, Growth: 2, Resolution: 0.05, MaxProbes: 5},
		{Start: 10, Growth: 1, Resolution: 0.05, MaxProbes: 5},
		{Start: 10, Growth: 2, Resolution: 0, MaxProbes: 5},
		{Start: 10, Growth: 2, Resolution: 1, MaxProbes: 5},
		{Start: 10, Growth: 2, Resolution: 0.05, MaxProbes: 0},
		{Start: 10, Growth: 2, Resolution: 0.05, MaxProbes: 5, Ceiling: 5},
	} {
		if _, err := FindMax(context.Background(), c, &fakeDB{capacity: 1}); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

func TestRoundLoad(t *testing.T) {
	for in, want := range map[float64]float64{437.49: 437, 1234.5: 1230, 0.123456: 0.123, 43.71: 43.7, 10: 10} {
		if got := roundLoad(in); got != want {
			t.Errorf("roundLoad(%v) = %v, want %v", in, got, want)
		}
	}
}

// TestFindMaxCalibratedResolves: with the default search (a calibration probe,
// then growth x2 and bisection to 5 %, at most 12 probes) databases from 200 to
// 50,000 tps are resolved to the resolution, whether the unpaced calibration lands
// near the capacity, far below it (too few users) or above it (unpaced, the
// database broke its limits). The old default, doubling from 10 tps, ran out of
// probes above about 1,000 tps: 2,600 and 3,000 both read 2,560.
func TestFindMaxCalibratedResolves(t *testing.T) {
	cfg := DefaultSearchConfig()
	for _, capacity := range []float64{10, 200, 2600, 3000, 3300, 50000, 100000} {
		for _, estimate := range []float64{0.97, 0.125, 1.6} {
			t.Run(fmt.Sprintf("%g tps, calibration at %g of it", capacity, estimate), func(t *testing.T) {
				db := &fakeDB{capacity: capacity, estimate: estimate}
				res, err := FindMax(context.Background(), cfg, db)
				if err != nil {
					t.Fatal(err)
				}
				if res.Stopped != StopResolved || res.Best == nil || res.NextUp == nil {
					t.Fatalf("stopped %q (%s); probes %v", res.Stopped, res.Note, db.probes)
				}
				lo, hi := res.Best.Load, res.NextUp.Load
				if !(lo <= capacity && capacity < hi) || hi > lo*(1+cfg.Resolution) {
					t.Errorf("capacity %v not resolved by [%v, %v]; probes %v", capacity, lo, hi, db.probes)
				}
				if db.probes[0] != 0 || !strings.HasPrefix(res.Probes[1].Why, "calibrated: ") {
					t.Errorf("no calibration first: probes %v, second why %q", db.probes, res.Probes[1].Why)
				}
			})
		}
	}
	old := SearchConfig{Start: 10, Growth: 2, Resolution: 0.05, MaxProbes: DefaultSearchMaxProbes}
	if res, _ := FindMax(context.Background(), old, &fakeDB{capacity: 2600}); res.Stopped != StopMaxProbes {
		t.Errorf("doubling from 10 tps: stopped %q, want it to run out of probes at 2,600 tps", res.Stopped)
	}
}

// A passing probe whose figures still moved is run again before it counts.
func TestFindMaxReprobesUnsteady(t *testing.T) {
	db := &fakeDB{capacity: 100, unsteady: map[float64]bool{40: true}}
	res, err := FindMax(context.Background(), SearchConfig{Start: 40, Growth: 2, Resolution: 0.05, MaxProbes: 20}, db)
	if err != nil {
		t.Fatal(err)
	}
	if len(db.probes) < 2 || db.probes[0] != 40 || db.probes[1] != 40 || res.Probes[1].Why != "re-probing 40: it passed but was unsteady" {
		t.Fatalf("probes %v, second why %q", db.probes, res.Probes[1].Why)
	}
	if res.Stopped != StopResolved || res.Best.Load > 100 || res.NextUp.Load <= 100 {
		t.Errorf("stopped %q best %v next %v", res.Stopped, res.Best.Load, res.NextUp.Load)
	}
}

// TestSearchStepsOneDriver runs the default search as the steps of one driver
// against a fake database that serves one transaction at a time in 5 ms (200 tps):
// the calibration and every probe are steps of the same run, so Trade-Cleanup runs
// once and the emulator carries its orders over; each step records its rate and
// why it ran; and the maximum found lies within the resolution below the capacity
// (the limits are Trade-Status's 1 s p90 and the others, so the knee sits where the
// queue at the single server grows long).
func TestSearchStepsOneDriver(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newFakeMarket()
		m.slots = make(chan struct{}, 1)
		cfg := fakeConfig(m, []int{40}, 40*time.Second, 10*time.Second)
		cfg.DataMaintenanceEvery = -1
		cfg.NewUserExecutor = func(w int) txn.Executor {
			return &fakeExec{m: m, r: rnd.New(7, uint64(w)), clock: cfg.Clock, lat: 5 * time.Millisecond}
		}
		cfg.NewMarketExecutor = cfg.NewUserExecutor
		lims := Workload().DefaultLimits()
		var judged []*results.Step
		src, err := NewSearchSteps(context.Background(), DefaultSearchConfig(), Level{Users: 40, Step: 40 * time.Second, Warmup: 10 * time.Second},
			func(req ProbeRequest, st *results.Step) ProbeOutcome {
				judged = append(judged, st)
				st.LimitsBroken = figures.BrokenLimits(lims, st)
				v := figures.JudgeLimits(lims, st)
				return ProbeOutcome{Pass: v.Pass, Why: v.Why, Limiting: v.Limiting, Step: len(judged) - 1, TPS: st.TPS, TPSE: st.TPSE}
			})
		if err != nil {
			t.Fatal(err)
		}
		cfg.Steps = src
		steps := mustRun(t, cfg)
		res, err := src.Finish()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range res.Probes {
			t.Logf("probe %d: %.4g offered, %.1f tps, pass %v (%s): %s", p.N, p.Load, p.Outcome.TPS, p.Outcome.Pass, p.Outcome.Why, p.Why)
		}
		if got := m.cleanups.Load(); got != 1 {
			t.Errorf("Trade-Cleanup ran %d times, want once for the whole search", got)
		}
		if len(steps) != len(res.Probes) || len(judged) != len(steps) {
			t.Fatalf("%d steps, %d probes, %d judged", len(steps), len(res.Probes), len(judged))
		}
		for i, st := range steps {
			p := res.Probes[i]
			if st.Probe == nil || st.Probe.N != p.N || st.Probe.Why != p.Why || st.Rate != p.Load {
				t.Errorf("step %d: probe %+v rate %v, want probe %d at %v", i, st.Probe, st.Rate, p.N, p.Load)
			}
		}
		if steps[0].Probe.Why != CalibrationWhy || steps[0].Rate != 0 || steps[0].TPS < 150 {
			t.Errorf("first step %+v at %v tps: want the unpaced calibration near the capacity", steps[0].Probe, steps[0].TPS)
		}
		if res.Stopped != StopResolved || res.Best == nil || res.NextUp == nil {
			t.Fatalf("stopped %q (%s)", res.Stopped, res.Note)
		}
		if lo, hi := res.Best.Load, res.NextUp.Load; hi > lo*1.05 || lo > 200 || lo < 150 {
			t.Errorf("max %v (next %v), want within 5 %% and below the 200 tps capacity", lo, hi)
		}
	})
}

// TestFindMaxAfterAnOverturnedFailure replays a search on the managed server: a
// probe at 600 tps failed once on noise, 584 passed, 600 passed when confirmed.
// Growing x2 from there spent the rest of the probes far above the maximum; one
// small step up first resolves it within the default probes.
func TestFindMaxAfterAnOverturnedFailure(t *testing.T) {
	db := &fakeDB{capacity: 615, estimate: 560.5 / 615, flaky: map[float64]bool{600: true}}
	res, err := FindMax(context.Background(), DefaultSearchConfig(), db)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stopped != StopResolved || res.Best == nil || res.Best.Load > 615 || res.NextUp.Load <= 615 {
		t.Fatalf("stopped %q (%s); probes %v", res.Stopped, res.Note, db.probes)
	}
	if !strings.Contains(fmt.Sprint(res.Probes), "growing x1.1: 600 passed") {
		t.Errorf("no small step after the overturned failure: probes %v", db.probes)
	}
}
