package results

import (
	"fmt"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/results/chart"
)

// The host figures in compare, gates, the report's step table, the CSV and the
// HTML charts (docs/host.md).

func hasHost(r *Run) bool { return anyStep(r, func(st *Step) bool { return hostKnown(st.Host) }) }

// hostHead and hostCells are the report step table's host columns.
func hostHead(with bool) []string {
	if !with {
		return nil
	}
	return []string{"cores", "CPU usr/sys/iow/steal/idle %", "run queue", "mem used/cache/free", "net in/out MB/s", "link %"}
}

func hostCells(st *Step, with bool) []cell {
	if !with {
		return nil
	}
	h := st.Host
	if !hostKnown(h) {
		return []cell{dash, dash, dash, dash, dash, dash}
	}
	mem := dash
	if h.MemTotalBytes > 0 {
		mem = cell{Text: formatBytes(h.MemUsedBytes) + " / " + formatBytes(h.MemCacheBytes) + " / " + formatBytes(h.MemFreeBytes), Class: "num"}
	}
	link := dash
	if h.NetLinkPct != nil {
		link = numCell("%.1f", *h.NetLinkPct)
	}
	return []cell{numCell("%.0f", float64(h.Cores)), {Text: CPUSplit(h.HostFigures), Class: "num"}, numCell("%.1f", h.RunQueue), mem,
		{Text: fmt.Sprintf("%.2f / %.2f", h.NetRxBytes/mib, h.NetTxBytes/mib), Class: "num"}, link}
}

// hostTable is the HTML report's table of what the host spent at each step: the
// text report's host columns, with the busy CPU, the driver's host when it was
// another machine, and the step's bottleneck.
func hostTable(r *Run) table {
	withDriver := anyStep(r, func(st *Step) bool { return hostKnown(st.DriverHost) })
	t := table{Caption: "Database host (measured window)", Head: []string{"users", "tps", "CPU busy %"}}
	t.Head = append(t.Head, hostHead(true)...)
	if withDriver {
		t.Head = append(t.Head, "driver host CPU busy %")
	}
	t.Head = append(t.Head, "bottleneck")
	for _, i := range stepOrder(r.Steps) {
		st := &r.Steps[i]
		row := append([]cell{{Text: fmt.Sprint(st.Users), Class: "num"}, numCell("%.1f", st.TPS), busyCell(st.Host)}, hostCells(st, true)...)
		if withDriver {
			row = append(row, busyCell(st.DriverHost))
		}
		// The step rows' word (BottleneckOf), so the host table never reads
		// "CPU-bound" where the steps say "bottleneck io".
		bottleneck := dash
		if b := BottleneckOf(st, r.System); b != "" {
			bottleneck = cell{Text: b}
		}
		t.Rows = append(t.Rows, append(row, bottleneck))
	}
	return t
}

// busyCell is a host's busy CPU percentage, "-" when its figures are unknown.
func busyCell(h *StepHost) cell {
	if !hostKnown(h) {
		return dash
	}
	return numCell("%.1f", h.BusyPct())
}

// CPUSplit is "62/30/1/0/7": user, system, iowait, steal and idle, percent of all cores.
func CPUSplit(f HostFigures) string {
	return fmt.Sprintf("%.0f/%.0f/%.0f/%.0f/%.0f", f.UserPct, f.SystemPct, f.IOWaitPct, f.StealPct, f.IdlePct)
}

// hostCSVColumns are appended to the step CSV after every older column.
func hostCSVColumns() []csvColumn {
	host := func(f func(*StepHost) string) func(Input, stepView) string {
		return func(_ Input, v stepView) string {
			if !hostKnown(v.st.Host) {
				return ""
			}
			return f(v.st.Host)
		}
	}
	bytes := func(f func(*StepHost) int64) func(Input, stepView) string {
		return host(func(h *StepHost) string { return csvPositive(f(h)) })
	}
	return []csvColumn{
		{"host_source", func(_ Input, v stepView) string {
			if v.st.Host == nil {
				return ""
			}
			return v.st.Host.Source
		}},
		{"host_cores", host(func(h *StepHost) string { return csvInt(int64(h.Cores)) })},
		csvMetric("cpu_user_pct", "cpu_user_pct"),
		csvMetric("cpu_system_pct", "cpu_system_pct"),
		csvMetric("cpu_iowait_pct", "cpu_iowait_pct"),
		csvMetric("cpu_steal_pct", "cpu_steal_pct"),
		csvMetric("cpu_idle_pct", "cpu_idle_pct"),
		csvMetric("run_queue", "run_queue"),
		{"mem_total_bytes", bytes(func(h *StepHost) int64 { return h.MemTotalBytes })},
		{"mem_used_bytes", bytes(func(h *StepHost) int64 { return h.MemUsedBytes })},
		{"mem_cache_bytes", bytes(func(h *StepHost) int64 { return h.MemCacheBytes })},
		{"mem_free_bytes", bytes(func(h *StepHost) int64 { return h.MemFreeBytes })},
		{"net_rx_bytes_per_s", host(func(h *StepHost) string { return csvFloat(h.NetRxBytes) })},
		{"net_tx_bytes_per_s", host(func(h *StepHost) string { return csvFloat(h.NetTxBytes) })},
		{"net_rx_packets_per_s", host(func(h *StepHost) string { return csvFloat(h.NetRxPackets) })},
		{"net_tx_packets_per_s", host(func(h *StepHost) string { return csvFloat(h.NetTxPackets) })},
		csvMetric("net_link_pct", "net_link_pct"),
		csvMetric("driver_cpu_pct", "driver_cpu_pct"),
	}
}

// hostChartLines are the CPU split against users (or the offered rate): the
// report's chart beside IOPS.
func hostChartLines(byX func(name string, color int, dashed bool, m metric) chart.Line) []chart.Line {
	var out []chart.Line
	for k, key := range []string{"cpu_user_pct", "cpu_system_pct", "cpu_iowait_pct", "cpu_steal_pct"} {
		m := metricByKey(key)
		out = append(out, byX(strings.TrimPrefix(m.title, "host CPU "), k, false, m))
	}
	return out
}

// hostSeriesChart draws the database host's busy and iowait CPU over the run,
// "" when no step has a host series.
func hostSeriesChart(r *Run) (string, error) {
	return overRunChart(r, "Database host CPU over the run", "% of all cores", []chart.Line{{Name: "CPU busy %", Color: 0}, {Name: "iowait %", Color: 2}},
		func(st *Step, add func(time.Time, ...float64)) {
			if !hostKnown(st.Host) {
				return
			}
			for _, s := range st.Host.Series {
				add(s.At, s.BusyPct(), s.IOWaitPct)
			}
		})
}
