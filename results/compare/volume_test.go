package compare

import (
	"fmt"
	"testing"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// TestIOVolumeIsBetterOnlyWithMoreWork: an IOPS rise that comes with a tps fall (a
// memory cap forcing reads) is "higher", not "better"; with a tps rise it is
// "better"; a fall beside a tps fall is "worse", beside the same tps "lower".
func TestIOVolumeIsBetterOnlyWithMoreWork(t *testing.T) {
	side := func(name string, tps, iops []float64) results.Input {
		var all []results.Input
		for k := range tps {
			st := results.Step{Users: 8, TPS: tps[k], MeasuredS: 60,
				IO: &results.StepIO{Source: "diskstats", IOFigures: results.IOFigures{ReadIOPS: iops[k]}}}
			all = append(all, results.Input{Path: fmt.Sprintf("%s-r%d.json", name, k+1), Run: &results.Run{Label: name, Steps: []results.Step{st}}})
		}
		return results.Input{Path: all[0].Path, Run: all[0].Run, Repeats: all[1:]}
	}
	base := side("A", []float64{500, 505, 498}, []float64{1000, 1010, 995})
	for _, c := range []struct {
		name      string
		tps, iops []float64
		want      ChangeVerdict
	}{
		{"more I/O, less work", []float64{300, 305, 298}, []float64{3000, 3020, 2990}, VerdictHigher},
		{"more I/O, more work", []float64{700, 705, 698}, []float64{1400, 1410, 1395}, VerdictBetter},
		{"more I/O, same work", []float64{501, 503, 499}, []float64{1400, 1410, 1395}, VerdictHigher},
		{"less I/O, less work", []float64{300, 305, 298}, []float64{600, 610, 595}, VerdictWorse},
		{"less I/O, same work", []float64{501, 503, 499}, []float64{600, 610, 595}, VerdictLower},
	} {
		cmp, err := Compare([]results.Input{base, side("B", c.tps, c.iops)})
		if err != nil {
			t.Fatal(err)
		}
		m, _ := figures.LookupStepMetric("read_iops")
		if e, ok := cmp.Estimate(0, 1, m); !ok || e.Verdict != c.want {
			t.Errorf("%s: read IOPS verdict %q (%s), want %q", c.name, e.Verdict, e.Reason, c.want)
		}
	}
}
