package iostat

import (
	"errors"
	"fmt"
	"math"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// HostCounters are one reading of a host's CPU, memory and network (docs/host.md):
// cumulative CPU times and interface counters, and the gauges of that instant.
// The local host's come from procfs, a remote one's from its node_exporter, in the
// same snapshot as its disks.
type HostCounters struct {
	// Boot is the host's boot time (Unix seconds); a change means the host
	// restarted and its counters started over.
	Boot  int64
	Cores int
	CPU   CPUTimes
	// ProcsRunning is the number of runnable tasks at the read.
	ProcsRunning float64
	// Memory in bytes; Cache is buffers + page cache + reclaimable slab.
	MemTotal, MemFree, MemCache uint64
	HasMem                      bool
	Net                         map[string]NetCounters
}

// CPUTimes are all cores' cumulative time per state, in µs (the kernel counts in
// USER_HZ ticks, node_exporter in float seconds).
type CPUTimes struct {
	User, Nice, System, Idle, IOWait, IRQ, SoftIRQ, Steal uint64
}

// NetCounters are one interface's cumulative traffic and its link speed.
type NetCounters struct {
	RxBytes, RxPackets, TxBytes, TxPackets uint64
	SpeedMbit                              int64 // 0: unknown
	Loopback                               bool
}

// errHostRestarted: the boot time changed between two readings.
var errHostRestarted = errors.New("the host restarted in the window")

// cpuDelta differences the CPU times. The kernel's idle and iowait counters may go
// back a little (time moves between them as tasks block and wake on a tickless
// kernel), so a decrease within one state is counted as no time there rather than
// as a reset: a reset shows as a changed boot time.
func cpuDelta(a, b CPUTimes) CPUTimes {
	d := func(x, y uint64) uint64 {
		if y < x {
			return 0
		}
		return y - x
	}
	return CPUTimes{User: d(a.User, b.User), Nice: d(a.Nice, b.Nice), System: d(a.System, b.System),
		Idle: d(a.Idle, b.Idle), IOWait: d(a.IOWait, b.IOWait), IRQ: d(a.IRQ, b.IRQ),
		SoftIRQ: d(a.SoftIRQ, b.SoftIRQ), Steal: d(a.Steal, b.Steal)}
}

// hostFigures is the CPU split and network totals between two readings over
// seconds; interfaces lists each interface that moved traffic.
func hostFigures(a, b *HostCounters, seconds float64) (results.HostFigures, []results.NetInterface, error) {
	var f results.HostFigures
	if a.Boot != 0 && b.Boot != 0 && a.Boot != b.Boot {
		return f, nil, errHostRestarted
	}
	if seconds <= 0 || math.IsNaN(seconds) {
		return f, nil, fmt.Errorf("no time between the readings")
	}
	f.Cores = b.Cores
	d := cpuDelta(a.CPU, b.CPU)
	user, system := d.User+d.Nice, d.System+d.IRQ+d.SoftIRQ
	total := user + system + d.IOWait + d.Steal + d.Idle
	if total > 0 {
		pct := func(v uint64) float64 { return round2(100 * float64(v) / float64(total)) }
		f.UserPct, f.SystemPct, f.IOWaitPct, f.StealPct = pct(user), pct(system), pct(d.IOWait), pct(d.Steal)
		// Idle takes the rounding, so the five still sum to 100 (within 0.01).
		f.IdlePct = max(round2(100-f.UserPct-f.SystemPct-f.IOWaitPct-f.StealPct), 0)
	}
	var ifs []results.NetInterface
	for _, name := range sortedKeys(b.Net) {
		cb := b.Net[name]
		ca, ok := a.Net[name]
		if !ok {
			continue
		}
		var dd [4]uint64
		var err error
		for i, p := range [4][2]uint64{{ca.RxBytes, cb.RxBytes}, {ca.TxBytes, cb.TxBytes}, {ca.RxPackets, cb.RxPackets}, {ca.TxPackets, cb.TxPackets}} {
			if dd[i], err = sub(p[0], p[1], countWrap); err != nil {
				break
			}
		}
		if err != nil || dd[0]+dd[1]+dd[2]+dd[3] == 0 {
			// A re-created interface (a VPN coming back) has no valid delta; one
			// that moved nothing is left out to keep the file short.
			continue
		}
		ni := results.NetInterface{Name: name, SpeedMbit: cb.SpeedMbit, Loopback: cb.Loopback,
			RxBytes: round2(float64(dd[0]) / seconds), TxBytes: round2(float64(dd[1]) / seconds),
			RxPackets: round2(float64(dd[2]) / seconds), TxPackets: round2(float64(dd[3]) / seconds)}
		ni.LinkPct = figures.LinkPct(max(ni.RxBytes, ni.TxBytes), cb.SpeedMbit)
		ifs = append(ifs, ni)
		if ni.Loopback {
			continue
		}
		f.NetRxBytes += ni.RxBytes
		f.NetTxBytes += ni.TxBytes
		f.NetRxPackets += ni.RxPackets
		f.NetTxPackets += ni.TxPackets
		if ni.LinkPct != nil && (f.NetLinkPct == nil || *ni.LinkPct > *f.NetLinkPct) {
			p := *ni.LinkPct
			f.NetLinkPct = &p
		}
	}
	return f, ifs, nil
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// hostWindow turns the host readings of one window into the step's figures: rates
// between the edge readings ea and eb, gauges averaged over every reading in
// between (readings, edges included).
func hostWindow(source string, ea, eb *Snapshot, readings []*HostCounters) *results.StepHost {
	h := &results.StepHost{Source: source}
	f, ifs, err := hostFigures(ea.Host, eb.Host, seconds(ea, eb))
	if err != nil {
		h.Note = err.Error()
		return h
	}
	h.HostFigures, h.Interfaces = f, ifs
	var run, total, free, cache float64
	var nMem int
	for _, r := range readings {
		run += r.ProcsRunning
		if r.HasMem {
			nMem++
			total += float64(r.MemTotal)
			free += float64(r.MemFree)
			cache += float64(r.MemCache)
		}
	}
	if n := len(readings); n > 0 {
		h.RunQueue = round2(run / float64(n))
	}
	if nMem > 0 {
		m := float64(nMem)
		h.MemTotalBytes, h.MemFreeBytes, h.MemCacheBytes = int64(total/m), int64(free/m), int64(cache/m)
		h.MemUsedBytes = max(h.MemTotalBytes-h.MemFreeBytes-h.MemCacheBytes, 0)
	}
	return h
}
