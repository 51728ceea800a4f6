package report

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/series"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
)

// The proof that compare's verdicts across repeats can be trusted: simulated runs
// (no database, fixed seeds) whose tps moves from run to run as real runs do
// (cache state, checkpoints, the host) and from second to second within a run.

// simSeconds is a simulated step's measured window: 60 s, as the issue's
// capped-server experiments used.
const simSeconds = 60

// simRun is one run of one step at 8 users: its own level of tps (the system's
// tps moved by this run's luck), per-second samples around it that are
// autocorrelated (a slow second is followed by slow ones) with a 10 % spread,
// and the step's tps their mean, as run records it.
func simRun(rng *rand.Rand, label string, level float64) *results.Run {
	xs := series.AR1(rng, simSeconds, level, 0.6, 0.1*level)
	var sum float64
	for k, x := range xs {
		xs[k] = max(x, 0)
		sum += xs[k]
	}
	st := results.Step{Users: 8, MeasuredS: simSeconds, TPS: sum / simSeconds, Samples: &results.StepSamples{TPS: xs}}
	return &results.Run{Format: results.FormatVersion, Label: label, Steps: []results.Step{st}}
}

// simSide is n runs of a system whose tps is tps, each run's level drawn
// lognormal with a run-to-run spread of spread (0.08: a run lands about 8 %
// from the system's tps).
func simSide(rng *rand.Rand, label string, n int, tps, spread float64) results.Input {
	var in results.Input
	for k := range n {
		rep := results.Input{Path: fmt.Sprintf("%s-r%d.json", label, k+1), Run: simRun(rng, label, tps*math.Exp(spread*rng.NormFloat64()))}
		if k == 0 {
			in = rep
		} else {
			in.Repeats = append(in.Repeats, rep)
		}
	}
	return in
}

// simVerdicts runs trials comparisons of n runs a side, side B's tps ratio
// times side A's, and counts the tps verdicts; it also returns the median
// Detectable difference.
func simVerdicts(t *testing.T, seed uint64, trials, n int, ratio, spread float64) (map[compare.ChangeVerdict]int, float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 39))
	count := map[compare.ChangeVerdict]int{}
	var det []float64
	for range trials {
		c, err := compare.Compare([]results.Input{simSide(rng, "A", n, 1000, spread), simSide(rng, "B", n, 1000*ratio, spread)})
		if err != nil {
			t.Fatal(err)
		}
		e := estimateOf(t, c, "tps")
		count[e.Verdict]++
		det = append(det, e.Detectable)
	}
	slices.Sort(det)
	return count, det[len(det)/2]
}

// TestAAComparisonsRarelyJudged: 100 A/A comparisons of 3 runs a side with an
// 8 % run-to-run spread. A 95 % interval excludes the true change (none) 5 % of
// the time, so about 5 of 100 read better or worse; 10 is the 99th percentile of
// that count (binomial, 100 trials, p 0.05), the bound the statistics guarantee.
// A method that ignored the noise between runs (one run's own interval) would
// call most of them different.
func TestAAComparisonsRarelyJudged(t *testing.T) {
	count, det := simVerdicts(t, 1, 100, 3, 1, 0.08)
	judged := count[compare.VerdictBetter] + count[compare.VerdictWorse]
	t.Logf("A/A, 3 runs a side, 8 %% spread: %v; median detectable ±%.1f %%", count, det)
	if judged > 10 {
		t.Errorf("%d of 100 A/A comparisons judged better or worse, want at most 10 (about 5 expected)", judged)
	}
	if count[compare.VerdictNoise]+judged != 100 {
		t.Errorf("some A/A comparisons had no verdict with 3 runs a side: %v", count)
	}
	// With a spread of 8 % and 3 runs a side, the interval's half-width is about
	// t × 0.08 × √(2/3) with t 2.8 to 4.3 (Welch's 2 to 4 degrees of freedom):
	// 18 to 28 %, what compare must say it cannot see.
	if det < 14 || det > 30 {
		t.Errorf("median detectable difference ±%.1f %%, want about ±20 %%", det)
	}
}

// TestABDifferenceFound: side B 20 % slower (then 20 % faster) than A, 3 runs a
// side. Whether a test finds a change depends on the change against the spread:
// with 3 runs a side Welch's t needs the change to be about 4.5 times the
// run-to-run spread to find it 80 % of the time. With a 4 % spread a 20 % change
// is found (in the right direction, never the wrong one) at least 80 times in
// 100. With the 8 % spread of TestAAComparisonsRarelyJudged no honest test of 3
// runs a side reaches 80 %: the change is then about 2.8 standard errors and t
// needs 2.8 to 4.3, so it is found about half the time; the detectable
// difference printed beside it (about ±20 %) says so, and the test pins that
// too so the claim stays true.
func TestABDifferenceFound(t *testing.T) {
	count, det := simVerdicts(t, 2, 100, 3, 0.8, 0.04)
	t.Logf("A/B -20 %%, 3 runs a side, 4 %% spread: %v; median detectable ±%.1f %%", count, det)
	if count[compare.VerdictWorse] < 80 || count[compare.VerdictBetter] > 0 {
		t.Errorf("a 20 %% drop found worse %d times in 100 (better %d), want at least 80 and never better", count[compare.VerdictWorse], count[compare.VerdictBetter])
	}
	up, _ := simVerdicts(t, 3, 100, 3, 1.2, 0.04)
	t.Logf("A/B +20 %%, 3 runs a side, 4 %% spread: %v", up)
	if up[compare.VerdictBetter] < 80 || up[compare.VerdictWorse] > 0 {
		t.Errorf("a 20 %% rise found better %d times in 100 (worse %d), want at least 80 and never worse", up[compare.VerdictBetter], up[compare.VerdictWorse])
	}
	wide, det8 := simVerdicts(t, 4, 100, 3, 0.8, 0.08)
	t.Logf("A/B -20 %%, 3 runs a side, 8 %% spread: %v; median detectable ±%.1f %%", wide, det8)
	if wide[compare.VerdictWorse] < 30 || wide[compare.VerdictBetter] > 0 {
		t.Errorf("with an 8 %% spread a 20 %% drop was found worse %d times in 100 (better %d), want about half and never better",
			wide[compare.VerdictWorse], wide[compare.VerdictBetter])
	}
	if det8 < 16 {
		t.Errorf("with an 8 %% spread the median detectable difference is ±%.1f %%; a 20 %% change found about half the time needs it near 20 %%", det8)
	}
}

// TestOneRunASideWouldMislead is why one run a side gives no verdict: the same
// A/A comparisons made of one run a side, judged on each run's own interval,
// would call most of them different. The estimate keeps that interval but gives
// no verdict.
func TestOneRunASideWouldMislead(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 39))
	excluded := 0
	for range 100 {
		c, err := compare.Compare([]results.Input{simSide(rng, "A", 1, 1000, 0.08), simSide(rng, "B", 1, 1000, 0.08)})
		if err != nil {
			t.Fatal(err)
		}
		e := estimateOf(t, c, "tps")
		if e.Verdict != compare.VerdictNone || e.Reason != compare.OneRunReason {
			t.Fatalf("one run a side judged %q (%q)", e.Verdict, e.Reason)
		}
		if e.Lo > 0 || e.Hi < 0 {
			excluded++
		}
	}
	t.Logf("one run a side: %d of 100 within-run intervals exclude zero", excluded)
	if excluded < 30 {
		t.Errorf("only %d of 100 within-run intervals exclude zero: the simulated run-to-run noise is too small to make the point", excluded)
	}
}
