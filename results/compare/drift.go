package compare

import (
	"fmt"
	"math"
	"slices"

	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/results/stats"
)

// Drift across repeats: a system whose figures climb (or fall) from one repeat to the
// next (a cache still settling after a load, a table growing, the host warming up)
// shows that trend as a difference when one side ran after the other. Run A's repeats
// then B's on one unchanged server and B reads higher by however much the server moved
// in between. The rule fits one straight line per side against run order, with a slope
// shared by both sides (the sides' levels differ, the drift is the host's), and calls it
// drift when that slope differs from zero at 95 % (a t test on the pooled residuals).
// A drift blocks a better/worse verdict: the difference it would judge is confounded
// with time. Interleaving the sides (A B A B) lets the same trend cancel instead.

// MinDriftRepeats is the least number of repeats on each side for the drift test: with
// two a side the line through each side's points has no residual to judge it by.
const MinDriftRepeats = 3

// repeatDrift is a trend found across run order.
type repeatDrift struct {
	// PerRepeat is the fitted change per repeat, as a percentage of the sides' mean.
	PerRepeat float64
	// Sequential is true when every repeat of one side started before every repeat
	// of the other: the trend is then confounded with the difference.
	Sequential bool
}

// DriftOf tests the repeats of both sides of one figure for a shared trend over their
// start times. ok is false when the test cannot be made (too few repeats, a figure
// some repeat lacks, start times unknown) or finds no trend.
func DriftOf(ra, rb []figures.StepView, m figures.Metric) (repeatDrift, bool) {
	if len(ra) < MinDriftRepeats || len(rb) < MinDriftRepeats {
		return repeatDrift{}, false
	}
	xa, ta, okA := orderedValues(ra, m)
	xb, tb, okB := orderedValues(rb, m)
	if !okA || !okB {
		return repeatDrift{}, false
	}
	// Run order over both sides: a repeat's position among all the repeats, so a
	// slope is "per repeat" whether the sides interleaved or not.
	all := append(slices.Clone(ta), tb...)
	slices.Sort(all)
	pos := func(ts []float64) []float64 {
		out := make([]float64, len(ts))
		for i, t := range ts {
			out[i] = float64(slices.Index(all, t))
		}
		return out
	}
	pa, pb := pos(ta), pos(tb)
	slope, se, df := pooledSlope([][]float64{pa, pb}, [][]float64{xa, xb})
	if df < 1 || se == 0 || math.IsNaN(se) {
		return repeatDrift{}, false
	}
	if math.Abs(slope)/se < stats.TQuantile(df) {
		return repeatDrift{}, false
	}
	mean := (stats.Sum(xa) + stats.Sum(xb)) / float64(len(xa)+len(xb))
	if mean == 0 {
		return repeatDrift{}, false
	}
	seq := slices.Max(ta) < slices.Min(tb) || slices.Max(tb) < slices.Min(ta)
	return repeatDrift{PerRepeat: slope / mean * 100, Sequential: seq}, true
}

// orderedValues are the repeats' figures and start times (seconds since the epoch).
func orderedValues(reps []figures.StepView, m figures.Metric) (xs, ts []float64, ok bool) {
	for _, v := range reps {
		x, ok := m.Value(v)
		if !ok || v.Step.StartedAt.IsZero() {
			return nil, nil, false
		}
		xs = append(xs, x)
		ts = append(ts, float64(v.Step.StartedAt.UnixNano())/1e9)
	}
	return xs, ts, true
}

// pooledSlope fits y = a_g + b·x for groups g with a common slope b: b from the
// pooled within-group sums, its standard error from the pooled residuals, and the
// residuals' degrees of freedom (points − groups − 1).
func pooledSlope(xs, ys [][]float64) (b, se, df float64) {
	var sxy, sxx float64
	n := 0
	for g := range xs {
		mx, my := stats.Sum(xs[g])/float64(len(xs[g])), stats.Sum(ys[g])/float64(len(ys[g]))
		for i := range xs[g] {
			sxy += (xs[g][i] - mx) * (ys[g][i] - my)
			sxx += (xs[g][i] - mx) * (xs[g][i] - mx)
		}
		n += len(xs[g])
	}
	df = float64(n - len(xs) - 1)
	if sxx == 0 || df < 1 {
		return 0, 0, df
	}
	b = sxy / sxx
	var ssr float64
	for g := range xs {
		mx, my := stats.Sum(xs[g])/float64(len(xs[g])), stats.Sum(ys[g])/float64(len(ys[g]))
		for i := range xs[g] {
			r := ys[g][i] - my - b*(xs[g][i]-mx)
			ssr += r * r
		}
	}
	return b, math.Sqrt(ssr / df / sxx), df
}

// driftReason says why a drift withholds the verdict.
func (d repeatDrift) Reason() string {
	order := "the sides interleaved"
	if d.Sequential {
		order = "one side ran after the other, so the trend reads as a difference"
	}
	return fmt.Sprintf("drift: the figure moved %+.1f %% per repeat over the run order (%s); "+
		"settle the server first (run --settle 5m, or a longer --warmup), or interleave the sides", d.PerRepeat, order)
}

// repeatsDoubt is why repeats that are enough for a verdict still cannot have one: a
// side's repeats were disturbed by what the others were not (unless the comparison
// allows disturbed repeats, or the verdict holds without them), or the figure drifted
// over the run order; "" when neither. lo and hi are the interval of all the repeats
// around base.
func (c *Comparison) repeatsDoubt(ra, rb []figures.StepView, m figures.Metric, base, lo, hi float64) string {
	if d := figures.UnevenDisturbances(ra, rb); d != "" && !c.AllowDisturbed && !holdsWithout(ra, rb, m, base, lo, hi) {
		return "disturbed repeats (" + d + "): a verdict compares windows disturbed alike; " +
			"run again on a quieter host, or compare --allow-disturbed to judge them anyway"
	}
	if d, ok := DriftOf(ra, rb, m); ok {
		return d.Reason()
	}
	return ""
}

// holdsWithout tells whether a change whose interval [lo, hi] excludes zero still
// excludes it, on the same side, from the undisturbed repeats alone (two a side at
// least): a disturbance that cannot explain the difference (a side capped at 30 IOPS
// reads 99.8 % lower whether or not a vacuum ran in one window of the other) does not
// withhold its verdict.
func holdsWithout(ra, rb []figures.StepView, m figures.Metric, base, lo, hi float64) bool {
	if !(lo > 0 || hi < 0) {
		return false
	}
	uneven := figures.UnevenKinds(ra, rb)
	ua, ub := undisturbedBy(ra, uneven), undisturbedBy(rb, uneven)
	if len(ua) < 2 || len(ub) < 2 {
		return false
	}
	l, h, _ := repeatsInterval(SideValues(ua, m), SideValues(ub, m), base)
	return (lo > 0 && l > 0) || (hi < 0 && h < 0)
}

// undisturbedBy are the repeats that none of the kinds disturbed.
func undisturbedBy(reps []figures.StepView, kinds map[string]bool) []figures.StepView {
	var out []figures.StepView
	for _, v := range reps {
		if !slices.ContainsFunc(figures.DisturbancesOf(v.Step), func(d figures.Disturbance) bool { return kinds[d.Kind] }) {
			out = append(out, v)
		}
	}
	return out
}
