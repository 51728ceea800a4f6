package report

import (
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/chart"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/results/stats"
)

// A report of repeated runs (run --repeat N, or report given several files): per
// user count, each headline figure's mean over the runs, its spread (min, median,
// max) and the 95 % interval of the mean, and in HTML the box plots.

// repeatFigures are the figures a repeats report shows, in order.
var repeatFigures = []string{"tps", "tps_e", "avg", "p90", "p95", "read_iops", "write_iops", "iops", "reads_per_txn", "cache_hit_ratio"}

// repeatSteps groups the runs' steps by user count, ascending.
func repeatSteps(side results.Input) (users []int, steps map[int][]figures.StepView) {
	steps = map[int][]figures.StepView{}
	for _, in := range side.All() {
		for _, i := range figures.StepOrder(in.Run.Steps) {
			st := &in.Run.Steps[i]
			if _, ok := steps[st.Users]; !ok {
				users = append(users, st.Users)
			}
			steps[st.Users] = append(steps[st.Users], figures.NewStepView(st))
		}
	}
	slices.Sort(users)
	return users, steps
}

// repeatsTable is one user count's figures over the runs.
func repeatsTable(u int, reps []figures.StepView) table {
	t := table{Caption: fmt.Sprintf("%d users, %d runs", u, len(reps)),
		Head: []string{"figure", "mean", "min / median / max", "95 % interval of the mean"}}
	for _, key := range repeatFigures {
		m, _ := figures.LookupStepMetric(key)
		xs := compare.SideValues(reps, m)
		if len(xs) == 0 {
			continue
		}
		mean, _ := stats.MeanSD(xs)
		iv := cell{Text: fmt.Sprintf("needs %d runs", compare.MinRepeats), Class: "num"}
		if len(xs) >= compare.MinRepeats {
			lo, hi := repeatsMeanInterval(xs)
			iv = cell{Text: figures.FormatValue(m, lo) + " … " + figures.FormatValue(m, hi), Class: "num"}
		}
		t.Rows = append(t.Rows, []cell{{Text: m.Title, Class: "name"}, {Text: figures.FormatValue(m, mean), Class: "num"}, spreadCell(m, reps), iv})
	}
	return t
}

// repeatsMeanInterval is the 95 % interval of a figure over runs: Student's t on
// the logarithms when every run's figure is positive (the interval of the
// geometric mean, which stays above zero as every reported figure does: on the
// plain values two runs gave tps -369.8 … 858.4); otherwise on the values, cut at
// zero.
func repeatsMeanInterval(xs []float64) (lo, hi float64) {
	if compare.AllPositive(xs) {
		e := stats.RepeatMean(compare.LogOf(xs))
		return math.Exp(e.Mean - e.Half()), math.Exp(e.Mean + e.Half())
	}
	e := stats.RepeatMean(xs)
	return max(e.Mean-e.Half(), 0), e.Mean + e.Half()
}

// WriteRepeatsReport prints several runs of one configuration: their files, then
// per user count each figure's mean, spread and interval.
func WriteRepeatsReport(w io.Writer, side results.Input) error {
	fmt.Fprintf(w, "%s: %s\n  %s\n", side.Name(), sidePaths(side), describeRun(side))
	users, steps := repeatSteps(side)
	for _, u := range users {
		if err := writeTextTable(w, repeatsTable(u, steps[u])); err != nil {
			return err
		}
	}
	return nil
}

// WriteRepeatsReportHTML writes the repeats report as one page: the runs, box
// plots of tps, response times and IOPS against users, and the tables.
func WriteRepeatsReportHTML(w io.Writer, side results.Input) error {
	p := htmlPage{
		Title:    fmt.Sprintf("brokerbench report: %s, %d runs", side.Name(), len(side.All())),
		Subtitle: describeRun(side),
		Runs:     runsTable(side.All()),
		Footnotes: []string{footnoteWindow,
			"Each box spans the runs' middle half with a line at their median, whiskers to the rest; the line joins the runs' means. " +
				"The 95 % interval is Student's t over the runs, on their logarithms (so it stays above zero); it needs 3 runs."},
	}
	users, steps := repeatSteps(side)
	xs := make([]float64, len(users))
	for i, u := range users {
		xs[i] = float64(u)
	}
	opts := usersAxis(xs)
	for _, c := range []struct{ title, ylabel, key string }{
		{"Throughput", "tps", "tps"}, {"Average response time", "ms", "avg"}, {"p95 response time", "ms", "p95"}, {"IOPS (read + write)", "IOPS", "iops"},
	} {
		m := metricByKey(c.key)
		l := chart.Line{Name: side.Name()}
		for _, u := range users {
			vs := compare.SideValues(steps[u], m)
			if len(vs) == 0 {
				continue
			}
			mean, _ := stats.MeanSD(vs)
			l.Xs, l.Ys = append(l.Xs, float64(u)), append(l.Ys, mean)
			l.Boxes = append(l.Boxes, vs)
		}
		svg, err := chart.SVG(c.title, "users", c.ylabel, []chart.Line{l}, opts)
		if err != nil {
			return err
		}
		p.Charts = withChart(p.Charts, c.title, svg)
	}
	for _, u := range users {
		p.Tables = append(p.Tables, repeatsTable(u, steps[u]))
	}
	return writePage(w, p)
}
