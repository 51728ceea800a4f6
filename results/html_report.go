package results

import (
	"fmt"
	"html/template"
	"io"
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
	knee := Knee(r.Steps)
	if knee >= 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("Knee at %d users: tps rose by %.0f %% or less after this step.", r.Steps[knee].Users, KneeRise*100))
	} else if len(r.Steps) > 1 {
		p.Notes = append(p.Notes, fmt.Sprintf("No knee: tps rose by more than %.0f %% at every step.", KneeRise*100))
	}

	// Figures against users.
	byUsers := func(name string, color int, dashed bool, m metric) line {
		l := line{name: name, color: color, dashed: dashed}
		for _, i := range order {
			if v, ok := m.value(views[i]); ok {
				l.xs = append(l.xs, float64(r.Steps[i].Users))
				l.ys = append(l.ys, v)
			}
		}
		return l
	}
	charts := []struct {
		title, ylabel string
		lines         []line
	}{
		{"Throughput", "tps", []line{byUsers("tps", 0, false, metricByKey("tps")), byUsers("tpsE", 1, false, metricByKey("tps_e"))}},
		{"Response time", "ms", []line{byUsers("average", 0, false, metricByKey("avg")), byUsers("p95", 0, true, metricByKey("p95"))}},
		{"IOPS", "IOPS", []line{byUsers("read", 0, false, metricByKey("read_iops")), byUsers("write", 1, false, metricByKey("write_iops"))}},
	}
	var txnLines []line
	slugs := map[string]bool{}
	for i := range r.Steps {
		for name := range r.Steps[i].Transactions {
			slugs[Slug(name)] = true
		}
	}
	for k, s := range sortedKeys(slugs) {
		txnLines = append(txnLines, byUsers(s, k, false, txnMetric(s, "p95")))
	}
	charts = append(charts, struct {
		title, ylabel string
		lines         []line
	}{"p95 response time per transaction", "ms", txnLines})
	for _, ch := range charts {
		svg, err := lineChartSVG(ch.title, "users", ch.ylabel, ch.lines)
		if err != nil {
			return err
		}
		if svg != "" {
			p.Charts = append(p.Charts, htmlChart{Title: ch.title, SVG: template.HTML(svg)})
		}
	}
	svg, err := ioSeriesChart(r)
	if err != nil {
		return err
	}
	if svg != "" {
		p.Charts = append(p.Charts, htmlChart{Title: "I/O over time", SVG: template.HTML(svg)})
	}

	// Step table.
	steps := htmlTable{Caption: "Steps (measured window)", Head: []string{"users", "tps", "tpsE", "avg ms", "p95 ms", "errors", "retries"}}
	withIO := hasIO(r)
	if withIO {
		steps.Head = append(steps.Head, "read IOPS", "write IOPS", "read MB/s", "write MB/s", "read await ms", "write await ms", "I/O per txn")
	}
	steps.Head = append(steps.Head, "flags")
	num := func(format string, v float64) htmlCell { return htmlCell{Text: fmt.Sprintf(format, v), Class: "num"} }
	for _, i := range order {
		st, v := &r.Steps[i], views[i]
		p95 := htmlCell{Text: "-", Class: "num"}
		if v.ov.HasPercentiles {
			p95 = num("%.3f", v.ov.P95MS)
		}
		row := []htmlCell{{Text: fmt.Sprint(st.Users), Class: "num"}, num("%.1f", st.TPS), num("%.2f", st.TPSE),
			num("%.3f", v.ov.AvgMS), p95, num("%.0f", float64(v.ov.Errors)), num("%.0f", float64(v.ov.Retries))}
		if withIO {
			if io := st.IO; io != nil && io.Source != "" && io.Source != "none" {
				row = append(row, num("%.0f", io.ReadIOPS), num("%.0f", io.WriteIOPS), num("%.2f", io.ReadMBps), num("%.2f", io.WriteMBps),
					num("%.3f", io.ReadAwaitMS), num("%.3f", io.WriteAwaitMS), num("%.1f", io.IOPerTxn))
			} else {
				for range 7 {
					row = append(row, htmlCell{Text: "-", Class: "num"})
				}
			}
		}
		row = append(row, htmlCell{Text: stepFlags(st, i == knee)})
		steps.Rows = append(steps.Rows, row)
	}
	p.Tables = append(p.Tables, steps)
	p.Footnotes = append(p.Footnotes, "Flags: P partial step (interrupted), D the load driver was the bottleneck, K the knee.")

	for _, i := range order {
		st := &r.Steps[i]
		t := htmlTable{Caption: fmt.Sprintf("%d users: transactions", st.Users),
			Head: []string{"transaction", "count", "share", "avg ms", "p50", "p90", "p95", "p99", "max", "service avg", "service p95", "errors", "retries", "rollbacks"}}
		for _, name := range sortedTxnNames(st.Transactions) {
			x := st.Transactions[name]
			t.Rows = append(t.Rows, []htmlCell{{Text: name, Class: "name"}, num("%.0f", float64(x.Count)), num("%.1f %%", x.Share*100),
				num("%.3f", x.AvgMS), num("%.3f", x.P50MS), num("%.3f", x.P90MS), num("%.3f", x.P95MS), num("%.3f", x.P99MS), num("%.3f", x.MaxMS),
				num("%.3f", x.ServiceAvgMS), num("%.3f", x.ServiceP95MS), num("%.0f", float64(x.Errors)), num("%.0f", float64(x.Retries)), num("%.0f", float64(x.Rollbacks))})
		}
		p.Tables = append(p.Tables, t)
	}
	return writePage(w, p)
}

// ioSeriesChart draws read and write IOPS of every step's time series against
// seconds since the run started; "" when the run has no series.
func ioSeriesChart(r *Run) (string, error) {
	var t0 = r.StartedAt
	rd := line{name: "read IOPS", color: 0}
	wr := line{name: "write IOPS", color: 1}
	for _, i := range stepOrder(r.Steps) {
		io := r.Steps[i].IO
		if io == nil {
			continue
		}
		for _, s := range io.Series {
			if t0.IsZero() {
				t0 = s.At
			}
			x := s.At.Sub(t0).Seconds()
			rd.xs, rd.ys = append(rd.xs, x), append(rd.ys, s.ReadIOPS)
			wr.xs, wr.ys = append(wr.xs, x), append(wr.ys, s.WriteIOPS)
		}
	}
	return lineChartSVG("I/O over the run", "seconds since start", "IOPS", []line{rd, wr})
}
