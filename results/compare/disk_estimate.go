package compare

import (
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// Storage-profile and replay figures judged as the runs' figures are: across the
// repeats of each side (several files of one system, compare A1 A2 A3 -- B1 B2 B3),
// by the same interval, detectable difference and verdict (estimate.go, verdict.go).
// A profile step keeps only its totals, no per-second series, so one run a side
// has no interval at all.

// DiskOneRunReason is why storage-profile files of one run a side give no
// interval and no verdict.
const DiskOneRunReason = "one run a side: run each side 3 times and compare A1 A2 A3 -- B1 B2 B3 to judge"

// diskOneRunMethod is the Method of such an estimate.
const diskOneRunMethod = "no interval: one run a side, and a profile step keeps no per-second samples to make one within a run"

type diskEstKey struct {
	k   results.DiskKey
	r   int
	key string
}

// runFigure is one run's figure at one of its steps; false when it has none.
type runFigure func(d *results.DiskRun, st *results.DiskStep) (float64, bool)

// stepFigure is metric m's runFigure.
func stepFigure(m figures.DiskMetric) runFigure {
	return func(_ *results.DiskRun, st *results.DiskStep) (float64, bool) { return m.Value(st) }
}

// replayFigureValue is a replay figure's runFigure: the run's replay's, when the
// step is the replay's (a replay file has one step).
func replayFigureValue(f replayFigure) runFigure {
	return func(d *results.DiskRun, _ *results.DiskStep) (float64, bool) {
		if d.Replay == nil {
			return 0, false
		}
		return f.Value(d.Replay)
	}
}

// sideValues are the figure of each run of side r that has step k and the figure.
func (c *DiskComparison) sideValues(k results.DiskKey, r int, f runFigure) []float64 {
	var xs []float64
	for _, run := range c.Inputs[r].All() {
		d := run.Run.Disk
		st := results.StepAt(d, k)
		if st == nil {
			continue
		}
		if x, ok := f(d, st); ok {
			xs = append(xs, x)
		}
	}
	return xs
}

// Estimate is metric m's change of side r against the base at step k, with its
// interval, detectable difference and verdict; ok is false when either side lacks
// the figure there. Across repeats it is the change of the runs' means with a
// Welch t interval on their logarithms, and a verdict needs MinRepeats runs a
// side; one run a side gives neither (DiskOneRunReason).
func (c *DiskComparison) Estimate(k results.DiskKey, r int, m figures.DiskMetric) (Estimate, bool) {
	return c.estimate(diskEstKey{k, r, m.Key}, m.AsMetric(), stepFigure(m))
}

// ReplayEstimate is Estimate for a replay figure of ReplayFigures, by its
// Metric.Key ("replayed", "achieved", "duration_ratio", "lag_p99", "lag_max"),
// taken from each run whose replay's step is k.
func (c *DiskComparison) ReplayEstimate(k results.DiskKey, r int, key string) (Estimate, bool) {
	f, ok := replayFigureOf(key)
	if !ok {
		return Estimate{}, false
	}
	return c.estimate(diskEstKey{k, r, "replay." + key}, f.Metric, replayFigureValue(f))
}

// ReplayValue is a replay figure of side r at step k, by its Metric.Key: the mean
// over the side's runs whose replay's step is k.
func (c *DiskComparison) ReplayValue(k results.DiskKey, r int, key string) (float64, bool) {
	f, ok := replayFigureOf(key)
	if !ok {
		return 0, false
	}
	return sideMean(c.sideValues(k, r, replayFigureValue(f)))
}

// Values are metric m of each run of side r that has step k: the samples of Value
// and Estimate.
func (c *DiskComparison) Values(k results.DiskKey, r int, m figures.DiskMetric) []float64 {
	return c.sideValues(k, r, stepFigure(m))
}

// ReplayValues are a replay figure, by its Metric.Key, of each run of side r whose
// replay's step is k.
func (c *DiskComparison) ReplayValues(k results.DiskKey, r int, key string) []float64 {
	f, ok := replayFigureOf(key)
	if !ok {
		return nil
	}
	return c.sideValues(k, r, replayFigureValue(f))
}

// ReplayFigureByKey is the replay figure of ReplayFigures with that key.
func ReplayFigureByKey(key string) (figures.Metric, bool) {
	f, ok := replayFigureOf(key)
	return f.Metric, ok
}

func replayFigureOf(key string) (replayFigure, bool) {
	for _, f := range ReplayFigures {
		if f.Metric.Key == key {
			return f, true
		}
	}
	return replayFigure{}, false
}

func (c *DiskComparison) estimate(ek diskEstKey, m figures.Metric, f runFigure) (Estimate, bool) {
	if e, ok := c.est[ek]; ok {
		return e, true
	}
	xa, xb := c.sideValues(ek.k, 0, f), c.sideValues(ek.k, ek.r, f)
	b, okB := sideMean(xa)
	v, okV := sideMean(xb)
	if !okB || !okV {
		return Estimate{}, false
	}
	e := newEstimate(b, v, len(xa), len(xb))
	switch {
	case b == 0:
		zeroBase(&e, v)
	case len(xa) > 1 || len(xb) > 1:
		acrossRepeats(&e, xa, xb, b)
	default:
		e.Method, e.Reason = diskOneRunMethod, DiskOneRunReason
	}
	// A latency across repeats is judged on its ratio, exempt from the near-zero
	// floor as a response time is (verdict.go).
	why, near := nearZero(twoSides{xa, xb, b, v}, m, m.Unit == figures.UnitMS, 0)
	finishEstimate(&e, m, b, why, near)
	if c.est == nil {
		c.est = map[diskEstKey]Estimate{}
	}
	c.est[ek] = e
	return e, true
}
