package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

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
			sa, sb := sideBottleneckOf(base, c.Reps[i][0]), sideBottleneckOf(in, c.Reps[i][r])
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
func mixedSides(a results.Input, sa sideBottleneck, b results.Input, sb sideBottleneck) string {
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
func sideBottleneckOf(in results.Input, reps []figures.StepView) sideBottleneck {
	s := sideBottleneck{counts: map[string]int{}}
	for _, v := range reps {
		if !figures.HostKnown(v.Step.Host) {
			continue
		}
		if b := figures.BottleneckOf(v.Step, systemOf(in, v.Step)); b != "" {
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
func systemOf(in results.Input, st *results.Step) *results.System {
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
	if b == figures.BottleneckNone {
		return "no cpu or io bottleneck"
	}
	return "bottleneck " + b
}

// BoundNote explains the C and I flags under the step table when a step has one.
func BoundNote(r *results.Run) []string {
	var cpu, io []int
	for _, i := range figures.StepOrder(r.Steps) {
		st := &r.Steps[i]
		if figures.CPUBound(st) {
			cpu = append(cpu, st.Users)
		}
		if figures.IOBound(st, r.System) {
			io = append(io, st.Users)
		}
	}
	var notes []string
	if len(cpu) > 0 {
		notes = append(notes, fmt.Sprintf("C: cpu-bound (%s): the database host's CPUs were idle under %.0f %% with iowait under %.0f %%; faster storage cannot raise these steps' tps.",
			figures.AtUsers(cpu), figures.CPUBoundIdlePct, figures.CPUBoundIOWaitPct))
	}
	if len(io) > 0 {
		notes = append(notes, fmt.Sprintf("I: io-bound (%s): iowait of %.0f %% or more with the busiest disk busy %.0f %% of the window or more, or a disk at %.0f %% or more of an I/O limit the server's cgroup puts on it.",
			figures.AtUsers(io), figures.IOBoundIOWaitPct, figures.IOBoundUtilPct, figures.IOBoundThrottlePct))
	}
	return notes
}
