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

// Disturbances names what disturbed the step's window, in a fixed order: a checkpoint
// completed in it, autovacuum running, the host's CPU stolen, the cache still warming.
// None: nil.
func Disturbances(st *Step) []string {
	var out []string
	if bg := st.Background; bg != nil {
		if bg.Checkpoints > 0 {
			out = append(out, fmt.Sprintf("checkpoint (%d buffers written)", bg.CheckpointBuffers))
		}
		if bg.AutovacuumS > 0 {
			out = append(out, fmt.Sprintf("autovacuum %.0f s", max(bg.AutovacuumS, 1)))
		}
	}
	if h := st.Host; hostKnown(h) && h.StealPct >= DisturbedStealPct {
		out = append(out, fmt.Sprintf("CPU steal %.0f %%", h.StealPct))
	}
	if CacheWarming(st) {
		out = append(out, "cache warming")
	}
	return out
}

// Disturbed tells whether anything disturbed the step's window.
func Disturbed(st *Step) bool { return len(Disturbances(st)) > 0 }

// disturbedNote explains the X flag under the step table when a step has it.
func disturbedNote(r *Run) string {
	var parts []string
	for _, i := range stepOrder(r.Steps) {
		if d := Disturbances(&r.Steps[i]); len(d) > 0 {
			parts = append(parts, fmt.Sprintf("%d users (%s)", r.Steps[i].Users, strings.Join(d, ", ")))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "X: disturbed at " + strings.Join(parts, "; ") + ": work other than the workload's fell in the window, " +
		"so a repeat without it differs by that work; compare judges repeats on undisturbed windows."
}

// disturbedReps counts a side's disturbed repeats at a step.
func disturbedReps(reps []stepView) int {
	return len(slices.DeleteFunc(slices.Clone(reps), func(v stepView) bool { return !Disturbed(v.st) }))
}
