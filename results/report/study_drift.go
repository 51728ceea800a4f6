package report

import (
	"fmt"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
)

// The drift check: each system's repeats of a workload's leading figure in the
// order they ran, so a figure that climbs or falls over the hours is seen, and the
// comparisons' own drift test (compare.DriftOf, a slope shared by both sides over
// the run order) said in words where it finds one.

// driftSeries is one system's figure at one step, repeat by repeat.
type driftSeries struct {
	system string
	values []float64
}

// studyDriftTable is the workload's drift table, each system's repeats in the order
// they ran (a system's repeats run in order): tps at its highest user count,
// or IOPS at each profile's (or the replay's) highest depth; ok is false without
// a comparison.
func studyDriftTable(w compare.StudyWorkload) (table, bool) {
	var caption string
	var series [][]driftSeries
	var steps []string
	switch {
	case w.Runs != nil && len(w.Runs.Users) > 0:
		i := len(w.Runs.Users) - 1
		caption = fmt.Sprintf("Drift check, %s: tps at %s by repeat", results.Printable(w.Name), usersText(w.Runs.Users[i]))
		series = append(series, runDrift(w.Runs, i, metricByKey("tps")))
		steps = append(steps, usersText(w.Runs.Users[i]))
	case w.Disks != nil:
		where := "each profile's highest depth"
		if w.Kind == results.WorkloadReplay {
			where = "the replay's step"
		}
		caption = fmt.Sprintf("Drift check, %s: IOPS at %s by repeat", results.Printable(w.Name), where)
		iops, _ := figures.LookupDiskMetric("iops")
		for _, k := range w.Disks.HighestDepths(0) {
			series = append(series, diskDrift(w.Disks, k, iops))
			steps = append(steps, results.Printable(k.String()))
		}
	default:
		return table{}, false
	}
	most := 0
	for _, ss := range series {
		for _, x := range ss {
			most = max(most, len(x.values))
		}
	}
	t := table{Caption: caption, Head: []string{"system", "step"}}
	for k := 1; k <= most; k++ {
		t.Head = append(t.Head, fmt.Sprintf("repeat %d", k))
	}
	for j, ss := range series {
		for _, x := range ss {
			row := []cell{{Text: results.Printable(x.system), Class: "name"}, {Text: steps[j]}}
			for k := 0; k < most; k++ {
				if k < len(x.values) {
					row = append(row, numCell("%.1f", x.values[k]))
				} else {
					row = append(row, dash)
				}
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t, true
}

// runDrift is every side's metric m at matched row i, repeat by repeat.
func runDrift(c *compare.Comparison, i int, m figures.Metric) []driftSeries {
	var out []driftSeries
	for r, in := range c.Inputs {
		out = append(out, driftSeries{system: in.Name(), values: compare.SideValues(c.Reps[i][r], m)})
	}
	return out
}

// diskDrift is every side's metric m at step k, repeat by repeat.
func diskDrift(c *compare.DiskComparison, k results.DiskKey, m figures.DiskMetric) []driftSeries {
	var out []driftSeries
	for _, in := range c.Inputs {
		x := driftSeries{system: in.Name()}
		for _, rep := range in.All() {
			if st := results.StepAt(rep.Run.Disk, k); st != nil {
				if v, ok := m.Value(st); ok {
					x.values = append(x.values, v)
				}
			}
		}
		out = append(out, x)
	}
	return out
}

// studyDriftLines are the OLTP comparisons' drift findings: at each user count,
// each other system and the baseline whose tps moved together over the run
// order.
func studyDriftLines(s *compare.Study) []string {
	var out []string
	tps := metricByKey("tps")
	for _, w := range s.Workloads {
		c := w.Runs
		if c == nil {
			continue
		}
		for i, u := range c.Users {
			for r := 1; r < len(c.Inputs); r++ {
				d, ok := compare.DriftOf(c.Reps[i][0], c.Reps[i][r], tps)
				if !ok {
					continue
				}
				order := "interleaved, so the trend cancels in the difference"
				if d.Sequential {
					order = "one ran after the other, so the trend reads as a difference"
				}
				out = append(out, fmt.Sprintf("%s at %s: tps of %s and %s moved %+.1f %% per repeat over the run order (%s)",
					results.Printable(w.Name), usersText(u), c.Inputs[r].Name(), c.Inputs[0].Name(), d.PerRepeat, order))
			}
		}
	}
	return out
}
