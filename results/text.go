package results

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// formatValue renders a metric's value with its unit.
func formatValue(m metric, v float64) string {
	switch m.unit {
	case unitMS:
		return formatMS(v)
	case unitMBps:
		return fmt.Sprintf("%.1f MB/s", v)
	case unitRatio:
		return fmt.Sprintf("%.2f", v)
	case unitFraction:
		return formatHitRatio(v)
	}
	if m.integer {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

// formatMS shows milliseconds with three significant digits below 10 ms, since
// storage differences live in the sub-millisecond range.
func formatMS(v float64) string {
	switch {
	case v < 10:
		return fmt.Sprintf("%.3f ms", v)
	case v < 100:
		return fmt.Sprintf("%.2f ms", v)
	}
	return fmt.Sprintf("%.1f ms", v)
}

// describeRun is the one-line identity of a run: database, scale, seed, tags.
func describeRun(in Input) string {
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
	parts = append(parts, describeShards(r)...)
	if r.Interrupted {
		parts = append(parts, "INTERRUPTED")
	}
	if t := formatTags(r.Tags); t != "" {
		parts = append(parts, "tags: "+t)
	}
	return strings.Join(parts, ", ")
}

func formatTags(tags map[string]string) string {
	keys := sortedKeys(tags)
	kv := make([]string, len(keys))
	for i, k := range keys {
		kv[i] = Printable(k) + "=" + Printable(tags[k])
	}
	return strings.Join(kv, ", ")
}

// WriteText prints the comparison: the runs, one headline per run, one table per
// matched user count with every figure side by side and its change against the
// base, then the unmatched steps.
func (c *Comparison) WriteText(w io.Writer) error {
	w = NewTerminalWriter(w)
	tw := tabwriter.NewWriter(w, 2, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Runs (the first is the base):")
	for r, in := range c.Inputs {
		fmt.Fprintf(tw, "  [%d]\t%s\t%s\t%s\t\n", r+1, in.Name(), in.Path, describeRun(in))
	}
	if err := tw.Flush(); err != nil {
		return err
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
	for _, warn := range c.RegimeWarnings() {
		fmt.Fprintln(w, "warning: "+warn)
	}
	if t, ok := c.maxTable(); ok {
		if err := writeTextTable(w, t); err != nil {
			return err
		}
	}
	for i := range c.Users {
		if err := writeTextTable(w, c.stepTable(i)); err != nil {
			return err
		}
	}
	if len(c.Unmatched) > 0 {
		return writeTextTable(w, c.unmatchedTable())
	}
	return nil
}

// stepTable is matched user count i: one row per figure known in any run, each
// run's value and, after the base, its change.
func (c *Comparison) stepTable(i int) table {
	t := c.viewsTable(fmt.Sprintf("%d users", c.Users[i]), c.views[i])
	if row, ok := c.limitsRow(c.views[i]); ok {
		t.Rows = append(t.Rows, row)
	}
	return t
}

// viewsTable is one step of each run side by side (nil: the run has none), every
// figure known in any of them with its change against the base.
func (c *Comparison) viewsTable(caption string, views []*stepView) table {
	t := table{Caption: caption, Head: []string{"figure"}}
	for r, in := range c.Inputs {
		t.Head = append(t.Head, in.Name())
		if r > 0 {
			t.Head = append(t.Head, "change")
		}
	}
	value := func(r int, m metric) (float64, bool) {
		if views[r] == nil {
			return 0, false
		}
		return m.value(*views[r])
	}
	for _, m := range c.rowMetrics() {
		b, okB := value(0, m)
		row := []cell{{Text: m.title, Class: "name"}}
		known := false
		for r := range c.Inputs {
			v, ok := value(r, m)
			known = known || ok
			if ok {
				row = append(row, cell{Text: formatValue(m, v), Class: "num"})
			} else {
				row = append(row, dash)
			}
			if r == 0 {
				continue
			}
			if ok && okB {
				ch := Change(b, v)
				row = append(row, cell{Text: formatChange(ch, 1), Class: changeClass(m, ch)})
			} else {
				row = append(row, dash)
			}
		}
		if known {
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

// limitsRow is each run's pass/fail against its own recorded limits for the
// given steps; ok is false when no run recorded limits.
func (c *Comparison) limitsRow(views []*stepView) ([]cell, bool) {
	row := []cell{{Text: "limits", Class: "name"}}
	any := false
	for r, in := range c.Inputs {
		lims, ok := LimitsOf(in.Run)
		v := views[r]
		if ok && v != nil {
			row = append(row, verdictCell(lims.Judge(v.st)))
			any = true
		} else {
			row = append(row, dash)
		}
		if r > 0 {
			row = append(row, cell{})
		}
	}
	return row, any
}

func (c *Comparison) unmatchedTable() table {
	t := table{Caption: "Unmatched steps (not compared)", Head: []string{"run", "users", "why"}}
	for _, um := range c.Unmatched {
		t.Rows = append(t.Rows, []cell{{Text: c.Inputs[um.Run].Name()}, {Text: fmt.Sprint(um.Users), Class: "num"}, {Text: um.Reason}})
	}
	return t
}

// maxTable puts each run's --find-max step side by side: what the storage did at
// the most load each sustained within its limits. ok is false unless every run
// found a passing maximum.
func (c *Comparison) maxTable() (table, bool) {
	views := make([]*stepView, len(c.Inputs))
	for r, in := range c.Inputs {
		m := in.Run.Max
		if m == nil || m.Step < 0 || m.Step >= len(in.Run.Steps) {
			return table{}, false
		}
		v := newStepView(&in.Run.Steps[m.Step])
		views[r] = &v
	}
	t := c.viewsTable("At the maximum within limits (each run's own --find-max step)", views)
	row := []cell{{Text: "offered rate", Class: "name"}}
	for r, in := range c.Inputs {
		row = append(row, numCell("%.4g", in.Run.Max.Load))
		if r > 0 {
			row = append(row, cell{Text: formatChange(Change(c.Inputs[0].Run.Max.Load, in.Run.Max.Load), 1), Class: "num"})
		}
	}
	t.Rows = append([][]cell{row}, t.Rows...)
	return t, true
}
