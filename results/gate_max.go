package results

import "fmt"

// maxTPSEKey is the run-level gate on --find-max's result: the most tpsE the run
// sustained within its limits (max.tps_e). "max_tps_e<-10%" trips when a run found
// a maximum more than 10 % below the base's.
const maxTPSEKey = "max_tps_e"

var runMetricAliases = map[string]string{"max_tpse": maxTPSEKey, "max-tps-e": maxTPSEKey, "max_tps-e": maxTPSEKey}

// lookupRunMetric finds a run-level gate metric. Its value comes from maxTPSE, not
// from a step, so value is nil.
func lookupRunMetric(key string) (metric, bool) {
	if a, ok := runMetricAliases[key]; ok {
		key = a
	}
	if key != maxTPSEKey {
		return metric{}, false
	}
	return metric{key: maxTPSEKey, title: "max tpsE within limits", higherIsBetter: true}, true
}

// maxTPSE is a run's max.tps_e; ok is false for a run without --find-max.
func maxTPSE(r *Run) (float64, bool) {
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
		t.msg = fmt.Sprintf("run %s: %s %s %s %s", c.Inputs[r].Name(), g.metric.key, shown, g.op, g.formatThreshold())
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
