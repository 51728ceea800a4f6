package study

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/results"
)

func orderOf(s *study) []string {
	var out []string
	for _, sl := range s.schedule() {
		out = append(out, fmt.Sprintf("%s/%s/r%d", sl.system.Name, sl.workload.Name, sl.repeat))
	}
	return out
}

func testPlan(order string, seed uint64, repeats int) *study {
	p := &Plan{Name: "t", Baseline: "a", Order: order, Seed: seed, Repeats: Repeats{Count: repeats},
		Systems:   []System{{Name: "a"}, {Name: "b"}, {Name: "c"}},
		Workloads: []Planned{{Workload: Workload{Name: "oltp", Kind: results.WorkloadRun}}, {Workload: Workload{Name: "disk", Kind: results.WorkloadDisk}}}}
	return &study{p: p, rec: &results.Study{}}
}

// TestScheduleInterleaves: repeat by repeat, each system's workloads together, the
// systems in the file's order: a b c | a b c, so drift falls on every system alike.
func TestScheduleInterleaves(t *testing.T) {
	got := orderOf(testPlan("interleaved", 0, 2))
	want := []string{"a/oltp/r1", "a/disk/r1", "b/oltp/r1", "b/disk/r1", "c/oltp/r1", "c/disk/r1",
		"a/oltp/r2", "a/disk/r2", "b/oltp/r2", "b/disk/r2", "c/oltp/r2", "c/disk/r2"}
	if !slices.Equal(got, want) {
		t.Errorf("schedule %v, want %v", got, want)
	}
}

// TestScheduleRandomFromSeed: a random order is the same for the same seed (a
// resumed study keeps its order), shuffles the systems within each repeat only,
// and differs between seeds.
func TestScheduleRandomFromSeed(t *testing.T) {
	a, b := orderOf(testPlan("random", 7, 6)), orderOf(testPlan("random", 7, 6))
	if !slices.Equal(a, b) {
		t.Fatalf("seed 7 gave two orders:\n%v\n%v", a, b)
	}
	differs := false
	for seed := uint64(8); seed < 20 && !differs; seed++ {
		differs = !slices.Equal(a, orderOf(testPlan("random", seed, 6)))
	}
	if !differs {
		t.Error("twelve seeds gave one order")
	}
	for i, s := range a {
		if want := fmt.Sprintf("/r%d", i/6+1); !strings.HasSuffix(s, want) {
			t.Errorf("run %d is %s: a repeat's runs must stay together (%s)", i, s, want)
		}
	}
}

// TestScheduleBaselineFirstForCapture: when a replay replays the study's own
// capture, the baseline runs first in the first repeat whatever the order.
func TestScheduleBaselineFirstForCapture(t *testing.T) {
	for seed := uint64(1); seed < 30; seed++ {
		s := testPlan("random", seed, 2)
		s.p.Baseline = "c"
		s.p.Workloads[1] = Planned{Workload: Workload{Name: "replay", Kind: results.WorkloadReplay}, captureFrom: "oltp"}
		if got := orderOf(s); !strings.HasPrefix(got[0], "c/oltp/r1") {
			t.Fatalf("seed %d: the first run is %s, want the baseline's", seed, got[0])
		}
	}
}
