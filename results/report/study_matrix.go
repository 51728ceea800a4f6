package report

import (
	"strconv"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
)

// A study's matrix, built once and rendered as text, CSV, JSON and HTML, so the
// four cannot disagree: per workload, one row per (step, figure), one cell per
// system (the baseline first), each after the baseline with its estimate.

// studyRow is one figure at one step of a workload, across the systems.
type studyRow struct {
	Step   string // "8 users", "database, 16 outstanding"
	Metric figures.Metric
	// Key names the figure in CSV and JSON as a gate would: "tps", "disk.iops",
	// "replay.achieved".
	Key string
	// Cells are one per Study.Systems, in its order.
	Cells []studyCell
}

// studyCell is one system's figure: its value (the mean over its repeats) and,
// after the baseline, the change against it with its interval and verdict.
type studyCell struct {
	Known bool
	Value float64
	Est   *compare.Estimate
}

// studyRunKeys are an OLTP workload's rows at each user count, as white papers
// tabulate a controller: throughput, response time, and the I/O beside them.
var studyRunKeys = []string{"tps", "tps_e", "p95", "io_per_txn", "read_iops", "write_iops"}

// studyDiskKeys are a profile step's rows; the p99s only where a step has them.
var studyDiskKeys = []string{"iops", "mbps", "latency", "read_p99", "write_p99"}

// studyReplayKeys are a replay's rows beside its fidelity figures (ReplayFigures).
var studyReplayKeys = []string{"iops", "read_p99", "write_p99"}

// studyRows are the workload's rows; none without a comparison.
func studyRows(s *compare.Study, w compare.StudyWorkload) []studyRow {
	sides := make([]int, len(s.Systems)) // the system's side in the comparison, -1 without
	for j, sys := range s.Systems {
		sides[j] = -1
		if r, ok := w.Side(sys); ok {
			sides[j] = r
		}
	}
	switch {
	case w.Runs != nil:
		return runRows(w.Runs, sides)
	case w.Disks != nil:
		return diskRows(w.Disks, sides, w.Kind == results.WorkloadReplay)
	}
	return nil
}

// runRows are an OLTP comparison's rows at each shared user count.
func runRows(c *compare.Comparison, sides []int) []studyRow {
	var rows []studyRow
	for i, u := range c.Users {
		for _, key := range studyRunKeys {
			m := metricByKey(key)
			rows = appendKnown(rows, studyRow{Step: usersText(u), Metric: m, Key: key}, sides,
				func(r int) (float64, bool) { return c.Value(i, r, m) },
				func(r int) (compare.Estimate, bool) { return c.Estimate(i, r, m) })
		}
	}
	return rows
}

// diskRows are a profile or replay comparison's rows at each shared step.
func diskRows(c *compare.DiskComparison, sides []int, replay bool) []studyRow {
	keys := studyDiskKeys
	if replay {
		keys = studyReplayKeys
	}
	var rows []studyRow
	for _, k := range c.Keys {
		step := results.Printable(k.String())
		if replay {
			for _, f := range compare.ReplayFigures {
				key := f.Metric.Key
				rows = appendKnown(rows, studyRow{Step: step, Metric: f.Metric, Key: "replay." + key}, sides,
					func(r int) (float64, bool) { return c.ReplayValue(k, r, key) },
					func(r int) (compare.Estimate, bool) { return c.ReplayEstimate(k, r, key) })
			}
		}
		for _, key := range keys {
			dm, _ := figures.LookupDiskMetric(key)
			rows = appendKnown(rows, studyRow{Step: step, Metric: dm.AsMetric(), Key: figures.DiskGatePrefix + key}, sides,
				func(r int) (float64, bool) { return c.Value(k, r, dm) },
				func(r int) (compare.Estimate, bool) { return c.Estimate(k, r, dm) })
		}
	}
	return rows
}

// appendKnown fills row's cells from value and estimate and appends it when any
// system knows the figure.
func appendKnown(rows []studyRow, row studyRow, sides []int, value func(r int) (float64, bool), estimate func(r int) (compare.Estimate, bool)) []studyRow {
	known := false
	for _, r := range sides {
		cl := studyCell{}
		if r >= 0 {
			cl.Value, cl.Known = value(r)
		}
		if cl.Known && r > 0 {
			if e, ok := estimate(r); ok {
				cl.Est = &e
			}
		}
		known = known || cl.Known
		row.Cells = append(row.Cells, cl)
	}
	if known {
		return append(rows, row)
	}
	return rows
}

// usersText is "8 users" (one user reads "1 user").
func usersText(u int) string {
	if u == 1 {
		return "1 user"
	}
	return strconv.Itoa(u) + " users"
}
