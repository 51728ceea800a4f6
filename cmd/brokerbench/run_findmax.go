package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/results"
)

// stepRunner runs one plan at one paced rate with the run's own wiring (every
// finished step stored in the result file and printed); hook may adjust the
// driver's configuration first. It is how --find-max runs a probe.
type stepRunner func(ctx context.Context, plan driver.Plan, rate float64, hook func(*driver.Config)) error

// findMaxSearch is one --find-max search over a run.
type findMaxSearch struct {
	cfg  driver.SearchConfig
	plan driver.Plan // one user level, with the run's --step and --warmup
	lims results.Limits
	lw   *liveWriter
	// stored is how many steps the result file holds, so a probe knows its index.
	stored func() int
	run    stepRunner
}

// errProbeEmpty: a probe ended without a measured step (it cannot be judged).
var errProbeEmpty = errors.New("the probe ended without a measured step")

// search runs the probes and returns the result file's max; the error is an
// interrupt's or a probe's.
func (s *findMaxSearch) search(ctx context.Context) (*results.Max, error) {
	users := s.plan.Users[0]
	s.lw.logf("find-max: %d users, rate from %.4g tps, x%g until a probe fails, then bisecting to %.0f %%; at most %d probes of %s",
		users, s.cfg.Start, s.cfg.Growth, s.cfg.Resolution*100, s.cfg.MaxProbes, s.plan.Step)
	prober := driver.ProberFunc(func(ctx context.Context, req driver.ProbeRequest) (driver.ProbeOutcome, error) {
		s.lw.logf("probe %d/%d: %.4g tps offered at %d users (%s)", req.N, s.cfg.MaxProbes, req.Load, users, req.Why)
		var got *results.Step
		index := -1
		hook := func(c *driver.Config) {
			onStep, onTick := c.OnStep, c.OnTick
			c.OnStep = func(st *results.Step) {
				st.Rate = req.Load
				st.Probe = &results.Probe{N: req.N, Why: req.Why}
				if onStep != nil {
					onStep(st)
				}
				if !st.Partial {
					got, index = st, s.stored()-1
				}
			}
			c.OnTick = func(l driver.Live) {
				// The driver counts one step per probe; the search's count is the one
				// that means something here.
				l.Step, l.Steps = req.N, s.cfg.MaxProbes
				if onTick != nil {
					onTick(l)
				}
			}
		}
		if err := s.run(ctx, s.plan, req.Load, hook); err != nil {
			return driver.ProbeOutcome{}, err
		}
		if got == nil {
			return driver.ProbeOutcome{}, errProbeEmpty
		}
		out := probeOutcome(s.lims, got, index)
		verdict := "passed"
		switch {
		case out.DriverBound:
			verdict = "driver-bound: " + out.Why
		case !out.Pass:
			verdict = "failed: " + out.Why
		}
		s.lw.logf("probe %d: %.4g tps offered, %.1f tps, %.2f tpsE: %s", req.N, req.Load, got.TPS, got.TPSE, verdict)
		return out, nil
	})
	res, err := driver.FindMax(ctx, s.cfg, prober)
	m := maxOf(res, users, s.cfg.Resolution)
	if m.Note != "" {
		s.lw.logf("find-max: %s", m.Note)
	}
	return m, err
}

// printMax explains, under the run's report (which leads with the maximum), why
// a search stopped before it resolved the maximum.
func printMax(w io.Writer, m *results.Max) {
	if m != nil && m.Note != "" {
		fmt.Fprintln(w, "\nfind-max: "+m.Note)
	}
}

// findMax runs the search with base as every probe's driver configuration (the
// session's wiring: each step judged, stored and printed) and stores its max in
// the result file, also when interrupted. The error is why the search stopped
// early (an interrupt, a failing database), as drive keeps it.
func (s *runSession) findMax(ctx context.Context, base driver.Config) error {
	search, err := s.opts.LimitOpts.searchConfig(s.opts.Rate, s.plan.Users)
	if err != nil {
		return err
	}
	fm := &findMaxSearch{cfg: search, plan: s.plan, lims: s.lims, lw: s.lw,
		stored: func() int { return len(s.result.Steps) },
		run: func(ctx context.Context, plan driver.Plan, rate float64, hook func(*driver.Config)) error {
			cfg := base
			cfg.Plan, cfg.Steps, cfg.Rate = plan, nil, rate
			hook(&cfg)
			d, err := driver.New(cfg)
			if err != nil {
				return usageError{err}
			}
			_, err = d.Run(ctx)
			return err
		}}
	m, err := fm.search(ctx)
	s.result.Max = m
	if werr := results.Write(s.out, s.result); werr != nil && s.fileErr == nil {
		s.fileErr = werr
	}
	return err
}
