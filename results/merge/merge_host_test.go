package merge_test

import (
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/shardfixture"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// TestMergeKeepsOneHostReading: every shard reads the same database host, so the
// merged step takes one shard's host figures (shard 0's, else the first that has
// them) and recomputes cpu-bound from them; each shard's own driver host stays
// with that shard.
func TestMergeKeepsOneHostReading(t *testing.T) {
	fx := shardfixture.RecordedShards(2, []int{2})
	for k := range fx.Shards {
		st := &fx.Shards[k].Run.Steps[0]
		st.Host = &results.StepHost{Source: results.HostSourceNodeExporter, HostFigures: results.HostFigures{Cores: 8, UserPct: 80 + float64(k), SystemPct: 17, IdlePct: 3 - float64(k)}}
		st.DriverHost = &results.StepHost{Source: results.HostSourceProcfs, HostFigures: results.HostFigures{Cores: 4, UserPct: 10 * float64(k+1), IdlePct: 100 - 10*float64(k+1)}}
		st.Flags = append(st.Flags, figures.FlagIOBound) // stale: the merge recomputes it
	}
	fx.Shards[0].Run.Steps[0].Host = &results.StepHost{Source: results.HostSourceNone, Note: "exporter down"}
	m := mustMerge(t, fx.Shards)
	st := &m.Steps[0]
	if st.Host == nil || st.Host.UserPct != 81 || !strings.Contains(st.Host.Note, "shard 1") || st.DriverHost != nil {
		t.Fatalf("host %+v, driver host %+v: want shard 1's host and no single driver host", st.Host, st.DriverHost)
	}
	if !results.HasFlag(st, figures.FlagCPUBound) || results.HasFlag(st, figures.FlagIOBound) {
		t.Errorf("flags %v, want cpu-bound only", st.Flags)
	}
	for k, sh := range m.Shards {
		if len(sh.DriverHost) != 1 || sh.DriverHost[0].UserPct != 10*float64(k+1) {
			t.Errorf("shard %d driver hosts %+v", k, sh.DriverHost)
		}
	}
	if fx.Shards[1].Run.Steps[0].Host.Note != "" {
		t.Error("the merge changed the shard's own figures")
	}
}
