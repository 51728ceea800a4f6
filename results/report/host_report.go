package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/chart"
	"github.com/brokerbench/brokerbench/results/figures"
)

// The host figures in compare, gates, the report's step table, the CSV and the
// HTML charts (docs/host.md).

func hasHost(r *results.Run) bool {
	return figures.AnyStep(r, func(st *results.Step) bool { return figures.HostKnown(st.Host) })
}

// hostHead and hostCells are the report step table's host columns.
func hostHead(with bool) []string {
	if !with {
		return nil
	}
	return []string{"cores", "CPU usr/sys/iow/steal/idle %", "run queue", "mem used/cache/free", "net in/out MB/s", "link %"}
}

func hostCells(st *results.Step, with bool) []cell {
	if !with {
		return nil
	}
	h := st.Host
	if !figures.HostKnown(h) {
		return []cell{dash, dash, dash, dash, dash, dash}
	}
	mem := dash
	if h.MemTotalBytes > 0 {
		mem = cell{Text: bytesize.Format(h.MemUsedBytes) + " / " + bytesize.Format(h.MemCacheBytes) + " / " + bytesize.Format(h.MemFreeBytes), Class: "num"}
	}
	link := dash
	if h.NetLinkPct != nil {
		link = numCell("%.1f", *h.NetLinkPct)
	}
	return []cell{numCell("%.0f", float64(h.Cores)), {Text: figures.CPUSplit(h.HostFigures), Class: "num"}, numCell("%.1f", h.RunQueue), mem,
		{Text: fmt.Sprintf("%.2f / %.2f", h.NetRxBytes/figures.MiB, h.NetTxBytes/figures.MiB), Class: "num"}, link}
}

// hostTable is the HTML report's table of what the host spent at each step: the
// text report's host columns, with the busy CPU, the driver's host when it was
// another machine, and the step's bottleneck.
func hostTable(r *results.Run) table {
	withDriver := figures.AnyStep(r, func(st *results.Step) bool { return figures.HostKnown(st.DriverHost) })
	t := table{Caption: "Database host (measured window)", Head: []string{"users", "tps", "CPU busy %"}}
	t.Head = append(t.Head, hostHead(true)...)
	if withDriver {
		t.Head = append(t.Head, "driver host CPU busy %")
	}
	t.Head = append(t.Head, "bottleneck")
	for _, i := range figures.StepOrder(r.Steps) {
		st := &r.Steps[i]
		row := append([]cell{{Text: fmt.Sprint(st.Users), Class: "num"}, numCell("%.1f", st.TPS), busyCell(st.Host)}, hostCells(st, true)...)
		if withDriver {
			row = append(row, busyCell(st.DriverHost))
		}
		// The step rows' word (BottleneckOf), so the host table never reads
		// "CPU-bound" where the steps say "bottleneck io".
		bottleneck := dash
		if b := figures.BottleneckOf(st, r.System); b != "" {
			bottleneck = cell{Text: b}
		}
		t.Rows = append(t.Rows, append(row, bottleneck))
	}
	return t
}

// busyCell is a host's busy CPU percentage, "-" when its figures are unknown.
func busyCell(h *results.StepHost) cell {
	if !figures.HostKnown(h) {
		return dash
	}
	return numCell("%.1f", h.BusyPct())
}

// hostCSVColumns are appended to the step CSV after every older column.
func hostCSVColumns() []csvColumn {
	host := func(f func(*results.StepHost) string) func(results.Input, figures.StepView) string {
		return func(_ results.Input, v figures.StepView) string {
			if !figures.HostKnown(v.Step.Host) {
				return ""
			}
			return f(v.Step.Host)
		}
	}
	bytes := func(f func(*results.StepHost) int64) func(results.Input, figures.StepView) string {
		return host(func(h *results.StepHost) string { return csvPositive(f(h)) })
	}
	return []csvColumn{
		{"host_source", func(_ results.Input, v figures.StepView) string {
			if v.Step.Host == nil {
				return ""
			}
			return v.Step.Host.Source
		}},
		{"host_cores", host(func(h *results.StepHost) string { return csvInt(int64(h.Cores)) })},
		csvMetric("cpu_user_pct", "cpu_user_pct"),
		csvMetric("cpu_system_pct", "cpu_system_pct"),
		csvMetric("cpu_iowait_pct", "cpu_iowait_pct"),
		csvMetric("cpu_steal_pct", "cpu_steal_pct"),
		csvMetric("cpu_idle_pct", "cpu_idle_pct"),
		csvMetric("run_queue", "run_queue"),
		{"mem_total_bytes", bytes(func(h *results.StepHost) int64 { return h.MemTotalBytes })},
		{"mem_used_bytes", bytes(func(h *results.StepHost) int64 { return h.MemUsedBytes })},
		{"mem_cache_bytes", bytes(func(h *results.StepHost) int64 { return h.MemCacheBytes })},
		{"mem_free_bytes", bytes(func(h *results.StepHost) int64 { return h.MemFreeBytes })},
		{"net_rx_bytes_per_s", host(func(h *results.StepHost) string { return csvFloat(h.NetRxBytes) })},
		{"net_tx_bytes_per_s", host(func(h *results.StepHost) string { return csvFloat(h.NetTxBytes) })},
		{"net_rx_packets_per_s", host(func(h *results.StepHost) string { return csvFloat(h.NetRxPackets) })},
		{"net_tx_packets_per_s", host(func(h *results.StepHost) string { return csvFloat(h.NetTxPackets) })},
		csvMetric("net_link_pct", "net_link_pct"),
		csvMetric("driver_cpu_pct", "driver_cpu_pct"),
	}
}

// hostChartLines are the CPU split against users (or the offered rate): the
// report's chart beside IOPS.
func hostChartLines(byX func(name string, color int, dashed bool, m figures.Metric) chart.Line) []chart.Line {
	var out []chart.Line
	for k, key := range []string{"cpu_user_pct", "cpu_system_pct", "cpu_iowait_pct", "cpu_steal_pct"} {
		m := metricByKey(key)
		out = append(out, byX(strings.TrimPrefix(m.Title, "host CPU "), k, false, m))
	}
	return out
}

// hostSeriesChart draws the database host's busy and iowait CPU over the run,
// "" when no step has a host series.
func hostSeriesChart(r *results.Run) (string, error) {
	return overRunChart(r, "Database host CPU over the run", "% of all cores", []chart.Line{{Name: "CPU busy %", Color: 0}, {Name: "iowait %", Color: 2}},
		func(st *results.Step, add func(time.Time, ...float64)) {
			if !figures.HostKnown(st.Host) {
				return
			}
			for _, s := range st.Host.Series {
				add(s.At, s.BusyPct(), s.IOWaitPct)
			}
		})
}
