package results

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// table is the limits as a table (the HTML report): a row for each of w's
// transaction types, "none" where l has no limit, and one for any other type l limits.
func (l Limits) table(w Workload) table {
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
			text = formatLimitMS(float64(lim) / float64(time.Millisecond))
		}
		t.Rows = append(t.Rows, []cell{{Text: name, Class: "name"}, {Text: text, Class: "num"}})
	}
	return t
}

// verdictCell is a step's pass/fail cell: "pass", or "FAIL: Trade-Status +9"
// naming the transaction furthest over its limit and how many more broke.
func verdictCell(v Verdict) cell {
	if v.Pass {
		return cell{Text: "pass", Class: "pass"}
	}
	return cell{Text: "FAIL: " + v.Short, Class: "fail"}
}

// txnLimitCells are one transaction's limit and verdict in a step.
func txnLimitCells(st *Step, name string, lims Limits) []cell {
	lim, ok := lims[name]
	if !ok {
		return []cell{{Text: "none", Class: "num"}, {Text: "-"}}
	}
	limCell := cell{Text: formatLimitMS(float64(lim) / float64(time.Millisecond)), Class: "num"}
	if slices.Contains(st.LimitsBroken, name) {
		return []cell{limCell, {Text: "FAIL", Class: "fail"}}
	}
	return []cell{limCell, {Text: "pass", Class: "pass"}}
}

// limitsNote says what the limits column judges: the limits the file recorded, by
// name.
func limitsNote(lims Limits) string {
	var parts []string
	for _, name := range sortedKeys(lims) {
		parts = append(parts, Slug(name)+" "+formatLimitMS(float64(lims[name])/float64(time.Millisecond)))
	}
	return fmt.Sprintf("limits: a step passes when every transaction's p90 is within its limit and errors stay under %.0f %% (%s).",
		MaxErrorShare*100, strings.Join(parts, ", "))
}
