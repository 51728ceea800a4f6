package figures

import (
	"math"
	"testing"

	"github.com/brokerbench/brokerbench/results"
)

func TestStepOverallMergesHistograms(t *testing.T) {
	fast, slow := results.NewHistogram(), results.NewHistogram()
	for i := 0; i < 900; i++ {
		_ = fast.RecordValue(1000)
	}
	for i := 0; i < 100; i++ {
		_ = slow.RecordValue(200_000)
	}
	st := results.Step{Transactions: map[string]results.TxnStats{
		"Fast": results.Summarize(fast, nil, 1, 0, 0),
		"Slow": results.Summarize(slow, nil, 0, 2, 3),
	}}
	o := StepOverall(&st)
	if !o.HasPercentiles || o.Count != 1000 || o.Errors != 1 || o.Retries != 2 || o.Rollbacks != 3 {
		t.Fatalf("%+v", o)
	}
	// Averaging the two p95s would give ~100 ms; the merged p95 is in the slow tail,
	// and the merged p50 is the fast one.
	if math.Abs(o.P95MS-200) > 0.5 || math.Abs(o.P50MS-1) > 0.01 {
		t.Fatalf("p95 %v p50 %v", o.P95MS, o.P50MS)
	}
	if math.Abs(o.AvgMS-20.9) > 0.05 {
		t.Fatalf("avg %v", o.AvgMS)
	}

	// Without histograms: count-weighted average, no percentiles.
	for n, ts := range st.Transactions {
		ts.Response = ""
		st.Transactions[n] = ts
	}
	o = StepOverall(&st)
	if o.HasPercentiles || math.Abs(o.AvgMS-20.9) > 0.05 {
		t.Fatalf("fallback %+v", o)
	}
}

func TestKnee(t *testing.T) {
	mk := func(tps ...float64) []results.Step {
		var s []results.Step
		for i, v := range tps {
			s = append(s, results.Step{Users: 50 * (i + 1), TPS: v})
		}
		return s
	}
	cases := []struct {
		tps  []float64
		want int
	}{
		{[]float64{10, 20, 30, 40}, -1},
		{[]float64{10, 20, 20.5, 21}, 1},
		{[]float64{10, 10.4}, 0},
		{[]float64{10, 10.6}, -1},
		{[]float64{10, 20, 15}, 1},
		{[]float64{10}, -1},
	}
	for _, c := range cases {
		if got := Knee(mk(c.tps...)); got != c.want {
			t.Errorf("Knee(%v) = %d, want %d", c.tps, got, c.want)
		}
	}
	// Steps out of user order are ordered first.
	s := []results.Step{{Users: 100, TPS: 20}, {Users: 50, TPS: 10}, {Users: 150, TPS: 20.1}}
	if got := Knee(s); got != 0 {
		t.Errorf("unordered knee = %d", got)
	}
}
