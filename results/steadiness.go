package results

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Steadiness is how stable a step was over its measured window, from per-second
// samples of its tps, its response time, its disks' reads and its cache hit ratio.
// A step whose figures still drift (caches warming, a checkpoint backlog building)
// reports figures that are not the database's steady state. Under a pacer tps is
// what the pacer offers and cannot show a warming cache; the disks' reads per second
// falling, the response times falling or the miss ratio falling do.
type Steadiness struct {
	// Seconds is how many per-second samples the figures come from.
	Seconds int `json:"seconds"`
	// TPSCV is the coefficient of variation of per-second tps: standard deviation
	// over mean (0.05 = 5 %). It measures jitter, not drift.
	TPSCV float64 `json:"tps_cv"`
	// HalfChange is the change of mean tps from the window's first half to its
	// second, as a fraction of the first (+0.08 = 8 % higher at the end): drift.
	HalfChange float64 `json:"half_change"`
	// ResponseHalfChange, ReadsHalfChange and MissHalfChange are the same change of
	// the per-second p95 response time, of the disks' read IOPS and of the cache miss
	// ratio (1 - hit ratio); absent when not sampled.
	ResponseHalfChange *float64 `json:"response_half_change,omitempty"`
	ReadsHalfChange    *float64 `json:"reads_half_change,omitempty"`
	MissHalfChange     *float64 `json:"miss_half_change,omitempty"`
	// Drifting names the figures that moved by the rule: "tps", "response",
	// "reads", "misses"; absent when none did.
	Drifting []string `json:"drifting,omitempty"`
}

// SteadySamples are a measured window's samples, in time order; a figure not sampled
// is nil. TPS and P95MS come every second; ReadIOPS once per storage sample (the
// step's I/O series, every --io-interval) and HitRatio once per new value of the
// sampler's counters: a figure that changes every five seconds, repeated every
// second, would count each change five times, and the halves' errors would come out
// too small to tell noise from a trend.
type SteadySamples struct {
	TPS, P95MS, ReadIOPS, HitRatio []float64
}

// UnsteadyResponseChange is the rule's size bound for response times and the miss
// ratio, which move more than throughput from second to second: a p95 of a second's
// transactions, a ratio of two small counts.
const UnsteadyResponseChange = 0.20

// A change too small to move a storage figure is no drift, however large it is in
// proportion: a database held in memory reads 0.1 pages per transaction, or misses 0.2 %
// of its page requests, and those halve from one half of a window to the next with
// nothing warming (seen on every probe of a find-max run on the managed server, whose
// 99.8 % hit ratio read as "misses -68 %"). The disks' reads drift only when they
// moved by UnsteadyReadsPerTxn reads per transaction or more, the miss ratio only by
// UnsteadyMissChange (half a percentage point of the hit ratio) or more; a cache
// still warming under a storage-bound step moves both by far more.
const (
	UnsteadyReadsPerTxn = 0.5
	UnsteadyMissChange  = 0.005
)

