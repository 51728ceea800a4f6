package run

import (
	"context"
	"fmt"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/internal/iostat"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/results/report"
	"github.com/brokerbench/brokerbench/schema/rnd"
	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/txn"
)

// drive runs the steps, recording each as it finishes. Why the run stopped early
// (an interrupt, a failing database) is kept for finish; the error drive returns
// means the run could not start.
func (s *runSession) drive(ctx context.Context) error {
	// A shard draws from its own streams and its own customers (unsharded: the
	// run's seed and every customer).
	sc, shard := s.marker.Scale, s.shard.shard
	seed, customers := shard.Seed(s.seed), shard.Customers(sc)
	cfg := driver.Config{
		Plan: s.plan, Steps: s.steps, Think: s.opts.Think, Rate: s.opts.Rate,
		Market: driver.DefaultMarket(s.meeWorkers),
		Scale:  sc, Seed: seed, Shard: shard, StartAt: s.shard.startAt, Clock: s.clock, LostGrace: s.opts.LostGrace,
		Limits: s.lims, Probe: s.probe,
		NewUserExecutor: func(stream int) txn.Executor {
			return txn.NewExecutor(s.db, s.stmts, sc, seed, stream, txn.WithCustomers(customers), txn.WithFrames(s.frames))
		},
		NewMarketExecutor: func(stream int) txn.Executor {
			return txn.NewExecutor(s.marketDB, s.stmts, sc, seed, stream, txn.WithFrames(s.frames))
		},
		NewDeck: func(user int) driver.Deck { return txn.NewDeck(rnd.New(seed, 0xdec, uint64(user))) },
		Pool:    driver.PoolStatsOf(s.db),
		Probes:  s.probes,
		OnTick:  s.tick,
		OnStep:  s.recordStep,
		Logf:    s.lw.logf,
	}
	if s.opts.Pace == paceNominal {
		cfg.NominalTPSE = figures.NominalTPSE(sc.Customers)
	}
	if s.sampler != nil {
		cfg.IO = s.ioAd
	}
	if s.metrics != nil {
		cfg.OnInterval = s.metrics.Observe
	}
	s.judge.wrap(&cfg)
	wrapSamples(&cfg)
	if s.opts.LimitOpts.FindMax {
		s.lw.logf("run: %s at %d customers (seed %d), --find-max at %d users, %s probes after %s warm-up, %d + %d connections; results to %s",
			s.tgt.Shown(), sc.Customers, seed, s.plan.Users[0], s.plan.Step, s.plan.Warmup, s.conns, s.meeWorkers+1, s.out)
		s.runErr = s.findMax(ctx, cfg)
		s.lw.clear()
		return nil
	}
	if cfg.Steps == nil {
		cfg.Steps = cfg.Plan.Source()
	}
	cfg.Steps = s.settled(cfg.Steps)
	d, err := driver.New(cfg)
	if err != nil {
		return session.UsageError{Err: err}
	}
	s.lw.logf("run: %s at %d customers (seed %d), users %v, %s steps after %s warm-up, %d + %d connections; results to %s",
		s.tgt.Shown(), sc.Customers, s.seed, s.plan.Users, s.plan.Step, s.plan.Warmup, s.conns, s.meeWorkers+1, s.out)
	s.logShard(customers)
	_, s.runErr = d.Run(ctx)
	if s.runErr == nil {
		// Every step ran, but no server answers: finish must not check it.
		s.runErr = d.DownAtEnd()
	}
	s.lw.clear()
	return nil
}

func (s *runSession) tick(l driver.Live) {
	if s.metrics != nil {
		s.metrics.SetLive(l)
	}
	s.lw.line(l.String() + s.ioAd.liveHitRatio() + s.ioAd.liveHost())
}

// withIO: the step table has storage columns.
func (s *runSession) withIO() bool {
	return s.sampler != nil && s.sampler.Source() != iostat.SourceNone
}

