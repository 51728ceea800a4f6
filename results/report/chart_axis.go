package report

import (
	"fmt"
	"math"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/chart"
	"github.com/brokerbench/brokerbench/results/figures"
)

// xAxis is what a run's charts put on x: the user count of a ramp, or the offered
// rate of --find-max probes (which all hold one user count).
type xAxis struct {
	label string
	of    func(*results.Step) float64
	opts  chart.Options
}

// runXAxis picks the axis: the offered rate when steps were paced at rates of their
// own, else users ticked at the steps' own user counts, on a log scale when the
// counts double from step to step.
func runXAxis(r *results.Run) xAxis {
	for i := range r.Steps {
		if r.Steps[i].Rate > 0 {
			return xAxis{label: "offered tps (paced transaction starts per second)", of: offeredRate}
		}
	}
	users := make([]float64, 0, len(r.Steps))
	for _, i := range figures.StepOrder(r.Steps) {
		users = append(users, float64(r.Steps[i].Users))
	}
	return xAxis{label: "users", of: func(st *results.Step) float64 { return float64(st.Users) }, opts: usersAxis(users)}
}

// offeredRate is a step's place on the offered-rate axis; find-max's calibration
// probe ran unpaced (no rate), so it has none and is left off the charts rather
// than drawn at 0 offered tps.
func offeredRate(st *results.Step) float64 {
	if st.Rate <= 0 {
		return math.NaN()
	}
	return st.Rate
}

// usersAxis ticks at the user counts and uses a log scale when they double.
func usersAxis(users []float64) chart.Options {
	return chart.TicksAt(users)
}

// maxMark marks the maximum on the throughput chart: the step --find-max settled
// on, or, for a ramp judged against limits, the highest tpsE of a passing step.
func maxMark(r *results.Run, lims results.Limits, withLimits bool, ax xAxis) (chart.Mark, bool) {
	if m := r.Max; m != nil && m.Step >= 0 && m.Step < len(r.Steps) {
		st := &r.Steps[m.Step]
		return chart.Mark{X: ax.of(st), Y: st.TPSE, Label: fmt.Sprintf("max within limits: %.1f tpsE", st.TPSE)}, true
	}
	if !withLimits {
		return chart.Mark{}, false
	}
	best := -1
	for i := range r.Steps {
		if figures.JudgeLimits(lims, &r.Steps[i]).Pass && (best < 0 || r.Steps[i].TPSE > r.Steps[best].TPSE) {
			best = i
		}
	}
	if best < 0 {
		return chart.Mark{}, false
	}
	st := &r.Steps[best]
	return chart.Mark{X: ax.of(st), Y: st.TPSE, Label: fmt.Sprintf("best within limits: %.1f tpsE", st.TPSE)}, true
}

// limitLines are each limited transaction's p90 as a percentage of its limit, so
// transactions with 1 s and 3 s limits share one axis and one "limit" line at 100.
// The limits are the file's, by name.
func limitLines(r *results.Run, lims results.Limits, order []int, ax xAxis) []chart.Line {
	var ls []chart.Line
	k := 0
	for _, name := range figures.SortedKeys(lims) {
		lim := lims[name]
		l := chart.Line{Name: results.Slug(name), Color: k}
		for _, i := range order {
			t, ok := r.Steps[i].Transactions[name]
			if !ok || t.Count == 0 {
				continue
			}
			x := ax.of(&r.Steps[i])
			if math.IsNaN(x) {
				continue
			}
			l.Xs = append(l.Xs, x)
			l.Ys = append(l.Ys, t.P90MS/(float64(lim)/float64(time.Millisecond))*100)
		}
		if len(l.Xs) > 0 {
			ls = append(ls, l)
			k++
		}
	}
	return ls
}
