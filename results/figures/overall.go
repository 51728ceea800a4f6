package figures

import (
	"cmp"
	"slices"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/brokerbench/brokerbench/results"
)

// Overall is a step's response time across all its transaction types.
type Overall struct {
	Count int64
	AvgMS float64
	// Percentiles are known only when every transaction with a count carries its
	// histogram: percentiles of a mix cannot be derived from per-type percentiles.
	HasPercentiles bool
	P50MS, P90MS   float64
	P95MS, P99MS   float64
	MaxMS          float64
	Errors         int64
	Retries        int64
	Rollbacks      int64
}

// StepOverall computes the step's overall response figures by merging the
// transactions' response histograms. Without histograms, the average falls back to
// the count-weighted mean of the per-type averages (exact for a mean) and the
// percentiles are marked unknown.
func StepOverall(st *results.Step) Overall {
	var o Overall
	var hists []*hdrhistogram.Histogram
	complete := true
	var weighted float64
	for _, name := range SortedTxnNames(st.Transactions) {
		t := st.Transactions[name]
		o.Count += t.Count
		o.Errors += t.Errors
		o.Retries += t.Retries
		o.Rollbacks += t.Rollbacks
		weighted += float64(t.Count) * t.AvgMS
		if t.MaxMS > o.MaxMS {
			o.MaxMS = t.MaxMS
		}
		if t.Count == 0 {
			continue
		}
		h, err := results.DecodeHistogram(t.Response)
		if err != nil {
			complete = false
			continue
		}
		hists = append(hists, h)
	}
	if o.Count > 0 {
		o.AvgMS = weighted / float64(o.Count)
	}
	if !complete || len(hists) == 0 {
		return o
	}
	m, _ := results.MergeHistograms(hists...)
	if m.TotalCount() == 0 {
		return o
	}
	o.HasPercentiles = true
	o.AvgMS = m.Mean() / 1000
	o.P50MS = results.MicrosToMS(m.ValueAtQuantile(50))
	o.P90MS = results.MicrosToMS(m.ValueAtQuantile(90))
	o.P95MS = results.MicrosToMS(m.ValueAtQuantile(95))
	o.P99MS = results.MicrosToMS(m.ValueAtQuantile(99))
	o.MaxMS = results.MicrosToMS(m.Max())
	return o
}

func SortedTxnNames(m map[string]results.TxnStats) []string { return SortedKeys(m) }

func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// KneeRise is the relative tps gain below which a step no longer counts as rising.
const KneeRise = 0.05

// Knee returns the index of the step after which tps stops rising by more than
// KneeRise: the first step i whose successor's tps is at most (1+KneeRise)×tps(i),
// with steps taken in increasing user order. It returns -1 when tps keeps rising
// (or there are fewer than two steps): the ramp did not reach the knee.
func Knee(steps []results.Step) int {
	order := StepOrder(steps)
	for k := 0; k+1 < len(order); k++ {
		cur, next := steps[order[k]], steps[order[k+1]]
		if next.TPS <= cur.TPS*(1+KneeRise) {
			return order[k]
		}
	}
	return -1
}

// StepOrder returns step indices sorted by user count, then by paced rate (the
// probes of a --find-max run share one user count), stable otherwise.
func StepOrder(steps []results.Step) []int {
	idx := make([]int, len(steps))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if d := steps[a].Users - steps[b].Users; d != 0 {
			return d
		}
		return cmp.Compare(steps[a].Rate, steps[b].Rate)
	})
	return idx
}
