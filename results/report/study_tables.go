package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
)

// studyNotes numbers the reasons a cell has no verdict, so a reason is said once
// in a footnote, not on every cell it applies to.
type studyNotes struct{ reasons []string }

// mark is the reason's footnote mark, "[2]".
func (n *studyNotes) mark(reason string) string {
	i := slices.Index(n.reasons, reason)
	if i < 0 {
		n.reasons = append(n.reasons, reason)
		i = len(n.reasons) - 1
	}
	return fmt.Sprintf("[%d]", i+1)
}

// lines are the footnotes, "[1] 2 repeats a side; a verdict needs 3".
func (n *studyNotes) lines() []string {
	out := make([]string, len(n.reasons))
	for i, r := range n.reasons {
		out[i] = fmt.Sprintf("[%d] no verdict: %s", i+1, r)
	}
	return out
}

// workloadTitle is "oltp (OLTP run: users 4,8; ...)".
func workloadTitle(w compare.StudyWorkload) string {
	kind := map[string]string{results.WorkloadRun: "OLTP run", results.WorkloadDisk: "storage profiles", results.WorkloadReplay: "replay"}[w.Kind]
	if kind == "" {
		kind = results.Printable(w.Kind)
	}
	if w.Summary != "" {
		kind += ": " + results.Printable(w.Summary)
	}
	return fmt.Sprintf("%s (%s)", results.Printable(w.Name), kind)
}

// studyMatrixTable is a workload's table: a row per step and figure, the
// systems as columns (the baseline first), each other system with its change
// against the baseline, the change's 95 % interval, the smallest difference the
// data can show and the verdict.
func studyMatrixTable(s *compare.Study, w compare.StudyWorkload, rows []studyRow, notes *studyNotes) table {
	t := table{Caption: workloadTitle(w), Head: []string{"step", "figure", results.Printable(s.Systems[0])}}
	for _, sys := range s.Systems[1:] {
		t.Head = append(t.Head, results.Printable(sys), "vs "+results.Printable(s.Systems[0]), "95 % interval", "detectable", "verdict")
	}
	prev := ""
	for _, row := range rows {
		step := row.Step
		if step == prev {
			step = "" // the step names its group of rows once
		}
		prev = row.Step
		cells := []cell{{Text: step, Class: "name"}, {Text: row.Metric.Title, Class: "name"}}
		base := row.Cells[0]
		for j, cl := range row.Cells {
			cells = append(cells, valueCell(row.Metric, cl))
			if j == 0 {
				continue
			}
			cells = append(cells, studyChangeCells(row.Metric, base, cl, notes)...)
		}
		t.Rows = append(t.Rows, cells)
	}
	return t
}

// valueCell is a system's value, "-" when it lacks the figure.
func valueCell(m figures.Metric, cl studyCell) cell {
	if !cl.Known {
		return dash
	}
	return cell{Text: figures.FormatValue(m, cl.Value), Class: "num"}
}

// studyChangeCells are changeCells with the reason of a missing verdict as a
// footnote mark.
func studyChangeCells(m figures.Metric, base, cl studyCell, notes *studyNotes) []cell {
	if cl.Est == nil || !base.Known {
		return []cell{dash, dash, dash, dash}
	}
	cs := changeCells(m, base.Value, cl.Value, *cl.Est)
	if cl.Est.Verdict == compare.VerdictNone && cl.Est.Reason != "" {
		cs[3].Text += " " + notes.mark(cl.Est.Reason)
	}
	if cl.Est.Verdict == compare.VerdictNoise {
		// The verdict column says it: the change reads as the others, unmarked.
		cs[0].Text, cs[3].Text = strings.TrimSuffix(cs[0].Text, " ~"), "~"
	}
	return cs
}

// studySystemsTable lists the systems: the baseline first, their tags and where
// they live.
func studySystemsTable(s *compare.Study) table {
	t := table{Caption: "Systems (the first is the baseline)", Head: []string{"system", "tags", "where", "finished runs"}}
	for _, name := range s.Systems {
		sys := studySystem(s.Record, name)
		done := 0
		for _, r := range s.Record.Runs {
			if r.System == name && r.Done() {
				done++
			}
		}
		var where []string
		for _, x := range sys.Where {
			where = append(where, results.Printable(x))
		}
		t.Rows = append(t.Rows, []cell{{Text: results.Printable(name), Class: "name"}, {Text: formatTags(sys.Tags)},
			{Text: strings.Join(where, "; "), Class: "path"}, {Text: fmt.Sprint(done), Class: "num"}})
	}
	return t
}

// studySystem is the record's system of that name.
func studySystem(rec *results.Study, name string) results.StudySystem {
	for _, sys := range rec.Systems {
		if sys.Name == name {
			return sys
		}
	}
	return results.StudySystem{Name: name}
}

// studyRunsTable lists the runs in the order they ran, so a reader sees the
// systems interleave (A B A B) and what failed.
func studyRunsTable(s *compare.Study) table {
	t := table{Caption: "Runs in the order they ran", Head: []string{"#", "system", "workload", "repeat", "started (UTC)", "took", "status", "file"}}
	for i, r := range s.Record.Runs {
		took := "-"
		if !r.Finished.IsZero() && !r.Started.IsZero() {
			took = r.Finished.Sub(r.Started).Round(1e9).String()
		}
		status := results.Printable(r.Status)
		if r.Error != "" {
			status += ": " + results.Printable(r.Error)
		}
		class := ""
		if !r.Done() {
			class = "fail"
		}
		t.Rows = append(t.Rows, []cell{{Text: fmt.Sprint(i + 1), Class: "num"}, {Text: results.Printable(r.System), Class: "name"},
			{Text: results.Printable(r.Workload)}, {Text: fmt.Sprint(r.Repeat), Class: "num"}, {Text: timeText(r.Started)},
			{Text: took, Class: "num"}, {Text: status, Class: class}, {Text: results.Printable(r.File), Class: "path"}})
	}
	return t
}
