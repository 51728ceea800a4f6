package report

import (
	"io"
	"math"
	"slices"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/chart"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
)

// WriteReportHTML writes one run as a self-contained HTML page: the step table,
// charts against users (throughput, response time, IOPS, each transaction's p95),
// the I/O time series over the run, and each step's transaction table. The limits
// limitsTable lists every transaction type of wl, with the file's limits.
func WriteReportHTML(w io.Writer, in results.Input, wl results.Workload) error {
	rp := newReportPage(in)
	rp.workload = wl
	if err := rp.addCharts(); err != nil {
		return err
	}
	rp.addTables()
	return writePage(w, rp.p)
}

// reportPage is one run's page in the making, with what its charts and tables
// share: the steps in the order shown, each step's figures, the x axis and the
// transactions' limits.
type reportPage struct {
	r          *results.Run
	p          htmlPage
	order      []int
	views      []figures.StepView
	ax         xAxis
	lims       results.Limits
	withLimits bool
	workload   results.Workload // the transaction types the limits table lists
}

// newReportPage starts the page with its title, the run's description and its notes.
func newReportPage(in results.Input) *reportPage {
	r := in.Run
	rp := &reportPage{
		r: r,
		p: htmlPage{
			Title:     "brokerbench report: " + in.Name(),
			Subtitle:  describeRun(in),
			Runs:      runsTable([]results.Input{in}),
			Footnotes: []string{footnoteWindow},
		},
		order: figures.StepOrder(r.Steps),
		views: make([]figures.StepView, len(r.Steps)),
	}
	for i := range r.Steps {
		rp.views[i] = figures.NewStepView(&r.Steps[i])
	}
	if r.Max != nil {
		rp.p.Notes = append(rp.p.Notes, MaxSummary(r.Max))
	}
	rp.p.Notes = append(rp.p.Notes, serverNotes(r)...)
	rp.p.Notes = append(rp.p.Notes, stepNotes(r)...)
	rp.lims, rp.withLimits = results.LimitsOf(r)
	rp.ax = runXAxis(r)
	return rp
}

// byX is a line of a metric against users (or the offered rate of --find-max
// probes), one point per step that has the figure.
func (rp *reportPage) byX(name string, color int, dashed bool, m figures.Metric) chart.Line {
	l := chart.Line{Name: name, Color: color, Dashed: dashed}
	for _, i := range rp.order {
		x := rp.ax.of(&rp.r.Steps[i])
		if v, ok := m.Value(rp.views[i]); ok && !math.IsNaN(x) {
			l.Xs = append(l.Xs, x)
			l.Ys = append(l.Ys, v)
		}
	}
	return l
}

// reportChart is one chart against users: its title, y axis, lines and options.
type reportChart struct {
	title, ylabel string
	lines         []chart.Line
	opts          chart.Options
}

// chartsByX are the charts against users, in the page's order.
func (rp *reportPage) chartsByX() []reportChart {
	r, ax, byX := rp.r, rp.ax, rp.byX
	tput := ax.opts
	if mk, ok := maxMark(r, rp.lims, rp.withLimits, ax); ok {
		tput.Marks = []chart.Mark{mk}
	}
	charts := []reportChart{
		{"Throughput", "tps", []chart.Line{byX("tps", 0, false, metricByKey("tps")), byX("tpsE", 1, false, metricByKey("tps_e"))}, tput},
		{"Response time", "ms", []chart.Line{byX("average", 0, false, metricByKey("avg")), byX("p95", 0, true, metricByKey("p95"))}, ax.opts},
		{"IOPS", "IOPS", []chart.Line{byX("read", 0, false, metricByKey("read_iops")), byX("write", 1, false, metricByKey("write_iops"))}, ax.opts},
		{"Database host CPU", "% of all cores", hostChartLines(byX), ax.opts},
	}
	var txnLines []chart.Line
	slugs := map[string]bool{}
	for i := range r.Steps {
		for name := range r.Steps[i].Transactions {
			slugs[results.Slug(name)] = true
		}
	}
	for k, s := range figures.SortedKeys(slugs) {
		txnLines = append(txnLines, byX(s, k, false, figures.TxnMetric(s, "p95")))
	}
	charts = append(charts, reportChart{"p95 response time per transaction", "ms", txnLines, ax.opts})
	if rp.withLimits {
		limOpts := ax.opts
		limOpts.HLines = []chart.RefLine{{Y: 100, Name: "limit"}}
		charts = append(charts, reportChart{"p90 response time per transaction, % of its limit", "% of limit", limitLines(r, rp.lims, rp.order, ax), limOpts})
	}
	return charts
}

