package run

import (
	"context"
	"strconv"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/internal/iostat"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/target"
	"github.com/brokerbench/brokerbench/txn"
)

// runSession is one run of the workload on a target, phase by phase; each phase
// builds on the one before, and run calls them in order:
//
//	newRunSession  checks the options and derives the plan, the pools' and the emulator's sizes
//	open           the pools, the run's lock, the load's marker, the statements, the server's description
//	measureClock   with --shard or --start-at, this machine's clock against the server's
//	record         the result file's header, written once so a bad --out fails now
//	instrument     the storage sampler, the block-I/O capture and the Prometheus endpoint
//	drive          the steps; each is recorded, printed and written as it finishes
//	finish         the final file, the report and the consistency check
//	close          undoes open and instrument
//
// The options are read, never changed: what the session derives from them (the
// emulator's size, the result file's name) it keeps in its own fields.
type runSession struct {
	g    *session.Globals
	opts Options
	lw   *liveWriter

	plan       driver.Plan
	tags       map[string]string
	conns      int // the users' pool
	meeWorkers int // the emulator's workers; the market's pool has one more, for the timer
	// steps chooses the steps one at a time; nil: the plan's staircase. Set it
	// before drive to choose each step from the last one's figures (the source sees
	// each step after recordStep has written and printed it).
	steps driver.StepSource
	// probes add their own figures to every step, measured over its window; append
	// them in instrument or later (the pools are open by then). They run before
	// recordStep, so the file and the step source see what they add.
	probes []driver.WindowProbe

	tgt      *target.Target
	db       database.DB // the users'
	marketDB database.DB // the emulator's and the timer's
	marker   loader.Marker
	stmts    *txn.Statements
	frames   txn.Frames // where the frames run (openFrames)
	srv      database.ServerInfo
	seed     uint64
	// probe is the liveness probe (connections.go), on a connection of its own.
	probe func(context.Context) error

	out     string       // the result file
	result  *results.Run // the result file's content
	fileErr error        // the first failed rewrite of the result file
	rows    int          // step rows printed

	sampler *iostat.Sampler // nil: storage sampling off
	ioAd    *ioAdapter      // the driver's view of sampler, with the cache hit ratio
	metrics *driver.Metrics // nil: no --metrics-addr

	runErr error // why drive stopped early; nil: every step ran

	// lims are the response-time limits every step is judged against
	// (limits.go); judge records each step's verdict and steadiness.
	lims  results.Limits
	judge *stepJudge
	undo  []func()

	// shard is --shard and --start-at (shard.go); clock is the driver's clock,
	// which the clock offset is measured with (the wall clock; tests skew it).
	shard shardPlan
	clock driver.Clock
	// repeat is which of run --repeat N's runs this is; nil for a single run.
	repeat *results.Repeat
	// settleMax is --settle's budget (0: no settling); settler runs the windows
	// when this run settles (settle.go).
	settleMax time.Duration
	settler   *driver.SettleSteps
}

// Result is what a finished (or interrupted) run hands back: its file and content.
type Result struct {
	Path string
	Run  *results.Run
}

// newRunSession checks the options (usage errors) before anything starts.
func newRunSession(g *session.Globals, o Options, lw *liveWriter) (*runSession, error) {
	plan, err := o.plan()
	if err != nil {
		return nil, err
	}
	tags, err := session.ParseTags(o.Tags)
	if err != nil {
		return nil, err
	}
	lims, err := o.LimitOpts.limits()
	if err != nil {
		return nil, err
	}
	sp, err := o.shardPlan(time.Now())
	if err != nil {
		return nil, err
	}
	settleMax, err := o.settleMax()
	if err != nil {
		return nil, err
	}
	s := &runSession{g: g, opts: o, lw: lw, plan: plan, tags: tags, conns: o.Connections, meeWorkers: o.EmulatorWorkers,
		lims: lims, judge: newStepJudge(lims), shard: sp, clock: driver.RealClock{}, settleMax: settleMax}
	// A shard sizes its pool and its emulator for its own share of the users.
	if s.conns == 0 {
		s.conns = max(sp.maxUsers(plan), 1)
	}
	if s.meeWorkers == 0 {
		s.meeWorkers = driver.MEEWorkersFor(sp.maxUsers(plan))
	}
	return s, nil
}

// run runs every phase on an open target (the caller closes it).
func (s *runSession) run(ctx context.Context, tgt *target.Target) (*Result, error) {
	defer s.close()
	if err := s.open(ctx, tgt); err != nil {
		return nil, err
	}
	if err := s.measureClock(ctx); err != nil {
		return nil, err
	}
	if err := s.record(); err != nil {
		return nil, err
	}
	if err := s.instrument(ctx); err != nil {
		return nil, err
	}
	if err := s.drive(ctx); err != nil {
		return nil, err
	}
	// finish needs none of the run's pools, sampler or metrics endpoint; closing them
	// first also leaves a capped server's memory to the check (see check).
	s.close()
	return s.finish(ctx)
}

