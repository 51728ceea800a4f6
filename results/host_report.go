package results

import (
	"fmt"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/results/chart"
)

// The host figures in compare, gates, the report's step table, the CSV and the
// HTML charts (docs/host.md).

func hostValue(f func(h *StepHost) float64) func(stepView) (float64, bool) {
	return func(v stepView) (float64, bool) {
		if !hostKnown(v.st.Host) {
			return 0, false
		}
		return f(v.st.Host), true
	}
}

// hostMetrics are appended to stepMetrics. They are neutral: more CPU or network
// used is the price of more tps, not in itself better or worse.
var hostMetrics = []metric{
	{key: "cpu_pct", title: "host CPU busy", unit: unitPercent, neutral: true, value: hostValue(func(h *StepHost) float64 { return h.BusyPct() })},
	{key: "cpu_user_pct", title: "host CPU user", unit: unitPercent, neutral: true, value: hostValue(func(h *StepHost) float64 { return h.UserPct })},
	{key: "cpu_system_pct", title: "host CPU system", unit: unitPercent, neutral: true, value: hostValue(func(h *StepHost) float64 { return h.SystemPct })},
	{key: "cpu_iowait_pct", title: "host CPU iowait", unit: unitPercent, neutral: true, value: hostValue(func(h *StepHost) float64 { return h.IOWaitPct })},
	{key: "cpu_steal_pct", title: "host CPU steal", unit: unitPercent, neutral: true, value: hostValue(func(h *StepHost) float64 { return h.StealPct })},
	{key: "cpu_idle_pct", title: "host CPU idle", unit: unitPercent, neutral: true, value: hostValue(func(h *StepHost) float64 { return h.IdlePct })},
	{key: "run_queue", title: "host run queue", neutral: true, value: hostValue(func(h *StepHost) float64 { return h.RunQueue })},
	{key: "mem_used_mb", title: "host memory used (MiB)", integer: true, neutral: true, value: func(v stepView) (float64, bool) {
		h := v.st.Host
		if !hostKnown(h) || h.MemTotalBytes == 0 {
			return 0, false
		}
		return float64(h.MemUsedBytes) / mib, true
	}},
	{key: "net_rx_mbps", title: "host network in", unit: unitMBps, neutral: true, value: hostValue(func(h *StepHost) float64 { return h.NetRxBytes / mib })},
	{key: "net_tx_mbps", title: "host network out", unit: unitMBps, neutral: true, value: hostValue(func(h *StepHost) float64 { return h.NetTxBytes / mib })},
	{key: "net_link_pct", title: "host busiest link", unit: unitPercent, neutral: true, value: func(v stepView) (float64, bool) {
		h := v.st.Host
		if !hostKnown(h) || h.NetLinkPct == nil {
			return 0, false
		}
		return *h.NetLinkPct, true
	}},
	{key: "driver_cpu_pct", title: "driver host CPU busy", unit: unitPercent, neutral: true, value: func(v stepView) (float64, bool) {
		h := v.st.DriverHost
		if !hostKnown(h) {
			return 0, false
		}
		return h.BusyPct(), true
	}},
}

const mib = 1 << 20

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
// another machine, and what bound the step.
func hostTable(r *Run) table {
	withDriver := anyStep(r, func(st *Step) bool { return hostKnown(st.DriverHost) })
	t := table{Caption: "Database host (measured window)", Head: []string{"users", "tps", "CPU busy %"}}
	t.Head = append(t.Head, hostHead(true)...)
	if withDriver {
		t.Head = append(t.Head, "driver host CPU busy %")
	}
	t.Head = append(t.Head, "bound by")
	for _, i := range stepOrder(r.Steps) {
		st := &r.Steps[i]
		row := append([]cell{{Text: fmt.Sprint(st.Users), Class: "num"}, numCell("%.1f", st.TPS), busyCell(st.Host)}, hostCells(st, true)...)
		if withDriver {
			row = append(row, busyCell(st.DriverHost))
		}
		bound := dash
		if b := boundBy(st, r.System); b != "" {
			bound = cell{Text: b + "-bound"}
		}
		t.Rows = append(t.Rows, append(row, bound))
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
