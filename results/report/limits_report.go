package report

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// limitsTable is the limits as a table (the HTML report): a row for each of w's
// transaction types, "none" where l has no limit, and one for any other type l limits.
func limitsTable(l results.Limits, w results.Workload) table {
	t := table{Caption: "Response-time limits (90th percentile)", Head: []string{"transaction", "p90 limit"}}
	names := w.Names()
	for name := range l {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		lim, ok := l[name]
		text := "none"
		if ok {
			text = figures.FormatLimitMS(float64(lim) / float64(time.Millisecond))
		}
		t.Rows = append(t.Rows, []cell{{Text: name, Class: "name"}, {Text: text, Class: "num"}})
	}
	return t
}

// verdictCell is a step's pass/fail cell: "pass", or "FAIL: Trade-Status +9"
// naming the transaction furthest over its limit and how many more broke.
func verdictCell(v figures.Verdict) cell {
	if v.Pass {
		return cell{Text: "pass", Class: "pass"}
	}
	return cell{Text: "FAIL: " + v.Short, Class: "fail"}
}

// txnLimitCells are one transaction's limit and verdict in a step.
func txnLimitCells(st *results.Step, name string, lims results.Limits) []cell {
	lim, ok := lims[name]
	if !ok {
		return []cell{{Text: "none", Class: "num"}, {Text: "-"}}
	}
	limCell := cell{Text: figures.FormatLimitMS(float64(lim) / float64(time.Millisecond)), Class: "num"}
	if slices.Contains(st.LimitsBroken, name) {
		return []cell{limCell, {Text: "FAIL", Class: "fail"}}
	}
	return []cell{limCell, {Text: "pass", Class: "pass"}}
}

// limitsNote says what the limits column judges: the limits the file recorded, by
// name.
func limitsNote(lims results.Limits) string {
	var parts []string
	for _, name := range figures.SortedKeys(lims) {
		parts = append(parts, results.Slug(name)+" "+figures.FormatLimitMS(float64(lims[name])/float64(time.Millisecond)))
	}
	return fmt.Sprintf("limits: a step passes when every transaction's p90 is within its limit and errors stay under %.0f %% (%s).",
		figures.MaxErrorShare*100, strings.Join(parts, ", "))
}
