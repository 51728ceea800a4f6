package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
)

// WriteStudyText prints a study folder's report (compare or report STUDYDIR): the
// headlines, what the comparisons warn of, one table per workload with the systems
// as columns, the reasons of missing verdicts, then the study's record: its
// systems and what differs, its repeats and duration, its runs in the order they
// ran, and the drift check.
func WriteStudyText(s *compare.Study, w io.Writer) error {
	w = results.NewTerminalWriter(w)
	fmt.Fprintf(w, "Study %s\n\n", studyTitle(s))
	for _, h := range s.Headlines() {
		fmt.Fprintln(w, h)
	}
	for _, warn := range studyWarnings(s) {
		fmt.Fprintln(w, "warning: "+warn)
	}
	notes := &studyNotes{}
	for _, sw := range s.Workloads {
		rows := studyRows(s, sw)
		if len(rows) == 0 {
			fmt.Fprintf(w, "\n%s: not compared (fewer than two systems, or not the baseline, have a finished run of it)\n", workloadTitle(sw))
			continue
		}
		if err := writeStudyTextTable(w, studyMatrixTable(s, sw, rows, notes)); err != nil {
			return err
		}
	}
	ls := notes.lines()
	if chance := studyChanceLine(s); chance != "" {
		ls = append(ls, chance)
	}
	if len(ls) > 0 {
		fmt.Fprintln(w)
		for _, l := range ls {
			fmt.Fprintln(w, l)
		}
	}
	return writeStudyRecordText(s, w)
}

// writeStudyRecordText prints the study's record and the drift check.
func writeStudyRecordText(s *compare.Study, w io.Writer) error {
	fmt.Fprintln(w, "\nStudy record:")
	for _, l := range studyRecordLines(s) {
		fmt.Fprintln(w, "  "+l)
	}
	if err := writeTextTable(w, studySystemsTable(s)); err != nil {
		return err
	}
	for _, d := range studyDiffers(s) {
		fmt.Fprintf(w, "\nWhat differs (%s):\n", d.Title)
		for _, item := range d.Items {
			fmt.Fprintln(w, "  "+results.Printable(item))
		}
	}
	if err := writeTextTable(w, studyRunsTable(s)); err != nil {
		return err
	}
	for _, sw := range s.Workloads {
		if t, ok := studyDriftTable(sw); ok {
			if err := writeTextTable(w, t); err != nil {
				return err
			}
		}
	}
	lines := studyDriftLines(s)
	if len(lines) == 0 {
		lines = noDriftLine(s)
	}
	fmt.Fprintln(w)
	for _, l := range lines {
		fmt.Fprintln(w, "drift: "+l)
	}
	return nil
}

// writeStudyTextTable prints a workload's table with its step and figure in one
// left-aligned first column ("8 users  tps"), as the text tables align only their
// first column to the left.
func writeStudyTextTable(w io.Writer, t table) error {
	width := len([]rune(t.Head[0]))
	for _, r := range t.Rows {
		width = max(width, len([]rune(r[0].Text)))
	}
	join := func(step, figure string) string {
		return step + strings.Repeat(" ", width-len([]rune(step))) + "  " + figure
	}
	out := table{Caption: t.Caption, Head: append([]string{join(t.Head[0], t.Head[1])}, t.Head[2:]...)}
	for _, r := range t.Rows {
		out.Rows = append(out.Rows, append([]cell{{Text: join(r[0].Text, r[1].Text)}}, r[2:]...))
	}
	return writeTextTable(w, out)
}

// noDriftLine says why the drift test found nothing: it found no trend, or it could
// not run (fewer than compare.MinDriftRepeats repeats a side); nothing when the
// study ran no OLTP workload, whose tps the test is about.
func noDriftLine(s *compare.Study) []string {
	fewest, runs := 0, false
	for _, sw := range s.Workloads {
		if sw.Runs == nil {
			continue
		}
		for _, in := range sw.Runs.Inputs {
			if n := len(in.All()); !runs || n < fewest {
				fewest = n
			}
			runs = true
		}
	}
	switch {
	case !runs:
		return nil
	case fewest < compare.MinDriftRepeats:
		return []string{fmt.Sprintf("the drift test needs %d repeats a side; some side has %d", compare.MinDriftRepeats, fewest)}
	}
	return []string{"no trend of tps over the run order at any user count"}
}
