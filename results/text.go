package results

import (
	"fmt"
	"io"
	"math"
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
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
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
	parts = append(parts, fmt.Sprintf("seed %d", r.Seed))
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
		kv[i] = k + "=" + tags[k]
	}
	return strings.Join(kv, ", ")
}

// WriteText prints the comparison: the runs, one headline per run, one block per
// matched user count with every figure side by side and its change against the
// base, then the unmatched steps.
func (c *Comparison) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 2, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Runs (the first is the base):")
	for r, in := range c.Inputs {
		fmt.Fprintf(tw, "  [%d]\t%s\t%s\t%s\t\n", r+1, in.Name(), in.Path, describeRun(in))
	}
	tw.Flush()
	fmt.Fprintln(w)
	for r := 1; r < len(c.Inputs); r++ {
		if h := c.Headline(r); h != "" {
			fmt.Fprintf(w, "%s vs %s %s\n", c.Inputs[r].Name(), c.Inputs[0].Name(), h)
		} else {
			fmt.Fprintf(w, "%s vs %s: no step with the same user count\n", c.Inputs[r].Name(), c.Inputs[0].Name())
		}
	}
	ms := c.rowMetrics()
	width := len("figure")
	for _, m := range ms {
		width = max(width, len(m.title))
	}
	// AlignRight right-aligns every column; the names are padded to read left-aligned.
	left := func(s string) string { return fmt.Sprintf("  %-*s", width, s) }
	for i, u := range c.Users {
		fmt.Fprintf(w, "\n%d users\n", u)
		tw = tabwriter.NewWriter(w, 2, 0, 2, ' ', tabwriter.AlignRight)
		hdr := []string{left("figure")}
		for r, in := range c.Inputs {
			hdr = append(hdr, in.Name())
			if r > 0 {
				hdr = append(hdr, "change")
			}
		}
		fmt.Fprintln(tw, strings.Join(hdr, "\t")+"\t")
		for _, m := range ms {
			b, okB := c.value(i, 0, m)
			cells := []string{left(m.title)}
			any := false
			for r := range c.Inputs {
				v, ok := c.value(i, r, m)
				any = any || ok
				cells = append(cells, cellOrDash(ok, func() string { return formatValue(m, v) }))
				if r > 0 {
					cells = append(cells, cellOrDash(ok && okB, func() string { return formatChange(Change(b, v), 1) }))
				}
			}
			if any {
				fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(c.Unmatched) > 0 {
		fmt.Fprintln(w, "\nUnmatched steps (not compared):")
		for _, um := range c.Unmatched {
			fmt.Fprintf(w, "  %s: %d users: %s\n", c.Inputs[um.Run].Name(), um.Users, um.Reason)
		}
	}
	return nil
}

func cellOrDash(ok bool, f func() string) string {
	if !ok {
		return "-"
	}
	return f()
}
