package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/results/merge"
	"github.com/brokerbench/brokerbench/results/stats"
)

// describeRun is the one-line identity of a run: database, scale, seed, tags.
func describeRun(in results.Input) string {
	r := in.Run
	parts := []string{}
	if r.Database.Product != "" {
		parts = append(parts, strings.TrimSpace(r.Database.Product+" "+r.Database.Version))
	}
	if r.Scale.Customers > 0 {
		parts = append(parts, fmt.Sprintf("%d customers", r.Scale.Customers))
	}
	parts = append(parts, describeStorage(r.Database)...)
	parts = append(parts, fmt.Sprintf("seed %d", r.Seed))
	if r.Frames != "" {
		parts = append(parts, r.Frames+" frames")
	}
	parts = append(parts, merge.DescribeShards(r)...)
	if r.Interrupted {
		parts = append(parts, "INTERRUPTED")
	}
	if t := formatTags(r.Tags); t != "" {
		parts = append(parts, "tags: "+t)
	}
	return strings.Join(parts, ", ")
}

func formatTags(tags map[string]string) string {
	keys := figures.SortedKeys(tags)
	kv := make([]string, len(keys))
	for i, k := range keys {
		kv[i] = results.Printable(k) + "=" + results.Printable(tags[k])
	}
	return strings.Join(kv, ", ")
}

