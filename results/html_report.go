package results

import (
	"io"
	"slices"
	"time"
)

// WriteReportHTML writes one run as a self-contained HTML page: the step table,
// charts against users (throughput, response time, IOPS, each transaction's p95),
// the I/O time series over the run, and each step's transaction table.
func WriteReportHTML(w io.Writer, in Input) error {
	r := in.Run
	p := htmlPage{
		Title:     "brokerbench report: " + in.Name(),
		Subtitle:  describeRun(in),
		Runs:      runsTable([]Input{in}),
		Footnotes: []string{footnoteWindow},
	}
	order := stepOrder(r.Steps)
	views := make([]stepView, len(r.Steps))
	for i := range r.Steps {
		views[i] = newStepView(&r.Steps[i])
	}
	if r.Max != nil {
		p.Notes = append(p.Notes, r.Max.Summary())
	}
	p.Notes = append(p.Notes, serverNotes(r)...)
	p.Notes = append(p.Notes, stepNotes(r)...)
	lims, withLimits := LimitsOf(r)
	ax := runXAxis(r)

	// Figures against users (or the offered rate of --find-max probes).
	byX := func(name string, color int, dashed bool, m metric) line {
		l := line{name: name, color: color, dashed: dashed}
		for _, i := range order {
			if v, ok := m.value(views[i]); ok {
				l.xs = append(l.xs, ax.of(&r.Steps[i]))
				l.ys = append(l.ys, v)
			}
		}
		return l
	}
	type chartSpec struct {
		title, ylabel string
		lines         []line
		opts          chartOptions
	}
	tput := ax.opts
	if mk, ok := maxMark(r, lims, withLimits, ax); ok {
		tput.marks = []markPoint{mk}
	}
	charts := []chartSpec{
		{"Throughput", "tps", []line{byX("tps", 0, false, metricByKey("tps")), byX("tpsE", 1, false, metricByKey("tps_e"))}, tput},
		{"Response time", "ms", []line{byX("average", 0, false, metricByKey("avg")), byX("p95", 0, true, metricByKey("p95"))}, ax.opts},
		{"IOPS", "IOPS", []line{byX("read", 0, false, metricByKey("read_iops")), byX("write", 1, false, metricByKey("write_iops"))}, ax.opts},
		{"Database host CPU", "% of all cores", hostChartLines(byX), ax.opts},
	}
	var txnLines []line
	slugs := map[string]bool{}
	for i := range r.Steps {
		for name := range r.Steps[i].Transactions {
			slugs[Slug(name)] = true
		}
	}
	for k, s := range sortedKeys(slugs) {
		txnLines = append(txnLines, byX(s, k, false, txnMetric(s, "p95")))
	}
	charts = append(charts, chartSpec{"p95 response time per transaction", "ms", txnLines, ax.opts})
	if withLimits {
		limOpts := ax.opts
		limOpts.hlines = []refLine{{y: 100, name: "limit"}}
		charts = append(charts, chartSpec{"p90 response time per transaction, % of its limit", "% of limit", limitLines(r, lims, order, ax), limOpts})
	}
	for _, ch := range charts {
		svg, err := lineChartSVGWith(ch.title, ax.label, ch.ylabel, ch.lines, ch.opts)
		if err != nil {
			return err
		}
		p.Charts = withChart(p.Charts, ch.title, svg)
	}
	svg, err := ioSeriesChart(r)
	if err != nil {
		return err
	}
	p.Charts = withChart(p.Charts, "I/O over time", svg)
	if svg, err = hostSeriesChart(r); err != nil {
		return err
	}
	p.Charts = withChart(p.Charts, "Host CPU over time", svg)

	// The host's columns would push the step table past the page's width, where a
	// reader scrolls them away from the users they belong to: in HTML they are a
	// table of their own, under the steps'.
	p.Tables = append(p.Tables, stepsTable(r, true))
	if hasHost(r) {
		p.Tables = append(p.Tables, hostTable(r))
	}
	if withLimits {
		p.Tables = append(p.Tables, lims.table())
	}
	flagNote := "Flags: P partial step (interrupted), D the load driver was the bottleneck, K the knee, U unsteady, N over nominal (tpsE above 102 % of customers/500)."
	if memoryResidentNote(r) != "" {
		flagNote += " M memory-resident: the disks served almost no reads."
	}
	if len(boundNote(r)) > 0 {
		flagNote += " C cpu-bound, I io-bound: what bound the database host (docs/host.md)."
	}
	p.Footnotes = append(p.Footnotes, flagNote)
	for _, i := range order {
		p.Tables = append(p.Tables, txnTable(&r.Steps[i], lims))
	}
	return writePage(w, p)
}

// ioSeriesChart draws read and write IOPS of every step's time series against
// seconds since the run started; "" when the run has no series.
func ioSeriesChart(r *Run) (string, error) {
	return overRunChart(r, "I/O over the run", "IOPS", []line{{name: "read IOPS", color: 0}, {name: "write IOPS", color: 1}},
		func(st *Step, add func(time.Time, ...float64)) {
			if st.IO == nil {
				return
			}
			for _, s := range st.IO.Series {
				add(s.At, s.ReadIOPS, s.WriteIOPS)
			}
		})
}

// overRunChart draws figures of the steps' time series against seconds since the
// run started (or its first sample), the steps in the order run: a --find-max
// run's probes are not in rate order in time. samples gives a step's samples to
// add, each its time and one value per line. "" when no step has a sample.
func overRunChart(r *Run, title, yLabel string, lines []line, samples func(st *Step, add func(at time.Time, ys ...float64))) (string, error) {
	overRunLines(r, lines, samples)
	return lineChartSVG(title, "seconds since start", yLabel, lines)
}

// overRunLines fills the lines with the steps' samples. Each step is a segment of
// its own: nothing was measured in the warm-up between two steps, so no line
// crosses it. A sample over less than half the step's usual interval is left out:
// the sampler closes every window with a reading at its edge, often a few
// milliseconds after the last periodic one, and a rate or CPU split over so short
// an interval is a handful of counts (a 300 IOPS disk read at 350, CPUs 70 %
// busy between two samples at 15 %), not a figure of the step.
func overRunLines(r *Run, lines []line, samples func(st *Step, add func(at time.Time, ys ...float64))) {
	t0 := r.StartedAt
	type sample struct {
		at time.Time
		ys []float64
	}
	for i := range r.Steps {
		var step []sample
		samples(&r.Steps[i], func(at time.Time, ys ...float64) { step = append(step, sample{at, ys}) })
		var gaps []time.Duration
		for k := 1; k < len(step); k++ {
			gaps = append(gaps, step[k].at.Sub(step[k-1].at))
		}
		slices.Sort(gaps)
		first := true
		for k, s := range step {
			if k > 0 && len(gaps) > 0 && s.at.Sub(step[k-1].at) < gaps[len(gaps)/2]/2 {
				continue
			}
			if t0.IsZero() {
				t0 = s.at
			}
			x := s.at.Sub(t0).Seconds()
			for j, y := range s.ys {
				if first && len(lines[j].xs) > 0 {
					lines[j].breaks = append(lines[j].breaks, len(lines[j].xs))
				}
				lines[j].xs, lines[j].ys = append(lines[j].xs, x), append(lines[j].ys, y)
			}
			first = false
		}
	}
}
