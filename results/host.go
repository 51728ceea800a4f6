package results

import "time"

// What the hosts spent in a step's window: the database's host (Step.Host) and,
// when it is another machine, the load driver's own (Step.DriverHost). The rules
// that read these figures are in bound.go; docs/host.md explains both.

// Host sources as they appear in steps[].host.source.
const (
	HostSourceProcfs       = "procfs"
	HostSourceNodeExporter = "node_exporter"
	HostSourceNone         = "none"
)

// StepHost is one host's CPU, memory and network over a step's measured window.
// Every rate is a ratio of sums between the counter snapshots at the window's
// edges (the same snapshots as the storage figures); the memory and run-queue
// gauges are averaged over the snapshots taken in the window.
type StepHost struct {
	Source string `json:"source"` // "procfs", "node_exporter" or "none"
	Note   string `json:"note,omitempty"`
	HostFigures
	// Memory gauges in bytes: used = total − free − cache (as free(1) prints them).
	MemTotalBytes int64 `json:"mem_total_bytes,omitempty"`
	MemUsedBytes  int64 `json:"mem_used_bytes,omitempty"`
	MemCacheBytes int64 `json:"mem_cache_bytes,omitempty"`
	MemFreeBytes  int64 `json:"mem_free_bytes,omitempty"`
	// Interfaces lists every network interface that moved traffic in the window.
	Interfaces []NetInterface `json:"interfaces,omitempty"`
	Series     []HostSample   `json:"series,omitempty"`
}

// HostFigures are the CPU split and the network totals of one interval.
type HostFigures struct {
	// Cores is the number of CPUs the host's counters cover.
	Cores int `json:"cores,omitempty"`
	// CPU time as a percentage of all cores' time; the five sum to 100. User
	// includes nice (and guests), system includes hard and soft interrupts.
	UserPct   float64 `json:"user_pct"`
	SystemPct float64 `json:"system_pct"`
	IOWaitPct float64 `json:"iowait_pct"`
	StealPct  float64 `json:"steal_pct"`
	IdlePct   float64 `json:"idle_pct"`
	// RunQueue is the average number of runnable tasks (procs_running, the reader
	// included).
	RunQueue float64 `json:"run_queue,omitempty"`
	// Network totals over every interface but loopback, per second.
	NetRxBytes   float64 `json:"net_rx_bytes_per_s,omitempty"`
	NetTxBytes   float64 `json:"net_tx_bytes_per_s,omitempty"`
	NetRxPackets float64 `json:"net_rx_packets_per_s,omitempty"`
	NetTxPackets float64 `json:"net_tx_packets_per_s,omitempty"`
	// NetLinkPct is the busiest interface's load as a percentage of its link speed
	// (the larger direction, links being full duplex); nil when no interface that
	// moved traffic has a known speed.
	NetLinkPct *float64 `json:"net_link_pct,omitempty"`
}

// BusyPct is the CPU time spent working: user, system and steal (time a
// hypervisor gave to someone else while this host wanted to run).
func (f HostFigures) BusyPct() float64 { return f.UserPct + f.SystemPct + f.StealPct }

// NetInterface is one network interface's traffic in the window.
type NetInterface struct {
	Name string `json:"name"`
	// SpeedMbit is the link speed in Mbit/s as the system reports it; 0 when unknown
	// (loopback, virtual interfaces, a link that is down).
	SpeedMbit int64    `json:"speed_mbit,omitempty"`
	RxBytes   float64  `json:"rx_bytes_per_s"`
	TxBytes   float64  `json:"tx_bytes_per_s"`
	RxPackets float64  `json:"rx_packets_per_s"`
	TxPackets float64  `json:"tx_packets_per_s"`
	LinkPct   *float64 `json:"link_pct,omitempty"`
	Loopback  bool     `json:"loopback,omitempty"`
}

// HostSample is one point of the host's time series (every --io-interval).
type HostSample struct {
	At time.Time `json:"at"`
	HostFigures
}