// addCharts draws the charts against users, then the time series over the run.
func (rp *reportPage) addCharts() error {
	for _, ch := range rp.chartsByX() {
		svg, err := chart.SVG(ch.title, rp.ax.label, ch.ylabel, ch.lines, ch.opts)
		if err != nil {
			return err
		}
		rp.p.Charts = withChart(rp.p.Charts, ch.title, svg)
	}
	svg, err := ioSeriesChart(rp.r)
	if err != nil {
		return err
	}
	rp.p.Charts = withChart(rp.p.Charts, "I/O over time", svg)
	if svg, err = hostSeriesChart(rp.r); err != nil {
		return err
	}
	rp.p.Charts = withChart(rp.p.Charts, "Host CPU over time", svg)
	return nil
}

// addTables adds the steps', the host's and the limits' tables, the flags' footnote,
// and each step's transaction table.
func (rp *reportPage) addTables() {
	r := rp.r
	// The host's columns would push the step table past the page's width, where a
	// reader scrolls them away from the users they belong to: in HTML they are a
	// limitsTable of their own, under the steps'.
	rp.p.Tables = append(rp.p.Tables, stepsTable(r, true))
	if hasHost(r) {
		rp.p.Tables = append(rp.p.Tables, hostTable(r))
	}
	if rp.withLimits {
		rp.p.Tables = append(rp.p.Tables, limitsTable(rp.lims, rp.workload))
	}
	flagNote := "Flags: P partial step (interrupted), D the load driver was the bottleneck, K the knee, U unsteady, N over nominal (tpsE above 102 % of customers/500)."
	if memoryResidentNote(r) != "" {
		flagNote += " M memory-resident: the disks served almost no reads."
	}
	if warmingNote(r) != "" {
		flagNote += " W cache warming: the disks' reads fell through the window."
	}
	if n := figures.DisturbedNote(r); n != "" {
		flagNote += " " + n
	}
	if len(compare.BoundNote(r)) > 0 {
		flagNote += " C cpu-bound, I io-bound: what bound the database host (docs/host.md)."
	}
	rp.p.Footnotes = append(rp.p.Footnotes, flagNote)
	rp.p.Footnotes = append(rp.p.Footnotes, figures.NominalShortNotes(r)...)
	for _, i := range rp.order {
		rp.p.Tables = append(rp.p.Tables, txnTable(&rp.r.Steps[i], rp.lims))
	}
}

// ioSeriesChart draws read and write IOPS of every step's time series against
// seconds since the run started; "" when the run has no series.
func ioSeriesChart(r *results.Run) (string, error) {
	return overRunChart(r, "I/O over the run", "IOPS", []chart.Line{{Name: "read IOPS", Color: 0}, {Name: "write IOPS", Color: 1}},
		func(st *results.Step, add func(time.Time, ...float64)) {
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
func overRunChart(r *results.Run, title, yLabel string, lines []chart.Line, samples func(st *results.Step, add func(at time.Time, ys ...float64))) (string, error) {
	overRunLines(r, lines, samples)
	return chart.SVG(title, "seconds since start", yLabel, lines, chart.Options{})
}

// overRunLines fills the lines with the steps' samples. Each step is a segment of
// its own: nothing was measured in the warm-up between two steps, so no line
// crosses it. A sample over less than half the step's usual interval is left out:
// the sampler closes every window with a reading at its edge, often a few
// milliseconds after the last periodic one, and a rate or CPU split over so short
// an interval is a handful of counts (a 300 IOPS disk read at 350, CPUs 70 %
// busy between two samples at 15 %), not a figure of the step.
func overRunLines(r *results.Run, lines []chart.Line, samples func(st *results.Step, add func(at time.Time, ys ...float64))) {
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
				if first && len(lines[j].Xs) > 0 {
					lines[j].Breaks = append(lines[j].Breaks, len(lines[j].Xs))
				}
				lines[j].Xs, lines[j].Ys = append(lines[j].Xs, x), append(lines[j].Ys, y)
			}
			first = false
		}
	}
}
