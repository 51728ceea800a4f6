package results

import (
	"fmt"
	"slices"
	"strings"
)

// What disturbed a step's window: work that is not the workload's and lands in one
// window and not in another, so two repeats of one system differ by it (docs/host.md,
// "Disturbed windows"). A repeat's verdict compares undisturbed windows.

// Background is the database server's own work in a window: checkpoints completed and
// the buffers they wrote, and the seconds in which an autovacuum worker ran.
type Background struct {
	Checkpoints       int64   `json:"checkpoints"`
	CheckpointBuffers int64   `json:"checkpoint_buffers"`
	AutovacuumS       float64 `json:"autovacuum_s"`
}

// FlagDisturbed marks a step whose window something other than the workload
// disturbed; Disturbances names what.
const FlagDisturbed = "disturbed"

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
func Disturbances(st *Step) []string {
	var out []string
	for _, d := range disturbancesOf(st) {
		out = append(out, d.text)
	}
	return out
}

// disturbance is one cause: its kind (to tell whether every repeat shares it) and
// its words.
type disturbance struct{ kind, text string }

func disturbancesOf(st *Step) []disturbance {
	var out []disturbance
	if bg := st.Background; bg != nil {
		if bg.Checkpoints > 0 {
			out = append(out, disturbance{"checkpoint", fmt.Sprintf("checkpoint (%d buffers written)", bg.CheckpointBuffers)})
		}
		if bg.AutovacuumS > 0 && bg.AutovacuumS >= DisturbedAutovacuumShare*st.MeasuredS {
			out = append(out, disturbance{"autovacuum", fmt.Sprintf("autovacuum %.0f s", max(bg.AutovacuumS, 1))})
		}
	}
	if h := st.Host; hostKnown(h) && h.StealPct >= DisturbedStealPct {
		out = append(out, disturbance{"steal", fmt.Sprintf("CPU steal %.0f %%", h.StealPct)})
	}
	if CacheWarming(st) {
		out = append(out, disturbance{"warming", "cache warming"})
	}
	return out
}

// Disturbed tells whether anything disturbed the step's window.
func Disturbed(st *Step) bool { return len(Disturbances(st)) > 0 }

// DisturbedAt names each disturbed step of r and what disturbed it, in user order:
// "8 users (checkpoint (1204 buffers written))". None: nil.
func DisturbedAt(r *Run) []string {
	var parts []string
	for _, i := range stepOrder(r.Steps) {
		if d := Disturbances(&r.Steps[i]); len(d) > 0 {
			parts = append(parts, fmt.Sprintf("%d users (%s)", r.Steps[i].Users, strings.Join(d, ", ")))
		}
	}
	return parts
}

// disturbedNote explains the X flag under the step table when a step has it.
func disturbedNote(r *Run) string {
	parts := DisturbedAt(r)
	if len(parts) == 0 {
		return ""
	}
	return "X: disturbed at " + strings.Join(parts, "; ") + ": work other than the workload's fell in the window, " +
		"so a repeat without it differs by that work; compare judges repeats on undisturbed windows."
}

// unevenKinds are the kinds of disturbance that some repeats of two sides at one step
// had and others did not: a cause in every window of both sides (a checkpoint in each
// of a long step's windows) disturbs them alike and is part of what they measure.
func unevenKinds(ra, rb []stepView) map[string]bool {
	count := map[string]int{}
	for _, v := range append(slices.Clone(ra), rb...) {
		for _, d := range disturbancesOf(v.st) {
			count[d.kind]++
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

// unevenDisturbances says which repeats of two sides at one step were disturbed by an
// uneven kind (unevenKinds), as "A 1 of 3, B 0 of 3: checkpoint"; "" when none was.
func unevenDisturbances(ra, rb []stepView) string {
	uneven := unevenKinds(ra, rb)
	var kinds []string
	side := func(reps []stepView) int {
		n := 0
		for _, v := range reps {
			hit := false
			for _, d := range disturbancesOf(v.st) {
				if uneven[d.kind] {
					hit = true
					if !slices.Contains(kinds, d.kind) {
						kinds = append(kinds, d.kind)
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