// WriteComparisonText prints the comparison: the runs, one headline per run, one table per
// matched user count with every figure side by side and its change against the
// base, then the unmatched steps.
func WriteComparisonText(c *compare.Comparison, w io.Writer) error {
	w = results.NewTerminalWriter(w)
	tw := tabwriter.NewWriter(w, 2, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Runs (the first is the base):")
	for r, in := range c.Inputs {
		fmt.Fprintf(tw, "  [%d]\t%s\t%s\t%s\t\n", r+1, in.Name(), sidePaths(in), describeRun(in))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for r := 1; r < len(c.Inputs); r++ {
		diffs := c.Differences(r)
		if len(diffs) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nWhat differs (%s vs %s):\n", c.Inputs[r].Name(), c.Inputs[0].Name())
		for _, d := range diffs {
			fmt.Fprintln(w, "  "+d)
		}
	}
	fmt.Fprintln(w)
	for r := 1; r < len(c.Inputs); r++ {
		if mh := c.MaxHeadline(r); mh != "" {
			fmt.Fprintln(w, mh)
		} else if h := c.Headline(r); h != "" {
			fmt.Fprintf(w, "%s vs %s %s\n", c.Inputs[r].Name(), c.Inputs[0].Name(), h)
		} else {
			fmt.Fprintf(w, "%s vs %s: no step with the same user count\n", c.Inputs[r].Name(), c.Inputs[0].Name())
		}
	}
	for _, warn := range append(c.RegimeWarnings(), c.BoundWarnings()...) {
		fmt.Fprintln(w, "warning: "+warn)
	}
	for _, warn := range c.SettleWarnings() {
		fmt.Fprintln(w, "warning: "+warn)
	}
	for _, note := range append(VerdictNotes(c), c.RegimeNotes()...) {
		fmt.Fprintln(w, "note: "+note)
	}
	if t, ok := maxTable(c); ok {
		if err := writeTextTable(w, t); err != nil {
			return err
		}
	}
	for i := range c.Users {
		if err := writeTextTable(w, stepTable(c, i)); err != nil {
			return err
		}
	}
	if len(c.Unmatched) > 0 {
		return writeTextTable(w, unmatchedTable(c))
	}
	return nil
}

// sidePaths names a side's files: "a.json", or "a-r1.json, a-r2.json, a-r3.json
// (3 repeats)".
func sidePaths(in results.Input) string {
	if len(in.Repeats) == 0 {
		return in.Path
	}
	var ps []string
	for _, x := range in.All() {
		ps = append(ps, x.Path)
	}
	return fmt.Sprintf("%s (%d repeats)", strings.Join(ps, ", "), len(ps))
}

// stepTable is matched user count i: one row per figure known in any run, each
// run's value and, after the base, its change with its interval and verdict.
func stepTable(c *compare.Comparison, i int) table {
	t := viewsTable(c, fmt.Sprintf("%d users", c.Users[i]), i, c.Reps[i])
	if row, ok := limitsRow(c, c.Views[i], hasRepeats(c)); ok {
		t.Rows = append(t.Rows, row)
	}
	return t
}

// hasRepeats tells whether any side was given as several runs.
func hasRepeats(c *compare.Comparison) bool {
	for _, in := range c.Inputs {
		if len(in.Repeats) > 0 {
			return true
		}
	}
	return false
}

// viewsTable is one step of each side side by side (no repeats: the side has
// none), every figure known in any of them with its change against the base.
// Matched row i (-1: none) gives the changes their intervals and verdicts.
func viewsTable(c *compare.Comparison, caption string, i int, sides [][]figures.StepView) table {
	spread := hasRepeats(c)
	t := table{Caption: caption, Head: []string{"figure"}}
	for r, in := range c.Inputs {
		t.Head = append(t.Head, in.Name())
		if spread {
			t.Head = append(t.Head, "min / median / max")
		}
		if r > 0 {
			t.Head = append(t.Head, "change")
			if i >= 0 {
				t.Head = append(t.Head, "95 % interval", "detectable", "verdict")
			}
		}
	}
	for _, m := range c.RowMetrics() {
		b, okB := compare.SideValue(sides[0], m)
		row := []cell{{Text: m.Title, Class: "name"}}
		known := false
		for r := range c.Inputs {
			v, ok := compare.SideValue(sides[r], m)
			known = known || ok
			if ok {
				row = append(row, cell{Text: figures.FormatValue(m, v), Class: "num"})
			} else {
				row = append(row, dash)
			}
			if spread {
				row = append(row, spreadCell(m, sides[r]))
			}
			if r == 0 {
				continue
			}
			if !ok || !okB {
				row = append(row, dash)
				if i >= 0 {
					row = append(row, dash, dash, dash)
				}
				continue
			}
			if i < 0 {
				row = append(row, cell{Text: figures.FormatChangeOf(m, b, v), Class: changeClass(m, stats.Change(b, v))})
				continue
			}
			e, _ := c.Estimate(i, r, m)
			row = append(row, changeCells(m, b, v, e)...)
		}
		if known {
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

// changeCells are a change, its interval, the smallest change the data can show
// (detectable) and the verdict. A change within noise is marked "~" and not
// coloured, so the eye goes to the changes that are real; a change from a base
// near zero is the two values, with no percentage interval.
func changeCells(m figures.Metric, b, v float64, e compare.Estimate) []cell {
	ch := cell{Text: figures.FormatChangeOf(m, b, v), Class: "num"}
	if e.NearZero {
		ch.Text = figures.FormatValue(m, b) + " → " + figures.FormatValue(m, v)
	}
	switch {
	case e.Verdict == compare.VerdictNoise:
		ch.Text += " ~"
		ch.Class = "noise"
	case e.Verdict == compare.VerdictBetter:
		ch.Class = "better"
	case e.Verdict == compare.VerdictWorse:
		ch.Class = "worse"
	}
	iv, det := dash, dash
	if e.HasInterval() {
		iv = cell{Text: figures.FormatInterval(e.Lo, e.Hi), Class: "num"}
		det = cell{Text: formatDetectable(e.Detectable), Class: "num"}
	}
	return []cell{ch, iv, det, {Text: string(e.Verdict), Class: ch.Class}}
}

// spreadCell is a side's min / median / max over its repeats; "-" for one run.
func spreadCell(m figures.Metric, reps []figures.StepView) cell {
	return spreadOf(m, compare.SideValues(reps, m))
}

// spreadOf is the min / median / max of a side's per-run figures xs; "-" for one.
func spreadOf(m figures.Metric, xs []float64) cell {
	if len(xs) < 2 {
		return dash
	}
	slices.Sort(xs)
	med := xs[len(xs)/2]
	if len(xs)%2 == 0 {
		med = (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
	}
	return cell{Text: figures.FormatValue(m, xs[0]) + " / " + figures.FormatValue(m, med) + " / " + figures.FormatValue(m, xs[len(xs)-1]), Class: "spread"}
}

// limitsRow is each run's pass/fail against its own recorded limits for the
// given steps; ok is false when no run recorded limits.
func limitsRow(c *compare.Comparison, views []*figures.StepView, spread bool) ([]cell, bool) {
	row := []cell{{Text: "limits", Class: "name"}}
	any := false
	for r, in := range c.Inputs {
		lims, ok := results.LimitsOf(in.Run)
		v := views[r]
		if ok && v != nil {
			row = append(row, verdictCell(figures.JudgeLimits(lims, v.Step)))
			any = true
		} else {
			row = append(row, dash)
		}
		if spread {
			row = append(row, cell{})
		}
		if r > 0 {
			row = append(row, cell{}, cell{}, cell{}, cell{})
		}
	}
	return row, any
}

func unmatchedTable(c *compare.Comparison) table {
	t := table{Caption: "Unmatched steps (not compared)", Head: []string{"run", "users", "why"}}
	for _, um := range c.Unmatched {
		t.Rows = append(t.Rows, []cell{{Text: c.Inputs[um.Run].Name()}, {Text: fmt.Sprint(um.Users), Class: "num"}, {Text: um.Reason}})
	}
	return t
}

// maxTable puts each run's --find-max step side by side: what the storage did at
// the most load each sustained within its limits. ok is false unless every run
// found a passing maximum.
func maxTable(c *compare.Comparison) (table, bool) {
	sides := make([][]figures.StepView, len(c.Inputs))
	for r, in := range c.Inputs {
		for _, rep := range in.All() {
			m := rep.Run.Max
			if m == nil || m.Step < 0 || m.Step >= len(rep.Run.Steps) {
				return table{}, false
			}
			sides[r] = append(sides[r], figures.NewStepView(&rep.Run.Steps[m.Step]))
		}
	}
	t := viewsTable(c, "At the maximum within limits (each run's own --find-max step)", -1, sides)
	row := []cell{{Text: "offered rate", Class: "name"}}
	for r, in := range c.Inputs {
		row = append(row, numCell("%.4g", in.Run.Max.Load))
		if hasRepeats(c) {
			row = append(row, cell{})
		}
		if r > 0 {
			row = append(row, cell{Text: figures.FormatChange(stats.Change(c.Inputs[0].Run.Max.Load, in.Run.Max.Load), 1), Class: "num"})
		}
	}
	t.Rows = append([][]cell{row}, t.Rows...)
	return t, true
}