// recordStep keeps a finished step: the result file is rewritten (a failed write is
// reported once and fails the run at the end) and its row printed.
func (s *runSession) recordStep(st *results.Step) {
	s.keepSettle()
	// A shard's nominal tpsE is its slice's.
	figures.SetNominal(st, s.shard.shard.CustomerCount(s.marker.Scale))
	s.result.Steps = append(s.result.Steps, *st)
	// Flags are the run's: the knee moves as steps arrive.
	figures.SetStepFlags(s.result)
	st = &s.result.Steps[len(s.result.Steps)-1]
	if err := results.Write(s.out, s.result); err != nil && s.fileErr == nil {
		s.fileErr = err
		s.lw.logf("brokerbench: %v", err)
	}
	s.lw.clear()
	if s.rows == 0 {
		fmt.Fprintln(s.g.Stdout, report.StepHeader(s.withIO()))
	}
	s.rows++
	fmt.Fprintln(s.g.Stdout, report.StepRow(s.rows, st, s.withIO()))
	if note := report.StepNote(s.lims, s.result, st); note != "" {
		fmt.Fprintln(s.g.Stdout, note)
	}
}

// finish writes the final result file, prints the report, and checks the
// database's consistency unless --no-check. The result comes back even with an
// error when the file holds steps.
func (s *runSession) finish(ctx context.Context) (*Result, error) {
	g, out, run := s.g, s.out, s.result
	run.FinishedAt = time.Now().UTC()
	s.keepSettle() // a run interrupted while settling keeps what its windows showed
	interrupted := s.runErr != nil && ctx.Err() != nil
	run.Interrupted = interrupted
	if err := results.Write(out, run); err != nil {
		return nil, err
	}
	res := &Result{Path: out, Run: run}
	if s.runErr != nil && !interrupted {
		if driver.IsServerLost(s.runErr) {
			// Nothing to check against: say so rather than fail on a refused connect.
			return res, fmt.Errorf("run stopped: %w; finished steps are in %s; the consistency check was skipped (no server)", s.runErr, out)
		}
		return res, fmt.Errorf("run stopped: %w (finished steps are in %s)", s.runErr, out)
	}
	if s.fileErr != nil {
		return res, s.fileErr
	}
	fmt.Fprintln(g.Stdout)
	if err := report.WriteReport(g.Stdout, results.Input{Path: out, Run: run}); err != nil {
		return res, err
	}
	printMax(g.Stdout, run.Max)
	if interrupted {
		// The step the interrupt cut is kept, but it did not finish: say which is which.
		var partial int
		for _, st := range run.Steps {
			if st.Partial {
				partial++
			}
		}
		fmt.Fprintf(g.Stdout, "\nresults of %d finished step(s) and %d partial step(s) written to %s\n", len(run.Steps)-partial, partial, out)
		return res, fmt.Errorf("%w: the run was stopped; results of finished steps are in %s", session.ErrInterrupted, out)
	}
	fmt.Fprintf(g.Stdout, "\nresults written to %s\n", out)
	if s.opts.NoCheck {
		return res, nil
	}
	s.lw.logf("checking the database's consistency (--no-check skips this)")
	v, err := s.check(ctx)
	for _, x := range v {
		fmt.Fprintln(g.Stdout, "check: "+x.String())
	}
	if err != nil {
		return res, fmt.Errorf("check after the run: %w", err)
	}
	if len(v) > 0 {
		return res, session.ViolationsError{N: len(v)}
	}
	fmt.Fprintln(g.Stdout, "check: OK")
	return res, nil
}

// check runs the consistency checks on a pool of its own, the run's pools being
// closed by then: under a --server-memory cap the run's idle backends (a few MB each,
// one per connection) leave the check's queries too little room, and the cap's OOM
// killer ends a backend mid-check.
func (s *runSession) check(ctx context.Context) ([]txn.Violation, error) {
	db, err := database.Open(ctx, s.tgt.DSN, database.Options{MaxConns: 1, AppName: "brokerbench check"})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return txn.Check(ctx, db, s.marker.Scale)
}
