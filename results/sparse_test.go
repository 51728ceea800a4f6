package results

import (
	"math/rand/v2"
	"testing"

	"github.com/brokerbench/brokerbench/results/stats"
)

// TestSparseMatchesDistribution: the fast walk over the counts gives the buckets
// the histogram's own iterator gives.
func TestSparseMatchesDistribution(t *testing.T) {
	h := NewHistogram()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		_ = h.RecordValue(1 + int64(rng.ExpFloat64()*float64(1+rng.IntN(4)*1000000)))
	}
	_ = h.RecordValue(HistHighestMicros)
	var want []stats.ValueCount
	for _, b := range h.Distribution() {
		if b.Count > 0 {
			want = append(want, stats.ValueCount{Value: b.To, Mid: (b.From + b.To) / 2, Count: b.Count})
		}
	}
	got := stats.Sparse(h)
	if len(got) != len(want) {
		t.Fatalf("%d buckets, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("bucket %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
