package iostat

import (
	"math"

	dto "github.com/prometheus/client_model/go"
)

// The node_exporter collectors and metrics of the host figures (docs/host.md):
// cpu, meminfo, netdev, netclass (link speed) and stat (boot time, run queue).
var hostCollectors = []string{"cpu", "meminfo", "netdev", "netclass", "stat"}

const (
	mCPU          = "node_cpu_seconds_total"
	mBootTime     = "node_boot_time_seconds"
	mProcsRunning = "node_procs_running"
	mMemTotal     = "node_memory_MemTotal_bytes"
	mMemFree      = "node_memory_MemFree_bytes"
	mNetRxBytes   = "node_network_receive_bytes_total"
	mNetTxBytes   = "node_network_transmit_bytes_total"
	mNetRxPackets = "node_network_receive_packets_total"
	mNetTxPackets = "node_network_transmit_packets_total"
	mNetSpeed     = "node_network_speed_bytes"
)

// memCacheMetrics add up to the cache figure, as procfs' Buffers, Cached and
// SReclaimable do.
var memCacheMetrics = []string{"node_memory_Buffers_bytes", "node_memory_Cached_bytes", "node_memory_SReclaimable_bytes"}

// exporterHost reads the host figures out of one scrape; nil when the scrape has no
// CPU times (the cpu collector is disabled).
func exporterHost(fams map[string]*dto.MetricFamily) *HostCounters {
	f := fams[mCPU]
	if f == nil || len(f.GetMetric()) == 0 {
		return nil
	}
	c := &HostCounters{Net: map[string]NetCounters{}}
	cpus := map[string]bool{}
	us := func(v float64) uint64 { return toUint(v, 1e6) }
	modes := map[string]*uint64{"user": &c.CPU.User, "nice": &c.CPU.Nice, "system": &c.CPU.System, "idle": &c.CPU.Idle,
		"iowait": &c.CPU.IOWait, "irq": &c.CPU.IRQ, "softirq": &c.CPU.SoftIRQ, "steal": &c.CPU.Steal}
	for _, m := range f.GetMetric() {
		cpus[label(m, "cpu")] = true
		if p := modes[label(m, "mode")]; p != nil {
			*p += us(value(m))
		}
	}
	c.Cores = len(cpus)
	gauge := func(name string) (float64, bool) {
		g := fams[name]
		if g == nil || len(g.GetMetric()) == 0 {
			return 0, false
		}
		v := value(g.GetMetric()[0])
		return v, !math.IsNaN(v)
	}
	if v, ok := gauge(mBootTime); ok {
		c.Boot = int64(math.Round(v))
	}
	if v, ok := gauge(mProcsRunning); ok {
		c.ProcsRunning = v
	}
	total, okT := gauge(mMemTotal)
	free, okF := gauge(mMemFree)
	if okT && okF {
		c.HasMem = true
		c.MemTotal, c.MemFree = toUint(total, 1), toUint(free, 1)
		for _, name := range memCacheMetrics {
			if v, ok := gauge(name); ok {
				c.MemCache += toUint(v, 1)
			}
		}
	}
	for _, t := range []struct {
		metric string
		set    func(*NetCounters, uint64)
	}{
		{mNetRxBytes, func(n *NetCounters, v uint64) { n.RxBytes = v }},
		{mNetTxBytes, func(n *NetCounters, v uint64) { n.TxBytes = v }},
		{mNetRxPackets, func(n *NetCounters, v uint64) { n.RxPackets = v }},
		{mNetTxPackets, func(n *NetCounters, v uint64) { n.TxPackets = v }},
		// node_exporter gives the speed in bytes per second; sysfs in Mbit/s.
		{mNetSpeed, func(n *NetCounters, v uint64) { n.SpeedMbit = int64(v * 8 / 1_000_000) }},
	} {
		g := fams[t.metric]
		if g == nil {
			continue
		}
		for _, m := range g.GetMetric() {
			dev := label(m, "device")
			if dev == "" {
				continue
			}
			n := c.Net[dev]
			t.set(&n, toUint(value(m), 1))
			n.Loopback = dev == "lo"
			c.Net[dev] = n
		}
	}
	return c
}
