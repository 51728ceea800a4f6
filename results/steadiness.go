package results

import (
	"fmt"
	"math"
	"slices"
)

// Steadiness is how stable a step's throughput was over its measured window, from
// its per-second tps. A step whose tps still drifts (caches warming, a checkpoint
// backlog building) reports a figure that is not the database's steady state.
type Steadiness struct {
	// Seconds is how many per-second samples the figures come from.
	Seconds int `json:"seconds"`
	// TPSCV is the coefficient of variation of per-second tps: standard deviation
	// over mean (0.05 = 5 %). It measures jitter, not drift.
	TPSCV float64 `json:"tps_cv"`
	// HalfChange is the change of mean tps from the window's first half to its
	// second, as a fraction of the first (+0.08 = 8 % higher at the end): drift.
	HalfChange float64 `json:"half_change"`
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
const UnsteadyAdvice = "unsteady: tps moved by more than 10 % between the halves of the window; " +
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
