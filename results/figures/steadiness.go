package figures

import (
	"fmt"
	"math"
	"strings"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/stats"
)

// UnsteadyResponseChange is the rule's size bound for response times and the miss
// ratio, which move more than throughput from second to second: a p95 of a second's
// transactions, a ratio of two small counts.
const UnsteadyResponseChange = 0.20

// SteadinessOfSamples judges every sampled figure by the rule (a half change above
// its bound and above UnsteadySigmas standard errors, and above its floor): tps and
// the disks' reads against UnsteadyChange, response times and the miss ratio against
// UnsteadyResponseChange. It returns nil when there are too few tps samples.
func SteadinessOfSamples(smp results.SteadySamples) (*results.Steadiness, bool) {
	st, unsteady := SteadinessOf(smp.TPS)
	if st == nil {
		return nil, false
	}
	if unsteady {
		st.Drifting = append(st.Drifting, "tps")
	}
	miss := make([]float64, len(smp.HitRatio))
	for i, h := range smp.HitRatio {
		miss[i] = 1 - h
	}
	meanTPS, _ := stats.MeanSD(smp.TPS)
	for _, f := range []struct {
		name   string
		xs     []float64
		bound  float64 // the least change, as a fraction of the first half's mean
		floor  float64 // the least change, in the figure's own unit
		minLen int
		out    **float64
	}{
		{"response", smp.P95MS, UnsteadyResponseChange, 0, results.MinSteadinessSeconds, &st.ResponseHalfChange},
		{"reads", smp.ReadIOPS, results.UnsteadyChange, results.UnsteadyReadsPerTxn * meanTPS, stats.MinIOSamples, &st.ReadsHalfChange},
		{"misses", miss, UnsteadyResponseChange, results.UnsteadyMissChange, stats.MinIOSamples, &st.MissHalfChange},
	} {
		change, drift, ok := halfDrift(f.xs, f.bound, f.floor, f.minLen)
		if !ok {
			continue
		}
		c := results.Round(change, 4)
		*f.out = &c
		if drift {
			st.Drifting = append(st.Drifting, f.name)
			unsteady = true
		}
	}
	return st, unsteady
}

// halfDrift is the change of xs's mean from the window's first half to its second,
// as a fraction of the first, and whether the rule calls it a drift: a change above
// bound (a fraction), above floor (in xs's unit) and above UnsteadySigmas standard
// errors. ok is false with fewer than minLen samples or a first half of nothing.
func halfDrift(xs []float64, bound, floor float64, minLen int) (change float64, drift, ok bool) {
	n := len(xs)
	if n < minLen {
		return 0, false, false
	}
	// These figures come in bursts (a checkpoint's reads, a queue's response
	// times), so neighbouring seconds are not independent and their spread would
	// understate the error: each half's error comes from batch means, the method
	// compare's intervals use (results/stats).
	first, ok1 := stats.BatchMeans(xs[:n/2], 2)
	second, ok2 := stats.BatchMeans(xs[n-n/2:], 2)
	if !ok1 || !ok2 || first.Mean <= 0 {
		return 0, false, false
	}
	diff := second.Mean - first.Mean
	change = diff / first.Mean
	se := math.Sqrt(first.SE*first.SE+second.SE*second.SE) / first.Mean
	return change, math.Abs(change) > bound && math.Abs(diff) > floor && math.Abs(change) > results.UnsteadySigmas*se, true
}

// UnsteadyAdvice is what the report says under an unsteady step.
const UnsteadyAdvice = "unsteady: tps or the disks' reads moved by more than 10 % (reads also by half a read per transaction), or response times or the cache miss ratio by more than 20 % (the miss ratio also by half a point), between the halves of the window; " +
	"lengthen --warmup (or --step) so the figures measure the steady state"

// SteadinessOf computes the figures from per-second tps samples of the measured
// window, in time order, and whether the rule flags them unsteady. It returns nil
// when there are too few samples to judge.
func SteadinessOf(tps []float64) (*results.Steadiness, bool) {
	n := len(tps)
	if n < results.MinSteadinessSeconds {
		return nil, false
	}
	mean, sd := stats.MeanSD(tps)
	s := &results.Steadiness{Seconds: n}
	if mean > 0 {
		s.TPSCV = results.Round(sd/mean, 4)
	}
	first, second := tps[:n/2], tps[n-n/2:] // an odd middle sample belongs to neither
	m1, sd1 := stats.MeanSD(first)
	m2, sd2 := stats.MeanSD(second)
	if m1 <= 0 {
		// From nothing to something is a trend of unbounded size: unsteady if the
		// second half did anything at all.
		return s, m2 > 0
	}
	change := (m2 - m1) / m1
	s.HalfChange = results.Round(change, 4)
	se := math.Sqrt(sd1*sd1/float64(len(first))+sd2*sd2/float64(len(second))) / m1
	return s, math.Abs(change) > results.UnsteadyChange && math.Abs(change) > results.UnsteadySigmas*se
}

// DescribeSteadiness is one cell: "cv 4 %, +2 %".
func DescribeSteadiness(s *results.Steadiness) string {
	if s == nil {
		return "-"
	}
	return fmt.Sprintf("cv %.0f %%, %+.0f %%", s.TPSCV*100, s.HalfChange*100)
}

// DescribeDrift says what drifted: "tps +14 %, reads -35 %".
func DescribeDrift(s *results.Steadiness) string {
	var parts []string
	for _, name := range s.Drifting {
		var c *float64
		switch name {
		case "tps":
			c = &s.HalfChange
		case "response":
			c = s.ResponseHalfChange
		case "reads":
			c = s.ReadsHalfChange
		case "misses":
			c = s.MissHalfChange
		}
		if c != nil {
			parts = append(parts, fmt.Sprintf("%s %+.0f %%", name, *c*100))
		}
	}
	if len(parts) == 0 {
		return fmt.Sprintf("tps %+.0f %%", s.HalfChange*100)
	}
	return strings.Join(parts, ", ")
}
