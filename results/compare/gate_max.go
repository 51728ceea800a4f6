package compare

import (
	"fmt"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// maxTPSEKey is the run-level gate on --find-max's result: the most tpsE the run
// sustained within its limits (max.tps_e). "max_tps_e<-10%" trips when a run found
// a maximum more than 10 % below the base's. It refuses to judge a maximum the
// search did not resolve (UnresolvedMaxError): the value is then only the highest
// load that passed, and the truth may lie anywhere above it.
//
// maxLowerBoundKey gates on the same figure taken for what it always is, a lower
// bound of the maximum, resolved or not: the user's explicit choice to gate on it.
const (
	maxTPSEKey       = "max_tps_e"
	maxLowerBoundKey = "max_tps_e_lower_bound"
)

var runMetricAliases = map[string]string{"max_tpse": maxTPSEKey, "max-tps-e": maxTPSEKey, "max_tps-e": maxTPSEKey,
	"max_tpse_lower_bound": maxLowerBoundKey, "max-tps-e-lower-bound": maxLowerBoundKey}

// lookupRunMetric finds a run-level gate metric. Its value comes from maxTPSE, not
// from a step, so value is nil.
func lookupRunMetric(key string) (figures.Metric, bool) {
	if a, ok := runMetricAliases[key]; ok {
		key = a
	}
	switch key {
	case maxTPSEKey:
		return figures.Metric{Key: maxTPSEKey, Title: "max tpsE within limits", HigherIsBetter: true}, true
	case maxLowerBoundKey:
		return figures.Metric{Key: maxLowerBoundKey, Title: "max tpsE within limits (lower bound)", HigherIsBetter: true}, true
	}
	return figures.Metric{}, false
}

// UnresolvedMaxError is a max_tps_e gate on a run whose --find-max did not resolve
// its maximum: compare neither passes nor fails it.
type UnresolvedMaxError struct {
	Expr, Run, Stopped string
}

func (e *UnresolvedMaxError) Error() string {
	return fmt.Sprintf("--fail-if %q: the maximum of run %s is not resolved (%s): its max_tps_e is only the highest load that passed, so the gate would pass or fail on a guess; "+
		"rerun with more --max-steps, or gate on %s to take it as the lower bound it is", e.Expr, e.Run, e.Stopped, maxLowerBoundKey)
}

// checkMaxResolved refuses a max_tps_e gate when a run it would read (every run
// after the first, and the base for a relative gate) has an unresolved maximum.
func (c *Comparison) checkMaxResolved(gates []Gate) error {
	for _, g := range gates {
		if !g.runLevel || g.metric.Key != maxTPSEKey {
			continue
		}
		for r, in := range c.Inputs {
			if r == 0 && !g.relative {
				continue
			}
			if m := in.Run.Max; m != nil && !m.Resolved() {
				return &UnresolvedMaxError{Expr: g.Expr, Run: in.Name(), Stopped: m.Stopped}
			}
		}
	}
	return nil
}

// maxTPSE is a run's max.tps_e; ok is false for a run without --find-max.
func maxTPSE(r *results.Run) (float64, bool) {
	if r.Max == nil {
		return 0, false
	}
	return r.Max.TPSE, true
}

// runTrips checks run r's run-level gates once each.
func (c *Comparison) runTrips(r int, gates []Gate) []Trip {
	var trips []Trip
	for _, g := range gates {
		if !g.runLevel {
			continue
		}
		v, ok := maxTPSE(c.Inputs[r].Run)
		if !ok {
			continue
		}
		t := Trip{Gate: g, Run: r, Value: v}
		change, shown, tripped := g.trips(v, func() (float64, bool) { return maxTPSE(c.Inputs[0].Run) },
			func(x float64) string { return fmt.Sprintf("%.2f", x) })
		if !tripped {
			continue
		}
		t.Change = change
		t.msg = fmt.Sprintf("run %s: %s %s %s %s", c.Inputs[r].Name(), g.metric.Key, shown, g.op, g.formatThreshold())
		trips = append(trips, t)
	}
	return trips
}

// runGateChecked tells whether a run-level gate could be checked for any run
// after the first (it needs a max in that run, and in the base when relative).
func (c *Comparison) runGateChecked(g Gate) bool {
	_, okB := maxTPSE(c.Inputs[0].Run)
	for r := 1; r < len(c.Inputs); r++ {
		if _, ok := maxTPSE(c.Inputs[r].Run); ok && (okB || !g.relative) {
			return true
		}
	}
	return false
}
