package figures

import (
	"slices"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/results"
)

// TestDisturbances: each cause names itself, in order, and sets the flag; a quiet
// window has none, and steal under the line is no disturbance.
func TestDisturbances(t *testing.T) {
	host := func(steal float64) *results.StepHost {
		return &results.StepHost{Source: results.HostSourceProcfs, HostFigures: results.HostFigures{Cores: 2, UserPct: 50, StealPct: steal, IdlePct: 40}}
	}
	quiet := results.Step{Users: 8, Background: &results.Background{}, Host: host(1)}
	if d := Disturbances(&quiet); d != nil {
		t.Errorf("quiet window disturbed by %q", d)
	}
	if d := Disturbances(&results.Step{MeasuredS: 60, Background: &results.Background{AutovacuumS: 5}}); d != nil {
		t.Errorf("one autovacuum sample in a minute: disturbed by %q", d)
	}
	loud := results.Step{Users: 8, MeasuredS: 30, Background: &results.Background{Checkpoints: 1, CheckpointBuffers: 5120, AutovacuumS: 9.2}, Host: host(12)}
	want := []string{"checkpoint (5120 buffers written)", "autovacuum 9 s", "CPU steal 12 %"}
	if d := Disturbances(&loud); !slices.Equal(d, want) {
		t.Errorf("disturbances %q, want %q", d, want)
	}
	r := &results.Run{Steps: []results.Step{quiet, loud}}
	SetStepFlags(r)
	if results.HasFlag(&r.Steps[0], results.FlagDisturbed) || !results.HasFlag(&r.Steps[1], results.FlagDisturbed) {
		t.Errorf("flags %v and %v", r.Steps[0].Flags, r.Steps[1].Flags)
	}
	if n := DisturbedNote(r); !strings.Contains(n, "X: disturbed at 8 users (checkpoint (5120 buffers written), autovacuum 9 s, CPU steal 12 %)") {
		t.Errorf("note %q", n)
	}
}
