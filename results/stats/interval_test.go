package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/series"
)

// TestBatchMeansCoverage checks the interval of the mean on series with a known
// Mean and autocorrelation: over many draws about 95 % of the intervals hold the
// true mean. The naive interval, which treats the seconds as independent, holds it
// far less often; that is why compare batches.
func TestBatchMeansCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 1))
	const draws, n, mu = 2000, 300, 100.0
	covered, naive := 0, 0
	for range draws {
		xs := series.AR1(rng, n, mu, 0.6, 10)
		e, ok := BatchMeans(xs, MinSamples)
		if !ok {
			t.Fatal("no estimate from 300 samples")
		}
		half := TQuantile(e.df) * e.SE
		if math.Abs(e.Mean-mu) <= half {
			covered++
		}
		m, sd := MeanSD(xs)
		if math.Abs(m-mu) <= 1.96*sd/math.Sqrt(n) {
			naive++
		}
	}
	cov := float64(covered) / draws
	if cov < 0.92 || cov > 0.98 {
		t.Errorf("batch means: %.3f of the 95 %% intervals hold the mean, want about 0.95", cov)
	}
	if nc := float64(naive) / draws; nc > 0.85 {
		t.Errorf("the naive interval holds the mean %.3f of the time; the series is not autocorrelated enough to test anything", nc)
	}
}

// secondsOf makes per-second response histograms (sparse, as decoded from a
// file) of n seconds whose typical response time drifts as an AR(1) process:
// count values a second, lognormal around scale ms, in buckets of 0.1 ms.
func secondsOf(rng *rand.Rand, n, count int, scale float64) [][]ValueCount {
	level := series.AR1(rng, n, 0, 0.7, 0.25)
	out := make([][]ValueCount, n)
	for s := range n {
		byV := map[int64]int64{}
		for range count {
			us := int64(math.Round(scale*math.Exp(level[s]+0.5*rng.NormFloat64())*10)) * 100
			byV[us]++
		}
		for v, c := range byV {
			out[s] = append(out[s], ValueCount{Value: v, Mid: v, Count: c})
		}
	}
	return out
}

// TestBootstrapCoverage compares two runs of one process (the same median, the
// same drift): the block bootstrap's interval of the change of p95 and of the mean
// holds zero, the true change, about 95 % of the time.
func TestBootstrapCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("coverage needs many draws")
	}
	rng := rand.New(rand.NewPCG(25, 2))
	const draws = 150
	holds := make([]int, 1+len(respQuantiles))
	for range draws {
		a, okA := NewRespBlocks([][][]ValueCount{secondsOf(rng, 100, 20, 20)})
		b, okB := NewRespBlocks([][][]ValueCount{secondsOf(rng, 100, 20, 20)})
		if !okA || !okB {
			t.Fatal("no blocks")
		}
		lo, hi := BootstrapChanges(a, b, 300)
		for f := range holds {
			if lo[f] <= 0 && hi[f] >= 0 {
				holds[f]++
			}
		}
	}
	for f, name := range []string{"mean", "p50", "p90", "p95", "p99"} {
		cov := float64(holds[f]) / draws
		if cov < 0.88 || cov > 0.995 {
			t.Errorf("%s: %.3f of the intervals hold the true change 0, want about 0.95", name, cov)
		}
	}
}

func TestBatchSizes(t *testing.T) {
	for _, c := range []struct{ n, size, count, skip int }{{300, 17, 17, 11}, {100, 10, 10, 0}, {10, 3, 3, 1}, {6, 2, 3, 0}} {
		size, count, skip := batches(c.n)
		if size != c.size || count != c.count || skip != c.skip {
			t.Errorf("batches(%d) = %d × %d skipping %d, want %d × %d skipping %d", c.n, count, size, skip, c.count, c.size, c.skip)
		}
	}
	if _, ok := BatchMeans(make([]float64, MinSamples-1), MinSamples); ok {
		t.Error("an interval from too few samples")
	}
}

// TestBootstrapNeedsTwoHeldBatches: a transaction seen in one second of the window
// has no interval (its resamples are all the same figure, which would read as a
// certain change), while one seen throughout has.
func TestBootstrapNeedsTwoHeldBatches(t *testing.T) {
	once := make([][]ValueCount, 100)
	once[40] = []ValueCount{{Value: 124000, Mid: 124000, Count: 1}}
	if _, ok := NewRespBlocks([][][]ValueCount{once}); ok {
		t.Error("one response in one second made a bootstrap")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	if _, ok := NewRespBlocks([][][]ValueCount{secondsOf(rng, 100, 5, 20)}); !ok {
		t.Error("responses in every second made no bootstrap")
	}
}
