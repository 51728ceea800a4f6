package compare

import (
	"fmt"
	"strings"
)

// UnjudgedGate is a gate that reads compare's verdict ("tps<-10% significant",
// "tps worse") at steps where the figure has none: the gate could neither trip
// nor pass there, and a CI job must not read its silence as a pass.
type UnjudgedGate struct {
	Gate   Gate
	Run    int   // index into the comparison's inputs
	Users  []int // the matched steps without a verdict, ascending
	Reason string
	// runName is the run's name as the comparison shows it.
	runName string
}

// String reads as `run B at 2, 4 users: --fail-if "tps<-10% significant" cannot
// judge tps: one run a side: run --repeat 3 to judge`.
func (u UnjudgedGate) String() string {
	us := make([]string, len(u.Users))
	for k, n := range u.Users {
		us[k] = fmt.Sprint(n)
	}
	return fmt.Sprintf("run %s at %s users: --fail-if %q cannot judge %s: %s",
		u.runName, strings.Join(us, ", "), u.Gate.Expr, u.Gate.metric.Key, u.Reason)
}

// Unjudged lists, per run after the first, gate and reason, the matched steps
// where a gate that reads the verdict found the figure known but not judged (one
// run a side, too few repeats, too short for an interval, a base near zero).
func (c *Comparison) Unjudged(gates []Gate) []UnjudgedGate {
	var out []UnjudgedGate
	for r := 1; r < len(c.Inputs); r++ {
		for _, g := range gates {
			if g.runLevel || !g.usesInterval() {
				continue
			}
			at := map[string]int{} // reason → index into out
			for i, u := range c.Users {
				e, ok := c.Estimate(i, r, g.metric)
				if !ok || e.Verdict != VerdictNone {
					continue
				}
				k, seen := at[e.Reason]
				if !seen {
					k = len(out)
					at[e.Reason] = k
					out = append(out, UnjudgedGate{Gate: g, Run: r, Reason: e.Reason, runName: c.Inputs[r].Name()})
				}
				out[k].Users = append(out[k].Users, u)
			}
		}
	}
	return out
}
