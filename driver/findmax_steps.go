package driver

import (
	"context"
	"errors"

	"github.com/brokerbench/brokerbench/results"
)

// SearchSteps runs a FindMax search as the steps of one driver run: each probe is
// a step with a rate of its own (Level.OwnRate), so the emulator's pending orders,
// the database's caches and the users' connections carry over from probe to probe,
// Trade-Cleanup runs once before the first, and a probe measures the steady state
// rather than a database just cleaned and an emulator just started.
//
// The search runs on a goroutine of its own and asks for one probe at a time; Next
// hands each request to the driver as the next step and gives the search the step
// it measured. Judge turns a step into the search's verdict; it runs after the
// driver's OnStep has seen the step.
type SearchSteps struct {
	// Started, when set, is called as each probe's step starts (for the live
	// output); set it before the run.
	Started func(ProbeRequest)

	cfg   SearchConfig
	level Level
	judge func(req ProbeRequest, st *results.Step) ProbeOutcome

	reqs    chan ProbeRequest
	steps   chan *results.Step
	quit    chan struct{} // closed by Finish: the driver runs no more steps
	done    chan struct{} // closed when the search has ended
	started bool
	res     SearchResult
	err     error
}

var _ StepSource = (*SearchSteps)(nil)

// errNoStep: the driver ended without measuring the probe asked for (an interrupt,
// a failing database); the driver's own error says why.
var errNoStep = errors.New("the probe ended without a measured step")

// NewSearchSteps returns the steps of a search with cfg, every probe held at
// level's users, step and warm-up. ctx ends the search (an interrupt).
func NewSearchSteps(ctx context.Context, cfg SearchConfig, level Level, judge func(ProbeRequest, *results.Step) ProbeOutcome) (*SearchSteps, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &SearchSteps{cfg: cfg, level: level, judge: judge,
		reqs: make(chan ProbeRequest), steps: make(chan *results.Step), quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		s.res, s.err = FindMax(ctx, cfg, ProberFunc(s.probe))
	}()
	return s, nil
}

// probe is the search's side: ask for a step at req's load and wait for it.
func (s *SearchSteps) probe(ctx context.Context, req ProbeRequest) (ProbeOutcome, error) {
	ended := func() (ProbeOutcome, error) {
		if ctx.Err() != nil {
			return ProbeOutcome{}, ctx.Err()
		}
		return ProbeOutcome{}, errNoStep
	}
	select {
	case s.reqs <- req:
	case <-s.quit:
		return ended()
	}
	select {
	case st := <-s.steps:
		if st == nil || st.Partial {
			return ended()
		}
		return s.judge(req, st), nil
	case <-s.quit:
		return ended()
	}
}

// Next gives the search the step just measured and returns the probe it asks for
// next, or false when the search has ended.
func (s *SearchSteps) Next(last *results.Step) (Level, bool) {
	if s.started {
		s.steps <- last
	}
	select {
	case req := <-s.reqs:
		s.started = true
		if s.Started != nil {
			s.Started(req)
		}
		lv := s.level
		lv.OwnRate, lv.Rate = true, req.Load
		lv.Probe = &results.Probe{N: req.N, Why: req.Why}
		return lv, true
	case <-s.done:
		return Level{}, false
	}
}

// Steps is the probe budget, the most steps the run will have.
func (s *SearchSteps) Steps() int { return s.cfg.MaxProbes }

// Finish ends the search once the driver's run has returned (the search waits for
// a step the driver will no longer run when the run was cut short) and returns
// where it ended.
func (s *SearchSteps) Finish() (SearchResult, error) {
	close(s.quit)
	<-s.done
	return s.res, s.err
}
