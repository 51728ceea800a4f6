package results

import (
	"sync"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// StepSamples are a step's measured window second by second: what compare needs
// to put a 95 % interval on a change (docs/result-format.md, "samples"). The
// step's own figures are over the whole window; these say how much they moved
// inside it. Per-second figures are autocorrelated (a checkpoint slows several
// seconds in a row), so compare never treats them as independent draws: it groups
// them into batches (estimate.go).
type StepSamples struct {
	// TPS and TPSE are all transactions and Trade-Results finished in each second
	// of the window, per second, in time order.
	TPS  []float64 `json:"tps"`
	TPSE []float64 `json:"tps_e"`
	// Response holds, per transaction name, one HdrHistogram per second (the
	// encoding of response_hist; "" for a second in which none finished), aligned
	// with TPS.
	Response map[string][]string `json:"response_hist,omitempty"`
}

// SampleCollector gathers one step's samples from the driver's once-a-second
// ticks: Interval for each transaction type of the tick, then Second to close it.
// One goroutine (the driver's ticker) calls it.
type SampleCollector struct {
	mu      sync.Mutex // Take is called by the goroutine that ends steps
	pending map[string]string
	step    int
	samples StepSamples
	err     error
}

// NewSampleCollector returns an empty collector.
func NewSampleCollector() *SampleCollector { return &SampleCollector{pending: map[string]string{}} }

// Interval takes one transaction type's figures of the current tick; its
// histograms are encoded at once, since the recorder reuses them.
func (c *SampleCollector) Interval(iv Interval) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if iv.Response == nil || iv.Response.TotalCount() == 0 {
		return
	}
	s, err := EncodeHistogram(iv.Response)
	if err != nil {
		c.err = err
		return
	}
	c.pending[iv.Name] = s
}

// Second closes the tick of step (the driver's step number): measuring says it
// belonged to the window (a warm-up tick is dropped), tps and tpsE are its rates.
// A tick of another step than the samples' starts them afresh, so a late tick of
// a finished step never leaks into the next.
func (c *SampleCollector) Second(step int, measuring bool, tps, tpsE float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer clear(c.pending)
	if step != c.step {
		c.samples, c.err, c.step = StepSamples{}, nil, step
	}
	if !measuring {
		return
	}
	n := len(c.samples.TPS)
	c.samples.TPS = append(c.samples.TPS, round(tps, 3))
	c.samples.TPSE = append(c.samples.TPSE, round(tpsE, 3))
	if c.samples.Response == nil {
		c.samples.Response = map[string][]string{}
	}
	for name := range c.pending {
		if _, ok := c.samples.Response[name]; !ok {
			c.samples.Response[name] = make([]string, n, n+1)
		}
	}
	for name, hs := range c.samples.Response {
		c.samples.Response[name] = append(hs, c.pending[name])
	}
}

// Take returns the samples gathered since the last Take (nil when there are
// none) and starts afresh; an encoding error drops them rather than store a
// series with holes.
func (c *SampleCollector) Take() *StepSamples {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, err := c.samples, c.err
	c.samples, c.err = StepSamples{}, nil
	clear(c.pending)
	if err != nil || len(s.TPS) == 0 {
		return nil
	}
	return &s
}

// responseSeconds decodes one transaction type's per-second histograms into
// sparse (value, count) lists, one per second; nil entries are empty seconds.
func responseSeconds(encoded []string) ([][]valueCount, error) {
	out := make([][]valueCount, len(encoded))
	for i, s := range encoded {
		if s == "" {
			continue
		}
		h, err := DecodeHistogram(s)
		if err != nil {
			return nil, err
		}
		out[i] = sparse(h)
	}
	return out, nil
}

// valueCount is one histogram bucket: its value (µs, the bucket's highest
// equivalent value, as ValueAtQuantile reports it), its midpoint for the mean,
// and how many values fell in it.
type valueCount struct {
	v, mid int64
	n      int64
}

// sparse lists a histogram's non-empty buckets in value order. It walks the
// counts array once (the histogram's own iterator recomputes each bucket's value
// from scratch, and a compare decodes thousands of per-second histograms).
func sparse(h *hdrhistogram.Histogram) []valueCount {
	snap := h.Export()
	var out []valueCount
	for idx, n := range snap.Counts {
		if n == 0 {
			continue
		}
		lo, hi := bucketRange(idx)
		out = append(out, valueCount{v: hi, mid: (lo + hi) / 2, n: n})
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
