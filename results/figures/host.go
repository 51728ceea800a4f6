package figures

import (
	"github.com/brokerbench/brokerbench/results"
)

// HostKnown tells whether a step has host figures at all.
func HostKnown(h *results.StepHost) bool {
	return h != nil && h.Source != "" && h.Source != results.HostSourceNone
}

// LinkPct is bytes per second against a link of speedMbit, nil when the speed is unknown.
func LinkPct(bytesPerS float64, speedMbit int64) *float64 {
	if speedMbit <= 0 {
		return nil
	}
	p := results.Round(bytesPerS*8/(float64(speedMbit)*1e6)*100, 2)
	return &p
}

// hostMetrics are appended to stepMetrics. They are neutral: more CPU or network
// used is the price of more tps, not in itself better or worse.
var hostMetrics = []Metric{
	{Key: "cpu_pct", Title: "host CPU busy", Unit: UnitPercent, Neutral: true, Value: hostValue(func(h *results.StepHost) float64 { return h.BusyPct() })},
	{Key: "cpu_user_pct", Title: "host CPU user", Unit: UnitPercent, Neutral: true, Value: hostValue(func(h *results.StepHost) float64 { return h.UserPct })},
	{Key: "cpu_system_pct", Title: "host CPU system", Unit: UnitPercent, Neutral: true, Value: hostValue(func(h *results.StepHost) float64 { return h.SystemPct })},
	{Key: "cpu_iowait_pct", Title: "host CPU iowait", Unit: UnitPercent, Neutral: true, Value: hostValue(func(h *results.StepHost) float64 { return h.IOWaitPct })},
	{Key: "cpu_steal_pct", Title: "host CPU steal", Unit: UnitPercent, Neutral: true, Value: hostValue(func(h *results.StepHost) float64 { return h.StealPct })},
	{Key: "cpu_idle_pct", Title: "host CPU idle", Unit: UnitPercent, Neutral: true, Value: hostValue(func(h *results.StepHost) float64 { return h.IdlePct })},
	{Key: "run_queue", Title: "host run queue", Neutral: true, Value: hostValue(func(h *results.StepHost) float64 { return h.RunQueue })},
	{Key: "mem_used_mb", Title: "host memory used (MiB)", Integer: true, Neutral: true, Value: func(v StepView) (float64, bool) {
		h := v.Step.Host
		if !HostKnown(h) || h.MemTotalBytes == 0 {
			return 0, false
		}
		return float64(h.MemUsedBytes) / MiB, true
	}},
	{Key: "net_rx_mbps", Title: "host network in", Unit: unitMBps, Neutral: true, Value: hostValue(func(h *results.StepHost) float64 { return h.NetRxBytes / MiB })},
	{Key: "net_tx_mbps", Title: "host network out", Unit: unitMBps, Neutral: true, Value: hostValue(func(h *results.StepHost) float64 { return h.NetTxBytes / MiB })},
	{Key: "net_link_pct", Title: "host busiest link", Unit: UnitPercent, Neutral: true, Value: func(v StepView) (float64, bool) {
		h := v.Step.Host
		if !HostKnown(h) || h.NetLinkPct == nil {
			return 0, false
		}
		return *h.NetLinkPct, true
	}},
	{Key: "driver_cpu_pct", Title: "driver host CPU busy", Unit: UnitPercent, Neutral: true, Value: func(v StepView) (float64, bool) {
		h := v.Step.DriverHost
		if !HostKnown(h) {
			return 0, false
		}
		return h.BusyPct(), true
	}},
}

func hostValue(f func(h *results.StepHost) float64) func(StepView) (float64, bool) {
	return func(v StepView) (float64, bool) {
		if !HostKnown(v.Step.Host) {
			return 0, false
		}
		return f(v.Step.Host), true
	}
}

const MiB = 1 << 20
