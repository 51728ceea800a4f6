package report

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/results/stats"
)

// WriteComparisonText prints the comparison: the runs, the headlines, one table per profile
// with each depth's IOPS, MB/s and latency side by side, then the unmatched steps.
func WriteDiskComparisonText(c *compare.DiskComparison, w io.Writer) error {
	tw := tabwriter.NewWriter(w, 2, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Storage profiles (the first is the base):")
	for r, in := range c.Inputs {
		fmt.Fprintf(tw, "  [%d]\t%s\t%s\t%s\t\n", r+1, in.Name(), sidePaths(in), describeDisk(in))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, warn := range c.Warnings() {
		fmt.Fprintln(w, "warning: "+warn)
	}
	for r := 1; r < len(c.Inputs); r++ {
		fmt.Fprintf(w, "\n%s vs %s:\n", c.Inputs[r].Name(), c.Inputs[0].Name())
		hs := c.Headlines(r)
		if len(hs) == 0 {
			fmt.Fprintln(w, "  no profile step in common")
		}
		for _, h := range hs {
			fmt.Fprintln(w, "  "+h)
		}
		for _, why := range c.VerdictReasons(r) {
			fmt.Fprintln(w, "  no verdict: "+why)
		}
	}
	for _, t := range DiskComparisonTables(c) {
		if err := writeTextTable(w, t); err != nil {
			return err
		}
	}
	return nil
}

// compareKeys are the figures of the per-profile tables.
var compareKeys = []string{"iops", "mbps", "latency", "read_p99", "write_p99", "sync_p99", "device_iops"}

// DiskComparisonTables are one table per matched step: every figure of compareKeys known in any
// run, each run's value and its change against the base; and the unmatched steps.
// With repeats each side's value is its runs' mean beside their min / median /
// max, and each change has its 95 % interval, detectable difference and verdict.
func DiskComparisonTables(c *compare.DiskComparison) []table {
	var out []table
	judged := c.HasRepeats()
	for _, k := range c.Keys {
		t := table{Caption: k.String(), Head: []string{"figure"}}
		for r, in := range c.Inputs {
			t.Head = append(t.Head, in.Name())
			if judged {
				t.Head = append(t.Head, "min / median / max")
			}
			if r > 0 {
				t.Head = append(t.Head, "change")
				if judged {
					t.Head = append(t.Head, "95 % interval", "detectable", "verdict")
				}
			}
		}
		for _, key := range compareKeys {
			m, _ := figures.LookupDiskMetric(key)
			var row []cell
			var known bool
			if judged {
				row, known = diskJudgedRow(c, m.AsMetric(), func(r int) []float64 { return c.Values(k, r, m) },
					func(r int) (compare.Estimate, bool) { return c.Estimate(k, r, m) })
			} else {
				row, known = diskFigureRow(c, m.AsMetric(), func(r int) (float64, bool) { return c.Value(k, r, m) })
			}
			if known {
				t.Rows = append(t.Rows, row)
			}
		}
		for _, f := range compare.ReplayFigures {
			key := f.Metric.Key
			var row []cell
			var known bool
			if judged {
				row, known = diskJudgedRow(c, f.Metric, func(r int) []float64 { return c.ReplayValues(k, r, key) },
					func(r int) (compare.Estimate, bool) { return c.ReplayEstimate(k, r, key) })
			} else {
				row, known = diskFigureRow(c, f.Metric, func(r int) (float64, bool) { return c.ReplayValue(k, r, key) })
			}
			if known {
				t.Rows = append(t.Rows, row)
			}
		}
		out = append(out, t)
	}
	if len(c.Unmatched) > 0 {
		t := table{Caption: "Unmatched profile steps (not compared)", Head: []string{"step"}}
		for _, u := range c.Unmatched {
			t.Rows = append(t.Rows, []cell{{Text: u}})
		}
		out = append(out, t)
	}
	return out
}

// diskJudgedRow is diskFigureRow with repeats: each side's mean and min / median /
// max of its runs' values, and after the base the change with its interval,
// detectable difference and verdict, as the runs' comparison shows them.
func diskJudgedRow(c *compare.DiskComparison, m figures.Metric, values func(r int) []float64, estimate func(r int) (compare.Estimate, bool)) (row []cell, known bool) {
	mean := func(xs []float64) float64 {
		m, _ := stats.MeanSD(xs)
		return m
	}
	xb := values(0)
	row = []cell{{Text: m.Title, Class: "name"}}
	for r := range c.Inputs {
		xs := values(r)
		known = known || len(xs) > 0
		if len(xs) > 0 {
			row = append(row, cell{Text: figures.FormatValue(m, mean(xs)), Class: "num"}, spreadOf(m, xs))
		} else {
			row = append(row, dash, dash)
		}
		if r == 0 {
			continue
		}
		e, ok := estimate(r)
		if !ok {
			row = append(row, dash, dash, dash, dash)
			continue
		}
		row = append(row, changeCells(m, mean(xb), mean(xs), e)...)
	}
	return row, known
}

// diskFigureRow is one figure's row of a step's table: each run's value and, after the
// base, its change; known is false when no run has the figure.
func diskFigureRow(c *compare.DiskComparison, m figures.Metric, value func(r int) (float64, bool)) (row []cell, known bool) {
	b, okB := value(0)
	row = []cell{{Text: m.Title, Class: "name"}}
	for r := range c.Inputs {
		v, ok := value(r)
		known = known || ok
		if ok {
			row = append(row, cell{Text: figures.FormatValue(m, v), Class: "num"})
		} else {
			row = append(row, dash)
		}
		if r == 0 {
			continue
		}
		if ok && okB {
			row = append(row, cell{Text: figures.FormatChangeOf(m, b, v), Class: changeClass(m, stats.Change(b, v))})
		} else {
			row = append(row, dash)
		}
	}
	return row, known
}
