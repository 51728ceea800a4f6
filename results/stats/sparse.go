package stats

import (
	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// ValueCount is one histogram bucket: its value (µs, the bucket's highest
// equivalent value, as ValueAtQuantile reports it), its midpoint for the mean,
// and how many values fell in it.
type ValueCount struct {
	Value, Mid int64
	Count      int64
}

// Sparse lists a histogram's non-empty buckets in value order. It walks the
// counts array once (the histogram's own iterator recomputes each bucket's value
// from scratch, and a compare decodes thousands of per-second histograms).
func Sparse(h *hdrhistogram.Histogram) []ValueCount {
	snap := h.Export()
	var out []ValueCount
	for idx, n := range snap.Counts {
		if n == 0 {
			continue
		}
		lo, hi := bucketRange(idx)
		out = append(out, ValueCount{Value: hi, Mid: (lo + hi) / 2, Count: n})
	}
	return out
}

// bucketRange is the value range (µs, inclusive) of counts index idx in this
// package's geometry: lowest value 1, three significant digits, so 2048 sub-buckets
// of which the upper 1024 repeat in every further bucket at twice the width.
func bucketRange(idx int) (lo, hi int64) {
	const half = 1 << subBucketHalfMagnitude
	if idx < 2*half {
		return int64(idx), int64(idx)
	}
	bucket := idx>>subBucketHalfMagnitude - 1
	sub := int64(idx&(half-1) + half)
	lo = sub << bucket
	return lo, lo + 1<<bucket - 1
}

// subBucketHalfMagnitude is log2 of half the sub-buckets of a histogram of
// HistSigFigs significant digits (2048 sub-buckets for three).
const subBucketHalfMagnitude = 10
