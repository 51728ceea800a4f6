package report

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// Fixtures of per-second tps: each a shape a real step shows.
func steadyNoisy(n int, mean float64, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	out := make([]float64, n)
	for i := range out {
		// Poisson-like noise of a low rate: sd = sqrt(mean).
		out[i] = math.Max(0, mean+math.Sqrt(mean)*rng.NormFloat64())
	}
	return out
}

func TestSteadinessRule(t *testing.T) {
	ramp := make([]float64, 60) // caches warming: 300 → 420 tps over the window
	for i := range ramp {
		ramp[i] = 300 + 2*float64(i)
	}
	slowDrift := make([]float64, 60) // 5 % over the window: below the bound
	for i := range slowDrift {
		slowDrift[i] = 1000 * (1 + 0.05*float64(i)/60)
	}
	collapse := append(steadyNoisy(30, 500, 3), steadyNoisy(30, 300, 4)...) // a checkpoint storm in the second half
	for _, tc := range []struct {
		name      string
		tps       []float64
		unsteady  bool
		noVerdict bool
	}{
		{name: "steady, low rate and noisy", tps: steadyNoisy(60, 8, 1)},
		{name: "steady, high rate", tps: steadyNoisy(120, 2000, 2)},
		{name: "warming ramp", tps: ramp, unsteady: true},
		{name: "slow drift under the bound", tps: slowDrift},
		{name: "collapse", tps: collapse, unsteady: true},
		{name: "too short to judge", tps: ramp[:results.MinSteadinessSeconds-1], noVerdict: true},
		{name: "nothing, then something", tps: append(make([]float64, 10), steadyNoisy(10, 50, 5)...), unsteady: true},
	} {
		s, unsteady := figures.SteadinessOf(tc.tps)
		if tc.noVerdict {
			if s != nil || unsteady {
				t.Errorf("%s: want no verdict, got %+v %v", tc.name, s, unsteady)
			}
			continue
		}
		if s == nil {
			t.Fatalf("%s: no figures", tc.name)
		}
		if unsteady != tc.unsteady {
			t.Errorf("%s: unsteady = %v, want %v (%+v)", tc.name, unsteady, tc.unsteady, *s)
		}
		if s.Seconds != len(tc.tps) {
			t.Errorf("%s: seconds %d", tc.name, s.Seconds)
		}
	}
	s, _ := figures.SteadinessOf(ramp)
	// First half averages 329, second 389: +18.2 %.
	if math.Abs(s.HalfChange-0.1824) > 0.001 {
		t.Errorf("half change %v, want 0.1824", s.HalfChange)
	}
	flat, _ := figures.SteadinessOf([]float64{10, 10, 10, 10, 10, 10, 10, 10, 10, 10})
	if flat.TPSCV != 0 || flat.HalfChange != 0 {
		t.Errorf("flat series: %+v", *flat)
	}
}

func TestUnsteadyFlagInReport(t *testing.T) {
	r := runfixture.SampleRun("A", []int{10}, 1, 1, 1)
	r.Steps[0].Steadiness = &results.Steadiness{Seconds: 50, TPSCV: 0.2, HalfChange: 0.3}
	results.AddFlag(&r.Steps[0], results.FlagUnsteady)
	results.AddFlag(&r.Steps[0], results.FlagUnsteady)
	if len(r.Steps[0].Flags) != 1 {
		t.Fatalf("flags %v", r.Steps[0].Flags)
	}
	var b stringsBuilder
	if err := WriteReport(&b, results.Input{Path: "a.json", Run: r}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"cv 20 %, +30 %", "U: unsteady", "lengthen --warmup"} {
		if !containsStr(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

type stringsBuilder = strings.Builder

func containsStr(s, sub string) bool { return strings.Contains(s, sub) }

// TestSteadinessSeesAWarmingCache: under a pacer tps holds at what the pacer
// offers while a cache still warms: the disks' reads fall, the response times fall,
// the miss ratio falls. tps alone calls the window steady; the rule sees each of the
// other figures drift, and keeps noise of the same size without a trend steady.
func TestSteadinessSeesAWarmingCache(t *testing.T) {
	const n = 120
	paced := steadyNoisy(n, 200, 1) // tps: what the pacer offers
	// A linear trend with 10 % noise around it.
	falling := func(from, to float64, seed uint64) []float64 {
		rng := rand.New(rand.NewPCG(seed, 9))
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = (from + (to-from)*float64(i)/n) * (1 + 0.1*rng.NormFloat64())
		}
		return xs
	}
	if _, unsteady := figures.SteadinessOf(paced); unsteady {
		t.Fatal("the paced tps alone must read steady")
	}
	for _, tc := range []struct {
		name  string
		smp   results.SteadySamples
		drift string
	}{
		{"reads falling", results.SteadySamples{TPS: paced, ReadIOPS: falling(2000, 1100, 2)}, "reads"},
		{"response falling", results.SteadySamples{TPS: paced, P95MS: falling(80, 30, 3)}, "response"},
		{"misses falling", results.SteadySamples{TPS: paced, HitRatio: func() []float64 {
			m := falling(0.2, 0.08, 4)
			for i := range m {
				m[i] = 1 - m[i]
			}
			return m
		}()}, "misses"},
		{"steady", results.SteadySamples{TPS: paced, ReadIOPS: steadyNoisy(n, 1500, 5), P95MS: steadyNoisy(n, 50, 6)}, ""},
	} {
		s, unsteady := figures.SteadinessOfSamples(tc.smp)
		if s == nil {
			t.Fatalf("%s: no verdict", tc.name)
		}
		if unsteady != (tc.drift != "") || (tc.drift != "" && !slices.Equal(s.Drifting, []string{tc.drift})) {
			t.Errorf("%s: unsteady %v, drifting %v; want %q", tc.name, unsteady, s.Drifting, tc.drift)
		}
		if tc.drift != "" && !strings.Contains(figures.DescribeDrift(s), tc.drift+" -") {
			t.Errorf("%s: described %q", tc.name, figures.DescribeDrift(s))
		}
	}
}