// close undoes what the phases opened, last first.
func (s *runSession) close() {
	for i := len(s.undo) - 1; i >= 0; i-- {
		s.undo[i]()
	}
	s.undo = nil
}

func (s *runSession) open(ctx context.Context, tgt *target.Target) error {
	s.tgt = tgt
	if err := s.checkConnections(ctx); err != nil {
		return err
	}
	db, err := database.Open(ctx, tgt.DSN, database.Options{MaxConns: s.conns, AppName: "brokerbench run"})
	if err != nil {
		return err
	}
	s.db = db
	s.undo = append(s.undo, db.Close)
	if s.srv, err = target.SupportedServer(ctx, db); err != nil {
		return err
	}
	// The emulator and the timer get their own pool: queued users must never starve
	// the Trade-Results (with 10,000 users on 100 connections they would).
	marketDB, err := database.Open(ctx, tgt.DSN, database.Options{MaxConns: s.meeWorkers + 1, AppName: "brokerbench market"})
	if err != nil {
		return err
	}
	s.marketDB = marketDB
	s.undo = append(s.undo, marketDB.Close)
	if s.marker, err = loader.ReadMarker(ctx, db); err != nil {
		return err
	}
	if err := s.markRun(ctx); err != nil { // a database brokerbench loaded only
		return err
	}
	if err := s.openProbe(ctx); err != nil {
		return err
	}
	if s.stmts, err = txn.StatementsFor(db.Name()); err != nil {
		return err
	}
	if err := s.openFrames(ctx); err != nil {
		return err
	}
	for _, n := range s.srv.Notes {
		s.lw.logf("run: %s", n)
	}
	s.seed = s.opts.Seed
	if s.seed == 0 {
		s.seed = s.marker.Seed
	}
	return nil
}

// record starts the result file. Its options are the session's options as used:
// --emulator-workers records the emulator's size even when the session derived it.
func (s *runSession) record() error {
	s.out = s.opts.Out
	if s.out == "" {
		s.out = "brokerbench-" + time.Now().Format("20060102-150405") + ".json"
	}
	used := s.opts
	used.EmulatorWorkers = s.meeWorkers
	srv := s.srv
	s.result = &results.Run{
		Format: results.FormatVersion, Label: s.opts.Label, Tags: s.tags,
		Database: results.Database{Product: srv.Product, Version: srv.Version, Edition: srv.Edition, Settings: srv.Settings, Managed: s.tgt.IsManaged(), Notes: srv.Notes},
		Scale:    results.Scale{Customers: s.marker.Scale.Customers, TradeDays: s.marker.Scale.TradeDays},
		Seed:     s.seed, Options: s.optionsRecord(used), Tool: s.g.Tool,
		StartedAt: time.Now().UTC(), Steps: []results.Step{}, Frames: string(s.frames),
	}
	s.result.Options["connections_used"] = s.conns + s.meeWorkers + 2
	// What --rate counts, so a file is read right next to older ones, where it
	// paced customer starts only.
	s.result.Options["rate_scope"] = "all"
	s.result.Limits = s.lims.Record()
	s.recordShard(s.result)
	s.result.Repeat = s.repeat
	// Write the file once before the first step: a bad --out fails now, not after
	// the first step's minutes.
	return results.Write(s.out, s.result)
}

// optionsRecord is the result file's record of the options as used (Options.Record),
// or, without one, of the global options alone.
func (s *runSession) optionsRecord(used Options) map[string]any {
	if used.Record != nil {
		return used.Record(used, s.g, s.tgt.Shown())
	}
	return map[string]any{"db": s.tgt.Shown(), "engine": s.g.Engine, "pgdata": s.g.PGData, "quiet": strconv.FormatBool(s.g.Quiet)}
}

func (s *runSession) instrument(ctx context.Context) error {
	if !s.opts.ioDisabled() {
		sampler, err := iostat.Open(ctx, iostat.Options{Devices: s.opts.IODevices, NodeExporterURL: s.opts.IONodeExp, Interval: s.opts.IOInterval,
			DataDir: s.srv.DataDir, WALDir: s.srv.WALDir, DB: s.db, Log: s.lw.logf})
		if err != nil {
			return session.UsageError{Err: err}
		}
		s.sampler = sampler
		s.undo = append(s.undo, sampler.Close)
		sampler.Start(ctx)
		s.ioAd = &ioAdapter{s: sampler}
		s.judge.liveHit = sampler.LiveHitRatio
		s.probes = append(s.probes, s.ioAd.windowProbe)
	}
	if s.opts.CaptureIO != "" {
		if err := s.openCapture(); err != nil {
			return err
		}
	}
	recordStorageRegime(ctx, s.result, s.tgt, s.db, s.lw.logf)
	s.result.System = systemOf(s.sampler)
	target.WarnCapFits(s.tgt, s.connectionsNeeded(), s.lw.logf)
	if s.opts.MetricsAddr != "" {
		s.metrics = driver.NewMetrics()
		stop, err := serveMetrics(s.opts.MetricsAddr, s.metrics, s.lw)
		if err != nil {
			return err
		}
		s.undo = append(s.undo, stop)
	}
	return nil
}
