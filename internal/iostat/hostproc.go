package iostat

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/prometheus/procfs"
	"github.com/prometheus/procfs/sysfs"

	"github.com/brokerbench/brokerbench/results"
)

// procHost reads this machine's CPU, memory and network from procfs (/proc/stat,
// /proc/meminfo, /proc/net/dev) and the link speeds from /sys/class/net/*/speed.
// It is a Source of its own in the sampler, so its readings share the disks'
// sampling instants and window edges.
type procHost struct {
	proc procfs.FS
	sys  sysfs.FS
	now  func() time.Time

	mu     sync.Mutex
	speeds map[string]int64 // Mbit/s by interface, read once per name; 0 unknown
}

var _ Source = (*procHost)(nil)

// SourceProcHost is the host source's name in the sampler's log lines.
const SourceProcHost = "procfs"

func newProcHost(proc, sys string) (*procHost, error) {
	pfs, err := procfs.NewFS(proc)
	if err != nil {
		return nil, err
	}
	sfs, err := sysfs.NewFS(sys)
	if err != nil {
		return nil, err
	}
	h := &procHost{proc: pfs, sys: sfs, now: time.Now, speeds: map[string]int64{}}
	// One read now, so a host whose procfs is unreadable (not Linux, a sandbox)
	// says so at start rather than as a gap in every step.
	if _, err := h.read(); err != nil {
		return nil, err
	}
	return h, nil
}

func (h *procHost) Name() string      { return SourceProcHost }
func (h *procHost) Devices() []Device { return nil }
func (h *procHost) Note() string      { return "" }
func (h *procHost) Close() error      { return nil }

func (h *procHost) Snapshot(context.Context) (*Snapshot, error) {
	c, err := h.read()
	if err != nil {
		return nil, err
	}
	return &Snapshot{At: h.now(), Host: c}, nil
}

// read takes one reading. /proc/stat's CPU times come in seconds at USER_HZ
// resolution; they are kept in µs, the sampler's time unit.
func (h *procHost) read() (*HostCounters, error) {
	st, err := h.proc.Stat()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", "stat", err)
	}
	c := &HostCounters{Boot: int64(st.BootTime), Cores: len(st.CPU), ProcsRunning: float64(st.ProcessesRunning), CPU: cpuTimes(st.CPUTotal)}
	if mi, err := h.proc.Meminfo(); err == nil && mi.MemTotalBytes != nil && mi.MemFreeBytes != nil {
		c.HasMem = true
		c.MemTotal, c.MemFree = *mi.MemTotalBytes, *mi.MemFreeBytes
		for _, v := range []*uint64{mi.BuffersBytes, mi.CachedBytes, mi.SReclaimableBytes} {
			if v != nil {
				c.MemCache += *v
			}
		}
	}
	nd, err := h.proc.NetDev()
	if err != nil {
		return nil, fmt.Errorf("read net/dev: %w", err)
	}
	c.Net = make(map[string]NetCounters, len(nd))
	for name, l := range nd {
		c.Net[name] = NetCounters{RxBytes: l.RxBytes, RxPackets: l.RxPackets, TxBytes: l.TxBytes, TxPackets: l.TxPackets,
			SpeedMbit: h.speed(name), Loopback: name == "lo"}
	}
	return c, nil
}

// speed is an interface's link speed in Mbit/s, read once: the kernel reports -1 or
// refuses the read (EINVAL) for loopback, virtual and down links, which stay 0.
func (h *procHost) speed(name string) int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s, ok := h.speeds[name]; ok {
		return s
	}
	var s int64
	if nc, err := h.sys.NetClassByIface(name); err == nil && nc.Speed != nil && *nc.Speed > 0 {
		s = *nc.Speed
	}
	h.speeds[name] = s
	return s
}

// cpuTimes converts procfs' seconds to µs. Guest time is already inside user and
// nice, so it is not added again.
func cpuTimes(s procfs.CPUStat) CPUTimes {
	us := func(v float64) uint64 { return uint64(math.Round(v * 1e6)) }
	return CPUTimes{User: us(s.User), Nice: us(s.Nice), System: us(s.System), Idle: us(s.Idle),
		IOWait: us(s.Iowait), IRQ: us(s.IRQ), SoftIRQ: us(s.SoftIRQ), Steal: us(s.Steal)}
}

// hostSourceName is the result file's name for where a host's figures come from.
func hostSourceName(src Source) string {
	if src.Name() == SourceNodeExporter {
		return results.HostSourceNodeExporter
	}
	return results.HostSourceProcfs
}
