package results

import (
	"slices"
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

// AddFlag adds f to the step's flags once.
func AddFlag(st *Step, f string) {
	if !slices.Contains(st.Flags, f) {
		st.Flags = append(st.Flags, f)
	}
}

// HasFlag tells whether the step carries flag f.
func HasFlag(st *Step, f string) bool { return slices.Contains(st.Flags, f) }
