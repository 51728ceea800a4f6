package report

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/chart"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/results/stats"
)

// The HTML reports are one self-contained file each: inline CSS, inline SVG charts,
// no script, font, image or style sheet loaded from anywhere, so they can be
// attached to a CI job or mailed and still open offline.

type htmlChart struct {
	Title string
	SVG   template.HTML // produced by gonum/plot's SVG backend, never user text
}

type htmlPage struct {
	Title     string
	Subtitle  string
	Notes     []string // one paragraph each, e.g. headlines
	Differs   []differsBlock
	Alerts    []string // gate trips
	Runs      table
	Charts    []htmlChart
	Tables    []table
	Footnotes []string
}

const pageCSS = `
body{font-family:"Liberation Sans",Arial,Helvetica,sans-serif;margin:2em auto;max-width:1200px;padding:0 1em;color:#222}
h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:2em}
.sub{color:#555;margin-top:0}
table{border-collapse:collapse;margin:1em 0;font-size:.85em;max-width:100%}
td{white-space:normal}td.num{white-space:nowrap}td.path{overflow-wrap:anywhere;min-width:8em}
td.spread{text-align:right;white-space:normal;font-variant-numeric:tabular-nums}
.wide{overflow-x:auto;max-width:100%}
caption{text-align:left;font-weight:600;padding:.3em 0}
th,td{border:1px solid #ccc;padding:.25em .4em}th{background:#f3f3f3}
td.num{text-align:right;font-variant-numeric:tabular-nums}
td.better{text-align:right;color:#05662f;background:#eef8f1}
td.worse{text-align:right;color:#a1140a;background:#fbeeee}
td.noise{text-align:right;color:#777}
ul.differs{margin:.3em 0 1em 1.2em;padding:0}
td.pass{color:#05662f}td.fail{color:#a1140a;font-weight:600}
.charts{display:flex;flex-direction:column;gap:1em}
figure{margin:0;border:1px solid #ddd;padding:.5em}
figure svg{display:block;width:100%;height:auto}
figure svg text{font-family:"Liberation Sans",Arial,Helvetica,sans-serif !important}
.note{font-size:1.05em}.alert{color:#a1140a;font-weight:600}
footer{color:#666;font-size:.85em;margin-top:3em}
`

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>{{.CSS}}</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="sub">{{.Subtitle}}</p>
{{range .Alerts}}<p class="alert">{{.}}</p>
{{end}}{{range .Differs}}<h2>{{.Title}}</h2>
<ul class="differs">{{range .Items}}<li>{{.}}</li>{{end}}</ul>
{{end}}{{range .Notes}}<p class="note">{{.}}</p>
{{end}}{{template "table" .Runs}}
{{if .Charts}}<h2>Charts</h2>
<div class="charts">
{{range .Charts}}<figure>
{{.SVG}}
</figure>
{{end}}</div>
{{end}}{{range .Tables}}{{template "table" .}}{{end}}
<footer>
{{range .Footnotes}}<p>{{.}}</p>
{{end}}</footer>
</body>
</html>
{{define "table"}}<div class="wide"><table>
<caption>{{.Caption}}</caption>
<thead><tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr>{{range .}}<td{{if .Class}} class="{{.Class}}"{{end}}>{{.Text}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>
{{end}}`))

func writePage(w io.Writer, p htmlPage) error {
	p.Runs = keepUnits(p.Runs)
	for i := range p.Tables {
		p.Tables[i] = keepUnits(p.Tables[i])
	}
	return pageTemplate.Execute(w, struct {
		htmlPage
		CSS template.CSS
	}{p, template.CSS(pageCSS)})
}

// withChart adds a drawn chart under its title, its SVG (gonum/plot's, which
// escapes the text in it) trusted as HTML; a chart with nothing drawn ("") is
// left out.
func withChart(charts []htmlChart, title, svg string) []htmlChart {
	if svg == "" {
		return charts
	}
	return append(charts, htmlChart{Title: title, SVG: template.HTML(svg)})
}

// unitSpace binds a unit to its number so a wrapping cell ("26.03 ms / 26.88 ms /
// 62.93 ms") breaks between figures, never inside one.
var unitSpace = strings.NewReplacer(" ms", "\u00a0ms", " MB/s", "\u00a0MB/s", " %", "\u00a0%", " … ", "\u00a0… ")

func keepUnits(t table) table {
	rows := make([][]cell, len(t.Rows))
	for i, r := range t.Rows {
		rows[i] = make([]cell, len(r))
		for j, c := range r {
			c.Text = unitSpace.Replace(c.Text)
			rows[i][j] = c
		}
	}
	t.Rows = rows
	return t
}

// differsBlock is "What differs (B vs A)" and its items.
type differsBlock struct {
	Title string
	Items []string
}

const footnoteWindow = "Figures cover each step's measured window only (after its warm-up). " +
	"Response time runs from a transaction's intended start, service time from its first statement. " +
	"Workload: TPC-E-like, not a TPC-E result."

// startedText is a run's start in UTC, marked when the run was interrupted.
func startedText(r *results.Run) string {
	started := ""
	if !r.StartedAt.IsZero() {
		started = r.StartedAt.UTC().Format(time.RFC3339)
	}
	if r.Interrupted {
		started += " (interrupted)"
	}
	return started
}

func runsTable(inputs []results.Input) table {
	t := table{Caption: "Runs", Head: []string{"run", "file", "database", "scale", "seed", "tags", "started", "tool"}}
	for _, in := range inputs {
		r := in.Run
		t.Rows = append(t.Rows, []cell{
			{Text: in.Name(), Class: "name"}, {Text: in.Path, Class: "path"},
			{Text: strings.TrimSpace(r.Database.Product + " " + r.Database.Version)},
			{Text: fmt.Sprintf("%d customers, %d trade days", r.Scale.Customers, r.Scale.TradeDays)},
			{Text: fmt.Sprint(r.Seed), Class: "num"}, {Text: formatTags(r.Tags)}, {Text: startedText(r)}, {Text: r.Tool},
		})
	}
	return t
}

// flatten lists every file of the sides, repeats included.
func flatten(sides []results.Input) []results.Input {
	var out []results.Input
	for _, in := range sides {
		out = append(out, in.All()...)
	}
	return out
}

// metricLines returns one line per side of metric m against users (or the offered
// rate, see compareAxis), each point with its spread: a single run's own 95 %
// interval, or the box plot of a side's repeats (the line runs through their mean).
func metricLines(c *compare.Comparison, m figures.Metric, dashed bool, suffix string) []chart.Line {
	x := compareAxis(c).of
	var ls []chart.Line
	for r, in := range c.Inputs {
		l := chart.Line{Name: in.Name() + suffix, Dashed: dashed, Color: r}
		// Every step of the side, matched or not: a curve against users is what the
		// reader compares, and a run measured at other user counts still belongs on it.
		byX := map[float64][]float64{}
		steps := map[float64]*results.Step{}
		var order []float64
		for _, rep := range in.All() {
			for _, i := range figures.StepOrder(rep.Run.Steps) {
				st := &rep.Run.Steps[i]
				v, ok := m.Value(figures.NewStepView(st))
				if !ok {
					continue
				}
				xv := x(st)
				if _, seen := byX[xv]; !seen {
					order = append(order, xv)
					steps[xv] = st
				}
				byX[xv] = append(byX[xv], v)
			}
		}
		slices.Sort(order)
		for _, xv := range order {
			vs := byX[xv]
			mean, _ := stats.MeanSD(vs)
			l.Xs, l.Ys = append(l.Xs, xv), append(l.Ys, mean)
			lo, hi := math.NaN(), math.NaN()
			if len(in.Repeats) > 0 {
				l.Boxes = append(l.Boxes, vs)
			} else if a, b, ok := compare.OwnInterval(steps[xv], m, mean); ok {
				lo, hi = a, b
			}
			l.Lo, l.Hi = append(l.Lo, lo), append(l.Hi, hi)
		}
		ls = append(ls, l)
	}
	return ls
}

func metricByKey(key string) figures.Metric {
	m, ok := figures.LookupStepMetric(key)
	if !ok {
		panic("results: unknown built-in metric " + key) // a programming error, caught by every test
	}
	return m
}

// compareCharts are tps, average and p95 response time, and IOPS against users,
// one line per run.
func compareCharts(c *compare.Comparison) ([]htmlChart, error) {
	specs := []struct {
		title, ylabel, key string
	}{
		{"Throughput", "tps", "tps"},
		{"Average response time", "ms", "avg"},
		{"p95 response time", "ms", "p95"},
		{"IOPS (read + write)", "IOPS", "iops"},
	}
	ax := compareAxis(c)
	var charts []htmlChart
	for _, s := range specs {
		opts := ax.opts
		if s.key == "tps" {
			opts.Marks = maxMarks(c)
		}
		svg, err := chart.SVG(s.title, ax.label, s.ylabel, metricLines(c, metricByKey(s.key), false, ""), opts)
		if err != nil {
			return nil, err
		}
		charts = withChart(charts, s.title, svg)
	}
	return charts, nil
}

// CompareHTMLOptions adds what the command knows beyond the runs.
type CompareHTMLOptions struct {
	Trips []compare.Trip
	Gates []compare.Gate
}

// WriteComparisonHTML writes the comparison as one self-contained HTML page.
func WriteComparisonHTML(c *compare.Comparison, w io.Writer, o CompareHTMLOptions) error {
	names := make([]string, len(c.Inputs))
	for r, in := range c.Inputs {
		names[r] = in.Name()
	}
	p := htmlPage{
		Title:    "brokerbench comparison: " + strings.Join(names, " vs "),
		Subtitle: "Changes are relative to the first run, " + names[0] + ", at the same user count.",
		Runs:     runsTable(flatten(c.Inputs)),
		Footnotes: []string{footnoteWindow,
			"Overall percentiles are computed from the merged per-transaction histograms.",
			"Each change has a 95 % interval. Across repeated runs it comes from their spread (Welch t on the logarithms) and gives " +
				"the verdict when each side has at least 3 runs. With one run a side it comes from inside the runs (batch means of the " +
				"per-second samples; a block bootstrap of the per-second histograms for response times): it covers only the noise within " +
				"each run, not how far a second run lands, so it gives no verdict. \"detectable\" is the interval's half-width: smaller " +
				"changes cannot be told from noise. A change whose interval includes zero is within noise (~, grey). On the charts a bar is " +
				"a run's own 95 % interval (noise within the run only), a box the spread of a side's repeats."},
	}
	for r := 1; r < len(c.Inputs); r++ {
		if d := c.Differences(r); len(d) > 0 {
			p.Differs = append(p.Differs, differsBlock{Title: fmt.Sprintf("What differs (%s vs %s)", names[r], names[0]), Items: d})
		}
	}
	for r := 1; r < len(c.Inputs); r++ {
		if mh := c.MaxHeadline(r); mh != "" {
			p.Notes = append(p.Notes, mh)
		} else if h := c.Headline(r); h != "" {
			p.Notes = append(p.Notes, names[r]+" vs "+names[0]+" "+h)
		}
	}
	for _, warn := range append(c.RegimeWarnings(), c.BoundWarnings()...) {
		p.Alerts = append(p.Alerts, "Not comparable: "+warn)
	}
	p.Alerts = append(p.Alerts, c.SettleWarnings()...)
	p.Notes = append(p.Notes, VerdictNotes(c)...)
	p.Notes = append(p.Notes, c.RegimeNotes()...)
	if len(o.Gates) > 0 {
		gs := make([]string, len(o.Gates))
		for i, g := range o.Gates {
			gs[i] = g.String()
		}
		unjudged := c.Unjudged(o.Gates)
		if len(o.Trips) == 0 && len(unjudged) == 0 {
			p.Notes = append(p.Notes, "Gates passed: "+strings.Join(gs, "; "))
		}
		for _, t := range o.Trips {
			p.Alerts = append(p.Alerts, "Gate tripped: "+t.String())
		}
		for _, u := range unjudged {
			p.Alerts = append(p.Alerts, "Gate cannot judge: "+u.String())
		}
		for _, g := range c.Unevaluated(o.Gates) {
			p.Notes = append(p.Notes, "Gate checked nowhere (its figure is unknown at every shared step): "+g.String())
		}
	}
	var err error
	if p.Charts, err = compareCharts(c); err != nil {
		return err
	}
	if t, ok := maxTable(c); ok {
		p.Tables = append(p.Tables, t)
	}
	for i := range c.Users {
		p.Tables = append(p.Tables, stepTable(c, i))
	}
	if len(c.Unmatched) > 0 {
		p.Tables = append(p.Tables, unmatchedTable(c))
	}
	return writePage(w, p)
}

// changeClass colours a change green when it is an improvement of more than 1 %,
// red when it is a regression of more than 1 %.
func changeClass(m figures.Metric, ch float64) string {
	if m.Neutral || (ch > -1 && ch < 1) {
		return "num" // I/O per transaction is neither good nor bad in itself
	}
	if (ch > 0) == m.HigherIsBetter {
		return "better"
	}
	return "worse"
}

// compareAxis is users ticked at every run's user counts, or the offered rate when
// every run is a --find-max search (its probes share one user count).
func compareAxis(c *compare.Comparison) xAxis {
	allRate := true
	var users []float64
	for _, in := range c.Inputs {
		allRate = allRate && in.Run.Max != nil
		for i := range in.Run.Steps {
			users = append(users, float64(in.Run.Steps[i].Users))
		}
	}
	if allRate {
		return xAxis{label: "offered tps (paced transaction starts per second)", of: func(st *results.Step) float64 { return st.Rate }}
	}
	return xAxis{label: "users", of: func(st *results.Step) float64 { return float64(st.Users) }, opts: usersAxis(users)}
}

// maxMarks mark each run's --find-max step on the throughput chart.
func maxMarks(c *compare.Comparison) []chart.Mark {
	ax := compareAxis(c)
	var ms []chart.Mark
	for _, in := range c.Inputs {
		m := in.Run.Max
		if m == nil || m.Step < 0 || m.Step >= len(in.Run.Steps) {
			continue
		}
		st := &in.Run.Steps[m.Step]
		ms = append(ms, chart.Mark{X: ax.of(st), Y: st.TPS, Label: fmt.Sprintf("%s max: %.0f tps", in.Name(), st.TPS)})
	}
	return ms
}
