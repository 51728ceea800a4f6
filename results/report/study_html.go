package report

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/chart"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
)

// studyFootnote says how a study's cells are judged.
const studyFootnote = "Each value is the mean of the system's finished repeats. Each change is against the baseline at the same step, " +
	"with the 95 % interval of the change across the repeats (Welch t on the logarithms); a verdict needs at least 3 repeats a side. " +
	"\"detectable\" is the interval's half-width: smaller differences cannot be told from noise. ~ marks a change within noise. " +
	"On the charts a box is the spread of a system's repeats, the line runs through their means."

// WriteStudyHTML writes the study's report as one self-contained page, in the same
// chrome as the comparisons': the headlines, the systems, charts across the systems
// (tps and p95 against users per OLTP workload, IOPS against outstanding I/Os per
// profile), one table per workload, then the study's record and the drift check.
// Every string from a file (names, tags, paths) goes through html/template.
func WriteStudyHTML(s *compare.Study, w io.Writer) error {
	p := htmlPage{Title: "brokerbench study: " + results.Printable(s.Record.Name),
		Subtitle: studyTitle(s) + ". Changes are relative to the baseline at the same step.",
		Notes:    s.Headlines(), Runs: studySystemsTable(s)}
	for _, warn := range studyWarnings(s) {
		p.Alerts = append(p.Alerts, "Warning: "+warn)
	}
	notes := &studyNotes{}
	for _, sw := range s.Workloads {
		charts, err := studyCharts(sw)
		if err != nil {
			return err
		}
		p.Charts = append(p.Charts, charts...)
		if rows := studyRows(s, sw); len(rows) > 0 {
			p.Tables = append(p.Tables, studyMatrixTable(s, sw, rows, notes))
		} else {
			p.Tables = append(p.Tables, table{Caption: workloadTitle(sw) + ": not compared (fewer than two systems, or not the baseline, have a finished run of it)"})
		}
	}
	p.Tables = append(p.Tables, linesTable("Study record", studyRecordLines(s)), differsTable(s), studyRunsTable(s))
	for _, sw := range s.Workloads {
		if t, ok := studyDriftTable(sw); ok {
			p.Tables = append(p.Tables, t)
		}
	}
	if lines := studyDriftLines(s); len(lines) > 0 {
		p.Tables = append(p.Tables, linesTable("Drift across the run order", lines))
	}
	p.Footnotes = notes.lines()
	if chance := studyChanceLine(s); chance != "" {
		p.Footnotes = append(p.Footnotes, chance)
	}
	p.Footnotes = append(p.Footnotes, studyFootnote)
	return writePage(w, p)
}

// differsTable is "what differs" per system against the baseline, after the
// matrix: the page leads with the headlines.
func differsTable(s *compare.Study) table {
	t := table{Caption: "What differs from the baseline", Head: []string{"system", "what differs"}}
	for _, d := range studyDiffers(s) {
		t.Rows = append(t.Rows, []cell{{Text: d.Title, Class: "name"}, {Text: strings.Join(d.Items, "; ")}})
	}
	return t
}

// linesTable is lines of text as a one-column table under caption.
func linesTable(caption string, lines []string) table {
	t := table{Caption: caption}
	for _, l := range lines {
		t.Rows = append(t.Rows, []cell{{Text: l}})
	}
	return t
}

// studyCharts are a workload's charts across the systems: tps and p95 against
// users for an OLTP run, IOPS against outstanding I/Os for each profile run at
// more than one depth; none for a replay (one step: its table says it all).
func studyCharts(sw compare.StudyWorkload) ([]htmlChart, error) {
	var out []htmlChart
	name := results.Printable(sw.Name)
	switch {
	case sw.Runs != nil:
		ax := compareAxis(sw.Runs)
		for _, spec := range []struct{ key, title, ylabel string }{{"tps", "throughput", "tps"}, {"p95", "p95 response time", "ms"}} {
			title := fmt.Sprintf("%s: %s by users", name, spec.title)
			svg, err := chart.SVG(title, ax.label, spec.ylabel, metricLines(sw.Runs, metricByKey(spec.key), false, ""), ax.opts)
			if err != nil {
				return nil, err
			}
			out = withChart(out, title, svg)
		}
	case sw.Disks != nil && sw.Kind == results.WorkloadDisk:
		iops, _ := figures.LookupDiskMetric("iops")
		opts := depthAxis(sw.Disks.Inputs)
		for _, k := range sw.Disks.HighestDepths(0) {
			if mostDepths(sw.Disks.Inputs, k.Profile) < 2 {
				continue
			}
			title := fmt.Sprintf("%s: %s IOPS by outstanding I/Os", name, results.Printable(k.Profile))
			svg, err := chart.SVG(title, "outstanding I/Os", "IOPS", studyProfileLines(sw.Disks, k.Profile, iops), opts)
			if err != nil {
				return nil, err
			}
			out = withChart(out, title, svg)
		}
	}
	return out, nil
}

// studyProfileLines are one line per system of metric m for profile against
// outstanding I/Os, through the mean of its repeats, each point with their box.
func studyProfileLines(c *compare.DiskComparison, profile string, m figures.DiskMetric) []chart.Line {
	var ls []chart.Line
	for r, in := range c.Inputs {
		l := chart.Line{Name: in.Name(), Color: r}
		for _, d := range results.DepthsOf(in.Run.Disk.Steps) {
			k := results.DiskKey{Profile: profile, Depth: d}
			v, ok := c.Value(k, r, m)
			if !ok {
				continue
			}
			var box []float64
			for _, rep := range in.All() {
				if st := results.StepAt(rep.Run.Disk, k); st != nil {
					if x, ok := m.Value(st); ok {
						box = append(box, x)
					}
				}
			}
			l.Xs, l.Ys, l.Boxes = append(l.Xs, float64(d)), append(l.Ys, v), append(l.Boxes, box)
			l.Lo, l.Hi = append(l.Lo, math.NaN()), append(l.Hi, math.NaN())
		}
		ls = append(ls, l)
	}
	return ls
}