// SteadinessOfSamples judges every sampled figure by the rule (a half change above
// its bound and above UnsteadySigmas standard errors, and above its floor): tps and
// the disks' reads against UnsteadyChange, response times and the miss ratio against
// UnsteadyResponseChange. It returns nil when there are too few tps samples.
func SteadinessOfSamples(smp SteadySamples) (*Steadiness, bool) {
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
	meanTPS, _ := meanSD(smp.TPS)
	for _, f := range []struct {
		name   string
		xs     []float64
		bound  float64 // the least change, as a fraction of the first half's mean
		floor  float64 // the least change, in the figure's own unit
		minLen int
		out    **float64
	}{
		{"response", smp.P95MS, UnsteadyResponseChange, 0, MinSteadinessSeconds, &st.ResponseHalfChange},
		{"reads", smp.ReadIOPS, UnsteadyChange, UnsteadyReadsPerTxn * meanTPS, MinIOSamples, &st.ReadsHalfChange},
		{"misses", miss, UnsteadyResponseChange, UnsteadyMissChange, MinIOSamples, &st.MissHalfChange},
	} {
		change, drift, ok := halfDrift(f.xs, f.bound, f.floor, f.minLen)
		if !ok {
			continue
		}
		c := round(change, 4)
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
	// compare's intervals use (interval.go).
	first, ok1 := batchMeans(xs[:n/2], 2)
	second, ok2 := batchMeans(xs[n-n/2:], 2)
	if !ok1 || !ok2 || first.mean <= 0 {
		return 0, false, false
	}
	diff := second.mean - first.mean
	change = diff / first.mean
	se := math.Sqrt(first.se*first.se+second.se*second.se) / first.mean
	return change, math.Abs(change) > bound && math.Abs(diff) > floor && math.Abs(change) > UnsteadySigmas*se, true
}

// The steadiness rule: a step is flagged unsteady when its tps moved between the
// window's halves by more than UnsteadyChange AND by more than UnsteadySigmas
// standard errors of that difference. The second condition keeps a low-rate step,
// whose per-second counts are noisy by nature, from being flagged for noise; the
// first keeps a long, very smooth step from being flagged for a trend too small to
// matter. Fewer than MinSteadinessSeconds samples give no verdict.
const (
	UnsteadyChange       = 0.10
	UnsteadySigmas       = 3.0
	MinSteadinessSeconds = 10
	FlagUnsteady         = "unsteady"
)

// UnsteadyAdvice is what the report says under an unsteady step.
const UnsteadyAdvice = "unsteady: tps or the disks' reads moved by more than 10 % (reads also by half a read per transaction), or response times or the cache miss ratio by more than 20 % (the miss ratio also by half a point), between the halves of the window; " +
	"lengthen --warmup (or --step) so the figures measure the steady state"

// SteadinessOf computes the figures from per-second tps samples of the measured
// window, in time order, and whether the rule flags them unsteady. It returns nil
// when there are too few samples to judge.
func SteadinessOf(tps []float64) (*Steadiness, bool) {
	n := len(tps)
	if n < MinSteadinessSeconds {
		return nil, false
	}
	mean, sd := meanSD(tps)
	s := &Steadiness{Seconds: n}
	if mean > 0 {
		s.TPSCV = round(sd/mean, 4)
	}
	first, second := tps[:n/2], tps[n-n/2:] // an odd middle sample belongs to neither
	m1, sd1 := meanSD(first)
	m2, sd2 := meanSD(second)
	if m1 <= 0 {
		// From nothing to something is a trend of unbounded size: unsteady if the
		// second half did anything at all.
		return s, m2 > 0
	}
	change := (m2 - m1) / m1
	s.HalfChange = round(change, 4)
	se := math.Sqrt(sd1*sd1/float64(len(first))+sd2*sd2/float64(len(second))) / m1
	return s, math.Abs(change) > UnsteadyChange && math.Abs(change) > UnsteadySigmas*se
}

// meanSD is the mean and the sample standard deviation.
func meanSD(xs []float64) (mean, sd float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1))
}

// AddFlag adds f to the step's flags once.
func AddFlag(st *Step, f string) {
	if !slices.Contains(st.Flags, f) {
		st.Flags = append(st.Flags, f)
	}
}

// HasFlag tells whether the step carries flag f.
func HasFlag(st *Step, f string) bool { return slices.Contains(st.Flags, f) }

// describeSteadiness is one cell: "cv 4 %, +2 %".
func describeSteadiness(s *Steadiness) string {
	if s == nil {
		return "-"
	}
	return fmt.Sprintf("cv %.0f %%, %+.0f %%", s.TPSCV*100, s.HalfChange*100)
}

// DescribeDrift says what drifted: "tps +14 %, reads -35 %".
func DescribeDrift(s *Steadiness) string {
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
