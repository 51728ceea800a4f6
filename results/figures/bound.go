package figures

import (
	"strconv"
	"strings"

	"github.com/brokerbench/brokerbench/results"
)

// What bound a step: the database host's CPU or its disks (docs/host.md, "What
// bound the step"). The rules read only the result file, so report and compare
// judge old and new files alike.

// Step flag names of this file.
const (
	FlagCPUBound = "cpu-bound"
	FlagIOBound  = "io-bound"
)

// The cpu-bound rule: the database host's CPUs were idle less than CPUBoundIdlePct
// of their time and waited for I/O less than CPUBoundIOWaitPct: nearly all of it
// went to work (user, system) or to other guests (steal), so more or faster
// storage could not have raised tps.
//
// The io-bound rule: the CPUs waited for I/O at least IOBoundIOWaitPct of their
// time and a disk was saturated: the busiest one the totals count was busy at
// least IOBoundUtilPct of the window (tasks were blocked on disks that always had
// work), or a disk ran at IOBoundThrottlePct or more of an I/O limit the database
// server's cgroup puts on it. Utilisation cannot tell a saturated parallel device
// from a merely busy one (docs/storage.md §6.6), which is why the CPUs' waiting is
// required too; and it cannot see a cgroup's limit at all, since the kernel holds
// the I/O it throttles above the device's queue, where the disk statistics do not
// count it (docs/host.md §3.2).
const (
	CPUBoundIdlePct    = 5.0
	CPUBoundIOWaitPct  = 5.0
	IOBoundIOWaitPct   = 10.0
	IOBoundUtilPct     = 90.0
	IOBoundThrottlePct = 90.0
)

// CPUBound applies the cpu-bound rule; false when the host's figures are unknown.
func CPUBound(st *results.Step) bool {
	h := st.Host
	return !serverFault(st) && HostKnown(h) && h.Cores > 0 && h.IdlePct < CPUBoundIdlePct && h.IOWaitPct < CPUBoundIOWaitPct
}

// IOBound applies the io-bound rule to a step of a run on sys (nil: the storage
// is not described, so no limit is known); false when the host's figures are
// unknown, or the disks' utilisation and limits both are.
func IOBound(st *results.Step, sys *results.System) bool {
	h := st.Host
	if serverFault(st) || !HostKnown(h) || h.Cores == 0 || h.IOWaitPct < IOBoundIOWaitPct {
		return false
	}
	if util, ok := busiestUtil(st.IO); ok && util >= IOBoundUtilPct {
		return true
	}
	return atThrottle(st.IO, sys)
}

// atThrottle says whether a device of the step ran at IOBoundThrottlePct or more
// of its cgroup limit in either direction, in operations or in bytes. A limit on
// a member disk counts too: the I/O of the devices above it waits at its limit.
func atThrottle(io *results.StepIO, sys *results.System) bool {
	if !IOKnown(io) || sys == nil {
		return false
	}
	limits := map[string]string{}
	for _, stack := range sys.Storage {
		for _, d := range stack.Devices {
			if d.Throttle != "" {
				limits[d.Name] = d.Throttle
			}
		}
	}
	for _, d := range io.Devices {
		lim, ok := limits[d.Name]
		if !ok {
			continue
		}
		for key, limit := range throttleLimits(lim) {
			used := map[string]float64{"riops": d.ReadIOPS, "wiops": d.WriteIOPS, "rbps": d.ReadMBps * (1 << 20), "wbps": d.WriteMBps * (1 << 20)}[key]
			if used >= limit*IOBoundThrottlePct/100 {
				return true
			}
		}
	}
	return false
}

// throttleLimits reads a device's Throttle, written as cgroup v2's io.max writes
// it ("riops=300 wiops=300 rbps=1048576"): each positive limit by its key; "max"
// (no limit) and keys of no limit (v2's cost model) are left out.
func throttleLimits(s string) map[string]float64 {
	out := map[string]float64{}
	for _, f := range strings.Fields(s) {
		key, val, ok := strings.Cut(f, "=")
		if !ok {
			continue
		}
		switch key {
		case "riops", "wiops", "rbps", "wbps":
			if v, err := strconv.ParseFloat(val, 64); err == nil && v > 0 {
				out[key] = v
			}
		}
	}
	return out
}

// busiestUtil is the highest utilisation of a device the totals count, or the
// totals' own when the step lists no devices.
func busiestUtil(io *results.StepIO) (float64, bool) {
	if !IOKnown(io) {
		return 0, false
	}
	best, ok := 0.0, false
	for _, d := range io.Devices {
		if d.Layer == "" && d.UtilPercent > 0 {
			best, ok = max(best, d.UtilPercent), true
		}
	}
	if !ok && io.UtilPercent > 0 {
		return io.UtilPercent, true
	}
	return best, ok
}

// serverFault: the server stalled, went down or was lost during the step, which
// then measured the fault (often at 0 tps), not what bound the host; other
// processes' CPU use must not make it cpu-bound.
func serverFault(st *results.Step) bool {
	f := st.Faults
	return f != nil && (f.ServerStalls > 0 || f.ServerOutages > 0 || f.ServerLost)
}

// Bottlenecks (Step.Bottleneck): what limited the step, a word apart from where its
// data came from (DataSourceOf).
const (
	BottleneckCPU    = "cpu"
	BottleneckIO     = "io"
	BottleneckDriver = "driver"
	BottleneckNone   = "none"
)

// BottleneckOf names what limited a step of a run on sys: the load driver when it could
// not keep up (its figures then say more about the driver than the database), else the
// database host's CPU or its disks by the rules above, or none; "" when the host's
// Figures are unknown and the driver kept up.
func BottleneckOf(st *results.Step, sys *results.System) string {
	switch {
	case st.Driver.Bottleneck:
		return BottleneckDriver
	case !HostKnown(st.Host) || st.Host.Cores == 0:
		return ""
	case CPUBound(st):
		return BottleneckCPU
	case IOBound(st, sys):
		return BottleneckIO
	}
	return BottleneckNone
}

// boundFlags are the flags of this file that hold for the step, in order;
// SetStepFlags owns them with its own.
func boundFlags(st *results.Step, sys *results.System) []string {
	var f []string
	if CPUBound(st) {
		f = append(f, FlagCPUBound)
	}
	if IOBound(st, sys) {
		f = append(f, FlagIOBound)
	}
	return f
}
