package figures

import (
	"fmt"
	"slices"
	"strings"

	"github.com/brokerbench/brokerbench/results"
)

// DisturbedStealPct is the host CPU steal (time the hypervisor gave other guests) at
// which a window counts as disturbed: a repeat at 12 % steal ran at 551 tps against
// 690-771 for five at 0-2 %.
const DisturbedStealPct = 5.0

// DisturbedAutovacuumShare is the share of the window an autovacuum worker must run
// before it counts: the workload's updates wake autovacuum in its steady state too, and
// one worker seen in one sample of a minute's window (5 s) is that; a vacuum through a
// quarter of the window or more is work one repeat had and another need not.
const DisturbedAutovacuumShare = 0.25

// Disturbances names what disturbed the step's window, in a fixed order: a checkpoint
// completed in it, autovacuum running, the host's CPU stolen, the cache still warming.
// None: nil.
func Disturbances(st *results.Step) []string {
	var out []string
	for _, d := range DisturbancesOf(st) {
		out = append(out, d.text)
	}
	return out
}

// Disturbance is one cause: its kind (to tell whether every repeat shares it) and
// its words.
type Disturbance struct{ Kind, text string }

func DisturbancesOf(st *results.Step) []Disturbance {
	var out []Disturbance
	if bg := st.Background; bg != nil {
		if bg.Checkpoints > 0 {
			out = append(out, Disturbance{"checkpoint", fmt.Sprintf("checkpoint (%d buffers written)", bg.CheckpointBuffers)})
		}
		if bg.AutovacuumS > 0 && bg.AutovacuumS >= DisturbedAutovacuumShare*st.MeasuredS {
			out = append(out, Disturbance{"autovacuum", fmt.Sprintf("autovacuum %.0f s", max(bg.AutovacuumS, 1))})
		}
	}
	if h := st.Host; HostKnown(h) && h.StealPct >= DisturbedStealPct {
		out = append(out, Disturbance{"steal", fmt.Sprintf("CPU steal %.0f %%", h.StealPct)})
	}
	if CacheWarming(st) {
		out = append(out, Disturbance{"warming", "cache warming"})
	}
	return out
}

// Disturbed tells whether anything disturbed the step's window.
func Disturbed(st *results.Step) bool { return len(Disturbances(st)) > 0 }

// DisturbedAt names each disturbed step of r and what disturbed it, in user order:
// "8 users (checkpoint (1204 buffers written))". None: nil.
func DisturbedAt(r *results.Run) []string {
	var parts []string
	for _, i := range StepOrder(r.Steps) {
		if d := Disturbances(&r.Steps[i]); len(d) > 0 {
			parts = append(parts, fmt.Sprintf("%d users (%s)", r.Steps[i].Users, strings.Join(d, ", ")))
		}
	}
	return parts
}

// DisturbedNote explains the X flag under the step table when a step has it.
func DisturbedNote(r *results.Run) string {
	parts := DisturbedAt(r)
	if len(parts) == 0 {
		return ""
	}
	return "X: disturbed at " + strings.Join(parts, "; ") + ": work other than the workload's fell in the window, " +
		"so a repeat without it differs by that work; compare judges repeats on undisturbed windows."
}

// UnevenKinds are the kinds of disturbance that some repeats of two sides at one step
// had and others did not: a cause in every window of both sides (a checkpoint in each
// of a long step's windows) disturbs them alike and is part of what they measure.
func UnevenKinds(ra, rb []StepView) map[string]bool {
	count := map[string]int{}
	for _, v := range append(slices.Clone(ra), rb...) {
		for _, d := range DisturbancesOf(v.Step) {
			count[d.Kind]++
		}
	}
	out := map[string]bool{}
	for k, n := range count {
		if n < len(ra)+len(rb) {
			out[k] = true
		}
	}
	return out
}

// UnevenDisturbances says which repeats of two sides at one step were disturbed by an
// uneven kind (unevenKinds), as "A 1 of 3, B 0 of 3: checkpoint"; "" when none was.
func UnevenDisturbances(ra, rb []StepView) string {
	uneven := UnevenKinds(ra, rb)
	var kinds []string
	side := func(reps []StepView) int {
		n := 0
		for _, v := range reps {
			hit := false
			for _, d := range DisturbancesOf(v.Step) {
				if uneven[d.Kind] {
					hit = true
					if !slices.Contains(kinds, d.Kind) {
						kinds = append(kinds, d.Kind)
					}
				}
			}
			if hit {
				n++
			}
		}
		return n
	}
	na, nb := side(ra), side(rb)
	if na+nb == 0 {
		return ""
	}
	return fmt.Sprintf("A %d of %d, B %d of %d: %s", na, len(ra), nb, len(rb), strings.Join(kinds, ", "))
}
