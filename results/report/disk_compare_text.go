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
		fmt.Fprintf(tw, "  [%d]\t%s\t%s\t%s\t\n", r+1, in.Name(), in.Path, describeDisk(in))
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
func DiskComparisonTables(c *compare.DiskComparison) []table {
	var out []table
	for _, k := range c.Keys {
		t := table{Caption: k.String(), Head: []string{"figure"}}
		for r, in := range c.Inputs {
			t.Head = append(t.Head, in.Name())
			if r > 0 {
				t.Head = append(t.Head, "change")
			}
		}
		for _, key := range compareKeys {
			m, _ := figures.LookupDiskMetric(key)
			if row, known := diskFigureRow(c, m.AsMetric(), func(r int) (float64, bool) { return c.Value(k, r, m) }); known {
				t.Rows = append(t.Rows, row)
			}
		}
		for _, f := range compare.ReplayFigures {
			value := func(r int) (float64, bool) {
				if rp := c.ReplayAt(k, r); rp != nil {
					return f.Value(rp)
				}
				return 0, false
			}
			if row, known := diskFigureRow(c, f.Metric, value); known {
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
