package driver

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// fakeDB is a database of known capacity: a probe passes when its load is at most
// capacity; from driverBound up (when set) the driver itself is the bottleneck.
type fakeDB struct {
	capacity, driverBound float64
	coldFirst             bool // the first probe fails whatever its load (a cold cache)
	probes                []float64
	cancelAt              int // cancel ctx during this probe (1-based), 0: never
	cancel                context.CancelFunc
}

func (f *fakeDB) Probe(ctx context.Context, req ProbeRequest) (ProbeOutcome, error) {
	f.probes = append(f.probes, req.Load)
	if req.N == f.cancelAt {
		f.cancel()
		return ProbeOutcome{}, ctx.Err()
	}
	out := ProbeOutcome{Step: req.N - 1, TPS: min(req.Load, f.capacity), TPSE: min(req.Load, f.capacity) / 10}
	switch {
	case f.coldFirst && req.N == 1:
		out.Why, out.Limiting = "Market-Feed p90 2.1 s > 2 s", "Market-Feed"
	case f.driverBound > 0 && req.Load >= f.driverBound:
		out.DriverBound, out.Why = true, "driver CPU 190 % of 2 cores"
	case req.Load <= f.capacity:
		out.Pass = true
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
