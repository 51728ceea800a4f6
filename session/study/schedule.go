package study

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/session"
)

// schedule is every run of the plan in the order it runs: repeat by repeat, each
// system's workloads before the next system's (interleaved: A B A B, so drift over
// the hours falls on every system alike, not on whichever ran last), or each
// repeat's systems shuffled from the seed (random). With a repeats target the
// schedule runs to the budget (Max); the study stops early once the target is met.
func (s *study) schedule() []slot {
	var out []slot
	for r := 1; r <= s.p.Repeats.Count; r++ {
		order := make([]System, len(s.p.Systems))
		copy(order, s.p.Systems)
		if s.p.Order == "random" {
			rng := rand.New(rand.NewPCG(s.p.Seed, uint64(r)))
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		if r == 1 && s.p.capturesFirst() {
			// The replays replay the baseline's first capture: it must exist first.
			i := slices.IndexFunc(order, func(x System) bool { return x.Name == s.p.Baseline })
			order = append(append([]System{order[i]}, order[:i]...), order[i+1:]...)
		}
		for _, sys := range order {
			for i := range s.p.Workloads {
				out = append(out, slot{repeat: r, system: sys, workload: &s.p.Workloads[i]})
			}
		}
	}
	return out
}

// roundDone tells whether sched[i] is the last run of its repeat.
func (s *study) roundDone(sched []slot, i int) bool {
	return i == len(sched)-1 || sched[i+1].repeat != sched[i].repeat
}

// printPlan prints the plan, its order and its estimated time before anything runs.
func (s *study) printPlan(sched []slot) {
	p, con := s.p, s.g.Console
	fmt.Fprintf(con.Stdout, "study %s: %d systems × %d workloads × %s, into %s\n", p.Name, len(p.Systems), len(p.Workloads), s.repeatsText(), p.Dir)
	for _, sys := range p.Systems {
		mark := ""
		if sys.Name == p.Baseline {
			mark = " (baseline)"
		}
		fmt.Fprintf(con.Stdout, "  system %s%s: %s\n", sys.Name, mark, strings.Join(where(sys, p.hasRuns()), ", "))
	}
	for _, w := range p.Workloads {
		fmt.Fprintf(con.Stdout, "  workload %s (%s): %s, about %s a run\n", w.Name, w.Kind, w.Summary, session.ShortDuration(w.Estimate.Round(time.Second)))
	}
	var total time.Duration
	left, done := 0, 0
	for _, sl := range sched {
		if s.done(sl) {
			done++
			continue
		}
		total += sl.workload.Estimate
		left++
	}
	order := p.Order
	if p.Order == "random" {
		order = fmt.Sprintf("random (seed %d)", p.Seed)
	}
	fmt.Fprintf(con.Stdout, "  order %s: %s\n", order, orderText(sched))
	if done > 0 {
		fmt.Fprintf(con.Stdout, "  resuming: %d runs done are kept, %d to run\n", done, left)
	}
	budget := ""
	if p.Repeats.Target > 0 {
		budget = " at most (the budget); less once the target is met"
	}
	loading := ""
	if p.load != nil {
		loading = ", besides loading each system's database"
	}
	fmt.Fprintf(con.Stdout, "  %d runs, about %s%s%s\n", left, session.ShortDuration(total.Round(time.Second)), budget, loading)
	if s.rec.EstimatedS == 0 {
		// The whole plan's estimate, not a resumed session's rest of it.
		s.rec.EstimatedS = total.Seconds()
	}
}

func (s *study) repeatsText() string {
	r := s.p.Repeats
	if r.Target > 0 {
		return fmt.Sprintf("repeats until the detectable difference of %s is under %g %% (%d to %d)", strings.Join(r.Figures, ", "), r.Target, r.Min, r.Max)
	}
	if r.Count == 1 {
		return "1 repeat (no verdict: a verdict needs 3)"
	}
	return fmt.Sprintf("%d repeats", r.Count)
}

// progress prints where the study stands before run i: a bar over the whole study,
// the run about to start, the time spent and the estimate of the rest, scaled by
// how the runs so far kept to theirs.
func (s *study) progress(i int, sched []slot) {
	sl := sched[i]
	var left time.Duration
	for _, o := range sched[i:] {
		if !s.done(o) && o.repeat <= s.repeatsNeeded() {
			left += o.workload.Estimate
		}
	}
	if s.planned > 0 {
		left = time.Duration(float64(left) * float64(s.spent) / float64(s.planned))
	}
	const width = 24
	filled := width * i / len(sched)
	bar := strings.Repeat("#", filled) + strings.Repeat("-", width-filled)
	s.g.Logf("study [%s] %d/%d: %s on %s, repeat %d · %s in, about %s left",
		bar, i+1, len(sched), sl.workload.Name, sl.system.Name, sl.repeat,
		session.ShortDuration(time.Since(s.started).Round(time.Second)), session.ShortDuration(left.Round(time.Second)))
}

// orderText is the schedule's first repeats by system: "h800 h810 | h800 h810 | ...".
func orderText(sched []slot) string {
	var rounds []string
	var cur []string
	for i, sl := range sched {
		if len(cur) == 0 || cur[len(cur)-1] != sl.system.Name {
			cur = append(cur, sl.system.Name)
		}
		if i == len(sched)-1 || sched[i+1].repeat != sl.repeat {
			rounds = append(rounds, strings.Join(cur, " "))
			cur = nil
			if len(rounds) == 3 && i < len(sched)-1 {
				rounds = append(rounds, "...")
				break
			}
		}
	}
	return strings.Join(rounds, " | ")
}
