package compare

import (
	"fmt"
	"math"
	"strings"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// WidestDetectable is the largest detectable difference (percent) of every other
// system against the baseline, over the named figures at every step they share:
// OLTP metric keys ("tps", "tps_e", "p95": figures.LookupStepMetric) on the OLTP
// workloads, "disk.KEY" (figures.LookupDiskMetric) on the profiles and replays. A
// study that repeats until a precision is reached repeats while it is above its
// target: the decision rests on the width of the intervals, never on whether a
// difference was found.
//
// ok is false while some named figure has no interval yet: a system with no
// finished run of a workload the figure applies to, or a side of fewer than two
// runs, or an unknown key. A figure that can never have an interval (a base of
// zero errors) is passed over, or the study would repeat to its budget for nothing.
func (s *Study) WidestDetectable(names []string) (pct float64, where string, ok bool) {
	if len(names) == 0 {
		return 0, "", false
	}
	found := false
	for _, name := range names {
		w, at, known, complete := s.widestOf(name)
		if !known || !complete {
			return 0, "", false
		}
		if !math.IsNaN(w) && (!found || w > pct) {
			pct, where, found = w, at, true
		}
	}
	return pct, where, found
}

// widestOf is figure name's widest detectable difference and where; known is
// false for a key that names no figure, complete false while a workload it applies
// to lacks a side or an interval. w is NaN when no step had an interval.
func (s *Study) widestOf(name string) (w float64, where string, known, complete bool) {
	w = math.NaN()
	key, isDisk := strings.CutPrefix(strings.ToLower(strings.TrimSpace(name)), figures.DiskGatePrefix)
	dm, okDisk := figures.LookupDiskMetric(key)
	m, okRun := figures.LookupStepMetric(key)
	if (isDisk && !okDisk) || (!isDisk && !okRun) {
		return w, "", false, false
	}
	for _, sw := range s.Workloads {
		if isDisk == (sw.Kind == results.WorkloadRun) {
			continue // the figure is of the other kind of workload
		}
		if len(sw.Missing) > 0 || sw.Inputs() == nil {
			return w, "", true, false
		}
		for r := 1; r < len(sw.Inputs()); r++ {
			var ests []placedEstimate
			if isDisk {
				ests = diskEstimates(sw.Disks, r, dm)
			} else {
				ests = runEstimates(sw.Runs, r, m)
			}
			for _, pe := range ests {
				if pe.e.RunsA < 2 || pe.e.RunsB < 2 {
					return w, "", true, false
				}
				if d := pe.e.Detectable; !math.IsNaN(d) && (math.IsNaN(w) || d > w) {
					w = d
					where = fmt.Sprintf("%s vs %s, %s at %s: %s", sw.Inputs()[r].Name(), sw.Inputs()[0].Name(), results.Printable(sw.Name), pe.at, name)
				}
			}
		}
	}
	return w, where, true, true
}

// placedEstimate is an estimate and the step it is at, in words.
type placedEstimate struct {
	e  Estimate
	at string
}

// runEstimates are metric m's estimates of side r at every shared user count.
func runEstimates(c *Comparison, r int, m figures.Metric) []placedEstimate {
	var out []placedEstimate
	for i, u := range c.Users {
		if e, ok := c.Estimate(i, r, m); ok {
			out = append(out, placedEstimate{e, fmt.Sprintf("%d users", u)})
		}
	}
	return out
}

// diskEstimates are metric m's estimates of side r at every shared profile step.
func diskEstimates(c *DiskComparison, r int, m figures.DiskMetric) []placedEstimate {
	var out []placedEstimate
	for _, k := range c.Keys {
		if e, ok := c.Estimate(k, r, m); ok {
			out = append(out, placedEstimate{e, results.Printable(k.String())})
		}
	}
	return out
}
