package figures

import (
	"testing"

	"github.com/brokerbench/brokerbench/results"
)

// TestServerFaultNotBound: a step whose server stalled, went down or was lost is not
// cpu-bound or io-bound, whatever the host did meanwhile: it measured the fault.
func TestServerFaultNotBound(t *testing.T) {
	busy := func(f *results.Faults) *results.Step {
		return &results.Step{Host: &results.StepHost{Source: "procfs", HostFigures: results.HostFigures{Cores: 2, IdlePct: 1, IOWaitPct: 1}}, Faults: f}
	}
	if !CPUBound(busy(nil)) {
		t.Fatal("the busy host's step without faults is not cpu-bound: the test's figures are wrong")
	}
	for _, f := range []*results.Faults{{ServerStalls: 1, ServerStallS: 40}, {ServerOutages: 1, ServerDownS: 5}, {ServerLost: true}} {
		if st := busy(f); CPUBound(st) || IOBound(st, nil) {
			t.Errorf("a step with faults %+v is flagged bound", f)
		}
	}
}
