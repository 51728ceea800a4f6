package run

import (
	"context"
	"fmt"
	"io"

	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session"
)

// findMaxSearch is one --find-max search over a run: the search's probes are the
// steps of one driver run (driver.SearchSteps).
type findMaxSearch struct {
	cfg  driver.SearchConfig
	plan driver.Plan // one user level, with the run's --step and --warmup
	lims results.Limits
	lw   *liveWriter
	// stored is how many steps the result file holds, so a probe knows its index.
	stored func() int
}

// steps returns the search as the driver's steps: every probe logged as it
// starts, and judged (limits, steadiness) once the session has stored it.
func (s *findMaxSearch) steps(ctx context.Context) (*driver.SearchSteps, error) {
	users := s.plan.Users[0]
	from := "a calibration probe without a pacer"
	if !s.cfg.Calibrate {
		from = fmt.Sprintf("%.4g tps", s.cfg.Start)
	}
	s.lw.logf("find-max: %d users, rate from %s, x%g until a probe fails, then bisecting to %.0f %%; at most %d probes of %s in one run",
		users, from, s.cfg.Growth, s.cfg.Resolution*100, s.cfg.MaxProbes, s.plan.Step)
	level := driver.Level{Users: users, Step: s.plan.Step, Warmup: s.plan.Warmup}
	steps, err := driver.NewSearchSteps(ctx, s.cfg, level, func(req driver.ProbeRequest, st *results.Step) driver.ProbeOutcome {
		out := probeOutcome(s.lims, st, s.stored()-1)
		verdict := "passed"
		switch {
		case req.Load == 0:
			verdict = "calibration"
		case out.DriverBound:
			verdict = "driver-bound: " + out.Why
		case !out.Pass:
			verdict = "failed: " + out.Why
		case out.Unsteady:
			verdict = "passed, unsteady"
		}
		s.lw.logf("probe %d: %s, %.1f tps, %.2f tpsE: %s", req.N, probeLoad(req.Load), st.TPS, st.TPSE, verdict)
		return out
	})
	if err != nil {
		return nil, err
	}
	steps.Started = func(req driver.ProbeRequest) {
		s.lw.logf("probe %d/%d: %s at %d users (%s)", req.N, s.cfg.MaxProbes, probeLoad(req.Load), users, req.Why)
	}
	return steps, nil
}

// probeLoad names a probe's load: the calibration runs unpaced.
func probeLoad(load float64) string {
	if load == 0 {
		return "unpaced"
	}
	return fmt.Sprintf("%.4g tps offered", load)
}

// printMax explains, under the run's report (which leads with the maximum), why
// a search stopped before it resolved the maximum.
func printMax(w io.Writer, m *results.Max) {
	if m != nil && m.Note != "" {
		fmt.Fprintln(w, "\nfind-max: "+m.Note)
	}
}

// findMax runs the search with base as the driver's configuration (the session's
// wiring: each step judged, stored and printed) and stores its max in the result
// file, also when interrupted. The error is why the search stopped early (an
// interrupt, a failing database), as drive keeps it.
func (s *runSession) findMax(ctx context.Context, base driver.Config) error {
	search, err := s.opts.LimitOpts.searchConfig(s.opts.Rate, s.plan.Users)
	if err != nil {
		return err
	}
	fm := &findMaxSearch{cfg: search, plan: s.plan, lims: s.lims, lw: s.lw,
		stored: func() int { return len(s.result.Steps) }}
	steps, err := fm.steps(ctx)
	if err != nil {
		return session.UsageError{Err: err}
	}
	cfg := base
	cfg.Steps, cfg.Rate = s.settled(steps), 0
	d, err := driver.New(cfg)
	if err != nil {
		steps.Finish()
		return session.UsageError{Err: err}
	}
	_, runErr := d.Run(ctx)
	res, searchErr := steps.Finish()
	m := maxOf(res, s.plan.Users[0], search.Resolution)
	if m.Note != "" {
		s.lw.logf("find-max: %s", m.Note)
	}
	s.result.Max = m
	if werr := results.Write(s.out, s.result); werr != nil && s.fileErr == nil {
		s.fileErr = werr
	}
	if runErr != nil {
		return runErr
	}
	return searchErr
}
