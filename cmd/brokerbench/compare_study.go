package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/report"
	"github.com/brokerbench/brokerbench/session"
)

// compare STUDYDIR and report STUDYDIR: a study folder (brokerbench study) is read
// whole, each workload compared across its systems, and printed as one report
// (report.WriteStudyText), with --csv, --json and --html as compare writes them.

// isFolder tells whether path is a directory.
func isFolder(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// readStudyArg reads compare's or report's one argument as a study folder; another
// argument is a usage error that says what the command takes.
func readStudyArg(command, arg string) (*compare.Study, error) {
	if !isFolder(arg) {
		if command == "compare" {
			return nil, usagef("compare needs at least two result files, or one study folder (brokerbench study); got one file, %s", arg)
		}
		return nil, usagef("%s: %s is not a folder", command, arg)
	}
	if !results.IsStudyFolder(arg) {
		return nil, usagef("%s: %s is a folder without a study record (%s): give result files, or a folder brokerbench study wrote", command, arg, results.StudyFile)
	}
	return compare.CompareStudy(arg)
}

// studyFiles are the files of the study: its record and every run's file, which
// no output may overwrite.
func studyFiles(s *compare.Study) []string {
	files := []string{filepath.Join(s.Dir, results.StudyFile)}
	for _, r := range s.Record.Runs {
		files = append(files, filepath.Join(s.Dir, r.File))
	}
	return files
}

// runCompareStudy is compare STUDYDIR: the report, the gates (run gates on every
// OLTP workload, disk.* gates on every profile and replay workload), the exports,
// and the exit code of the gates, as compare of files.
func runCompareStudy(stdout io.Writer, dir string, o compareOptions) error {
	gates, diskGates, err := parseAllGates(o.FailIf)
	if err != nil {
		return err
	}
	s, err := readStudyArg("compare", dir)
	if err != nil {
		return err
	}
	outs := []session.Output{{Flag: "--csv", Path: o.CSV}, {Flag: "--json", Path: o.JSON}, {Flag: "--html", Path: o.HTML}}
	if err := session.RefuseOutputOverInput(outs, studyFiles(s)); err != nil {
		return err
	}
	for _, w := range s.Workloads {
		if w.Runs != nil {
			w.Runs.AllowDisturbed = o.AllowDisturbed
		}
	}
	if err := report.WriteStudyText(s, stdout); err != nil {
		return err
	}
	g, err := checkStudyGates(s, gates, diskGates)
	if err != nil {
		return err
	}
	if len(o.FailIf) > 0 {
		gateLines{heading: "Gates:", where: "shared step of any workload", given: o.FailIf, unchecked: g.unchecked, trips: g.trips,
			unjudged: g.unjudged, allowUnjudged: o.AllowUnjudged}.write(stdout)
	}
	if err := writeStudyOutputs(stdout, s, o.CSV, o.JSON, o.HTML); err != nil {
		return err
	}
	return g.err(o.AllowUnjudged)
}

// studyGates are the gates' outcome over every workload of a study.
type studyGates struct {
	trips, unjudged, unchecked []string
}

// checkStudyGates applies the run gates to each OLTP workload's comparison and the
// disk.* gates to each storage workload's, each trip prefixed with its workload; a
// gate is unchecked when no workload could evaluate it.
func checkStudyGates(s *compare.Study, gates []compare.Gate, diskGates []compare.DiskGate) (studyGates, error) {
	var out studyGates
	runChecked := make([]bool, len(gates))
	diskChecked := make([]bool, len(diskGates))
	for _, w := range s.Workloads {
		name := results.Printable(w.Name) + ": "
		if c := w.Runs; c != nil && len(gates) > 0 {
			trips, err := c.CheckGates(gates)
			if err != nil {
				var se *compare.GateSyntaxError
				if errors.As(err, &se) {
					return out, usageError{Err: err}
				}
				return out, fmt.Errorf("%s%w", name, err)
			}
			out.trips = append(out.trips, prefixed(name, stringsOf(trips))...)
			out.unjudged = append(out.unjudged, prefixed(name, stringsOf(c.Unjudged(gates)))...)
			markChecked(runChecked, gates, c.Unevaluated(gates), func(g compare.Gate) string { return g.Expr })
		}
		if c := w.Disks; c != nil && len(diskGates) > 0 {
			trips, unchecked := c.CheckGates(diskGates)
			out.trips = append(out.trips, prefixed(name, trips)...)
			markChecked(diskChecked, diskGates, unchecked, compare.DiskGate.Expr)
		}
	}
	for i, g := range gates {
		if !runChecked[i] {
			out.unchecked = append(out.unchecked, g.Expr)
		}
	}
	for i, g := range diskGates {
		if !diskChecked[i] {
			out.unchecked = append(out.unchecked, g.Expr())
		}
	}
	return out, nil
}

// markChecked marks each gate not among unchecked (by its expression) as checked.
func markChecked[G any](checked []bool, gates, unchecked []G, expr func(G) string) {
	for i, g := range gates {
		missed := false
		for _, u := range unchecked {
			missed = missed || expr(u) == expr(g)
		}
		checked[i] = checked[i] || !missed
	}
}

// prefixed is each line with prefix before it.
func prefixed(prefix string, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = prefix + l
	}
	return out
}

// err is the gates' exit: 3 when one tripped, 4 when one could not judge (unless
// allowed), as compare of files.
func (g studyGates) err(allowUnjudged bool) error {
	if len(g.trips) > 0 {
		return gateError{msg: fmt.Sprintf("%d --fail-if gate(s) tripped: %s", len(g.trips), strings.Join(g.trips, "; "))}
	}
	if len(g.unjudged) > 0 && !allowUnjudged {
		return unjudgedError{msg: fmt.Sprintf("%d --fail-if gate(s) could not judge (--allow-unjudged lets them pass): %s",
			len(g.unjudged), strings.Join(g.unjudged, "; "))}
	}
	return nil
}

// writeStudyOutputs writes the exports asked for ("" for none).
func writeStudyOutputs(stdout io.Writer, s *compare.Study, csvPath, jsonPath, htmlPath string) error {
	for _, x := range []struct {
		path   string
		render func(*compare.Study, io.Writer) error
	}{{csvPath, report.WriteStudyCSV}, {jsonPath, report.WriteStudyJSON}, {htmlPath, report.WriteStudyHTML}} {
		if x.path == "" {
			continue
		}
		render := x.render
		if err := session.WriteOutput(stdout, x.path, func(w io.Writer) error { return render(s, w) }); err != nil {
			return err
		}
	}
	return nil
}

// runReportStudy is report STUDYDIR: the study's report (or, with --json, its JSON
// instead), and --csv and --html.
func runReportStudy(stdout io.Writer, dir string, o reportOptions) error {
	s, err := readStudyArg("report", dir)
	if err != nil {
		return err
	}
	outs := []session.Output{{Flag: "--csv", Path: o.CSV}, {Flag: "--html", Path: o.HTML}}
	if err := session.RefuseOutputOverInput(outs, studyFiles(s)); err != nil {
		return err
	}
	if o.JSON {
		err = report.WriteStudyJSON(s, stdout)
	} else {
		err = report.WriteStudyText(s, stdout)
	}
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return writeStudyOutputs(stdout, s, o.CSV, "", o.HTML)
}
