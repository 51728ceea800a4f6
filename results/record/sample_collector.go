package record

import (
	"sync"

	"github.com/brokerbench/brokerbench/results"
)

// SampleCollector gathers one step's samples from the driver's once-a-second
// ticks: Interval for each transaction type of the tick, then Second to close it.
// One goroutine (the driver's ticker) calls it.
type SampleCollector struct {
	mu      sync.Mutex // Take is called by the goroutine that ends steps
	pending map[string]string
	step    int
	samples results.StepSamples
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
	s, err := results.EncodeHistogram(iv.Response)
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
		c.samples, c.err, c.step = results.StepSamples{}, nil, step
	}
	if !measuring {
		return
	}
	n := len(c.samples.TPS)
	c.samples.TPS = append(c.samples.TPS, results.Round(tps, 3))
	c.samples.TPSE = append(c.samples.TPSE, results.Round(tpsE, 3))
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
func (c *SampleCollector) Take() *results.StepSamples {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, err := c.samples, c.err
	c.samples, c.err = results.StepSamples{}, nil
	clear(c.pending)
	if err != nil || len(s.TPS) == 0 {
		return nil
	}
	return &s
}
