package results

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
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
func CPUBound(st *Step) bool {
	h := st.Host
	return !serverFault(st) && hostKnown(h) && h.Cores > 0 && h.IdlePct < CPUBoundIdlePct && h.IOWaitPct < CPUBoundIOWaitPct
}

// IOBound applies the io-bound rule to a step of a run on sys (nil: the storage
// is not described, so no limit is known); false when the host's figures are
// unknown, or the disks' utilisation and limits both are.
func IOBound(st *Step, sys *System) bool {
	h := st.Host
	if serverFault(st) || !hostKnown(h) || h.Cores == 0 || h.IOWaitPct < IOBoundIOWaitPct {
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
func atThrottle(io *StepIO, sys *System) bool {
	if !ioKnown(io) || sys == nil {
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
func busiestUtil(io *StepIO) (float64, bool) {
	if !ioKnown(io) {
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
func serverFault(st *Step) bool {
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
// figures are unknown and the driver kept up.
func BottleneckOf(st *Step, sys *System) string {
	switch {
	case st.Driver.Bottleneck:
		return BottleneckDriver
	case !hostKnown(st.Host) || st.Host.Cores == 0:
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
func boundFlags(st *Step, sys *System) []string {
	var f []string
	if CPUBound(st) {
		f = append(f, FlagCPUBound)
	}
	if IOBound(st, sys) {
		f = append(f, FlagIOBound)
	}
	return f
}

// BoundWarnings says, for each run against the base, at which shared user counts
// the two were limited by different bottlenecks (BottleneckOf: one cpu, the other
// io, say): their difference in tps then says more about that bottleneck than about
// what the comparison is about. With repeats each side is judged by all of them
// (sideBottleneckOf): its bottleneck is the one most of its repeats agree on, and a
// side whose repeats have no majority is warned of too, since its verdict then
// averages windows limited by different things. Steps without host figures are
// not judged.
func (c *Comparison) BoundWarnings() []string {
	var out []string
	base := c.Inputs[0]
	for r := 1; r < len(c.Inputs); r++ {
		in := c.Inputs[r]
		var diffs, mixed []string
		for i, u := range c.Users {
			sa, sb := sideBottleneckOf(base, c.reps[i][0]), sideBottleneckOf(in, c.reps[i][r])
			if sa.judged == 0 || sb.judged == 0 {
				continue
			}
			switch {
			case sa.word == "" || sb.word == "":
				mixed = append(mixed, fmt.Sprintf("at %d users %s", u, mixedSides(base, sa, in, sb)))
			case sa.word != sb.word:
				diffs = append(diffs, fmt.Sprintf("at %d users %s %s vs %s %s", u, base.Name(), sa.counted(), in.Name(), sb.counted()))
			}
		}
		if len(diffs) > 0 {
			out = append(out, fmt.Sprintf("%s vs %s: different bottlenecks (%s); the difference measures the bottleneck, not only what changed (docs/host.md).",
				in.Name(), base.Name(), strings.Join(diffs, "; ")))
		}
		if len(mixed) > 0 {
			out = append(out, fmt.Sprintf("%s vs %s: repeats with no common bottleneck (%s); the verdict there averages windows limited by different things (docs/host.md).",
				in.Name(), base.Name(), strings.Join(mixed, "; ")))
		}
	}
	return out
}

// mixedSides names the sides whose repeats have no common bottleneck, each with
// its counts: "B: cpu in 1 of 2 repeats, io in 1".
func mixedSides(a Input, sa sideBottleneck, b Input, sb sideBottleneck) string {
	var parts []string
	if sa.word == "" {
		parts = append(parts, a.Name()+": "+sa.spread())
	}
	if sb.word == "" {
		parts = append(parts, b.Name()+": "+sb.spread())
	}
	return strings.Join(parts, " and ")
}

// sideBottleneck is what limited one side's repeats of a step: how many repeats had
// host figures to judge (judged), each bottleneck's count among them, and the one
// more than half of them agree on (word; "" when none does: 1 of 2, or cpu, io and
// none in 3). More than half, not all: one repeat of three whose window a checkpoint
// or the host moved is noise the interval across repeats already holds, and
// warning of it would call most A/A comparisons "not comparable".
type sideBottleneck struct {
	word   string
	counts map[string]int
	judged int
}

// sideBottleneckOf judges a side's repeats at one user count, each against its own
// run's system (its storage's I/O limits).
func sideBottleneckOf(in Input, reps []stepView) sideBottleneck {
	s := sideBottleneck{counts: map[string]int{}}
	for _, v := range reps {
		if !hostKnown(v.st.Host) {
			continue
		}
		if b := BottleneckOf(v.st, systemOf(in, v.st)); b != "" {
			s.counts[b]++
			s.judged++
		}
	}
	for b, n := range s.counts {
		if 2*n > s.judged {
			s.word = b
		}
	}
	return s
}

// systemOf is the system of the side's run that holds st (the first run's when
// none does).
func systemOf(in Input, st *Step) *System {
	for _, rep := range in.All() {
		for j := range rep.Run.Steps {
			if &rep.Run.Steps[j] == st {
				return rep.Run.System
			}
		}
	}
	return in.Run.System
}

// counted reads "bottleneck io", or with repeats "bottleneck io in all 3 repeats"
// ("in both repeats") or "bottleneck cpu in 2 of 3 repeats (io in 1)".
func (s sideBottleneck) counted() string {
	words := s.byCount()
	switch {
	case s.judged == 1:
		return bottleneckText(s.word)
	case len(words) == 1 && s.judged == 2:
		return bottleneckText(s.word) + " in both repeats"
	case len(words) == 1:
		return fmt.Sprintf("%s in all %d repeats", bottleneckText(s.word), s.judged)
	}
	return fmt.Sprintf("%s in %d of %d repeats (%s)", bottleneckText(s.word), s.counts[s.word], s.judged, s.others(words[1:]))
}

// spread reads "cpu in 1 of 2 repeats, io in 1": the most common bottleneck first,
// then the others by count.
func (s sideBottleneck) spread() string {
	words := s.byCount()
	return fmt.Sprintf("%s in %d of %d repeats, %s", words[0], s.counts[words[0]], s.judged, s.others(words[1:]))
}

func (s sideBottleneck) others(words []string) string {
	parts := make([]string, len(words))
	for k, b := range words {
		parts[k] = fmt.Sprintf("%s in %d", b, s.counts[b])
	}
	return strings.Join(parts, ", ")
}

// byCount is the side's bottlenecks, the most common first (ties by name).
func (s sideBottleneck) byCount() []string {
	words := make([]string, 0, len(s.counts))
	for b := range s.counts {
		words = append(words, b)
	}
	slices.SortFunc(words, func(a, b string) int {
		if d := s.counts[b] - s.counts[a]; d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	return words
}

// bottleneckText is the bottleneck as the step rows print it ("bottleneck cpu");
// none, which the rows leave out, reads "no cpu or io bottleneck".
func bottleneckText(b string) string {
	if b == BottleneckNone {
		return "no cpu or io bottleneck"
	}
	return "bottleneck " + b
}

// boundNote explains the C and I flags under the step table when a step has one.
func boundNote(r *Run) []string {
	var cpu, io []int
	for _, i := range stepOrder(r.Steps) {
		st := &r.Steps[i]
		if CPUBound(st) {
			cpu = append(cpu, st.Users)
		}
		if IOBound(st, r.System) {
			io = append(io, st.Users)
		}
	}
	var notes []string
	if len(cpu) > 0 {
		notes = append(notes, fmt.Sprintf("C: cpu-bound (%s): the database host's CPUs were idle under %.0f %% with iowait under %.0f %%; faster storage cannot raise these steps' tps.",
			atUsers(cpu), CPUBoundIdlePct, CPUBoundIOWaitPct))
	}
	if len(io) > 0 {
		notes = append(notes, fmt.Sprintf("I: io-bound (%s): iowait of %.0f %% or more with the busiest disk busy %.0f %% of the window or more, or a disk at %.0f %% or more of an I/O limit the server's cgroup puts on it.",
			atUsers(io), IOBoundIOWaitPct, IOBoundUtilPct, IOBoundThrottlePct))
	}
	return notes
}
