package driver

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/record"
	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/txn"
)

// Input streams of the market's executors (the stream argument of
// Config.NewMarketExecutor). Users' streams are 0, 1, 2, ...; the emulator's and the
// timer's sit far above any user so every stream stays the same whatever the user
// count. They only number streams: the factories tell users from the market.
const (
	meeStreamBase = 1 << 20
	timerStream   = 1 << 21
)

// DefaultMEEWorkers is the emulator's pool size when the caller gives none: DBT-5's
// single connection became the bottleneck; 16 fixed it there (docs/workload.md §6.2).
const DefaultMEEWorkers = 8

// MEEWorkersFor sizes the emulator for a plan: about one worker per three users, at
// least DefaultMEEWorkers and at most 64. Every Trade-Order owes a Trade-Result and a
// Market-Feed commits 20 entries one by one, so a fixed small pool queues them at a
// few dozen users and tpsE then measures the emulator, not the database.
func MEEWorkersFor(maxUsers int) int {
	return min(max((maxUsers+2)/3, DefaultMEEWorkers), 64)
}

// Deck deals the customer mix (txn.Deck).
type Deck interface{ Next() txn.Kind }

// IOSampler is the storage view of a run (package internal/iostat behind cmd's adapter).
type IOSampler interface {
	// Begin marks the start of a measured window; the function it returns closes
	// the window with its transaction and commit counts.
	Begin() func(txns, commits int64) *results.StepIO
	// Live returns the latest figures for the live line.
	Live() (results.IOFigures, bool)
}

// Live is the driver's state once a second, for the live line and metrics.
type Live struct {
	Step, Steps int // 1-based step number, of Steps (0: the StepSource does not know)
	Users       int
	Measuring   bool // past the step's warm-up
	// Settling is a settling window (Level.Settle) before the first step; Step is
	// then the window's number and Measuring false, so nothing per step collects it.
	Settling  bool
	InStep    time.Duration // time since the step started
	TPS, TPSE float64       // over the last second
	P95MS     float64       // response time, all transactions, last second
	Errors    int64         // failed transactions in the step so far
	IO        *results.IOFigures
}

// Config is everything a run needs. The executor factories and NewDeck are called
// once per worker and what they return is never shared between goroutines.
type Config struct {
	// Plan is the fixed staircase of user levels; Steps, when set, replaces it.
	Plan Plan
	// Steps chooses the steps one at a time from the results so far (a search for
	// the highest level that meets a limit); nil: Plan.Source().
	Steps StepSource
	Think time.Duration // mean think time per user; 0: none
	// Rate caps all transaction starts per second: the users', the emulator's and
	// the timer's together (RateSchedule); 0: no cap. It is the whole run's: a shard
	// takes its 1/N.
	Rate float64
	// NominalTPSE, when positive, is --pace nominal: each step sets every user's
	// mean think time from the step's user count so the users offer this many
	// Trade-Results per second (NominalThink); Think is then not used. It is the
	// whole database's: a shard paces for its slice of the customers.
	NominalTPSE float64
	// Shard, when it is one of several, makes this driver shard Index of a sharded
	// run (shard.go): its share of every step's users, Rate and NominalTPSE; only
	// shard 0 runs Trade-Cleanup and Data-Maintenance. The caller gives it its
	// customer slice and seed (Shard.Customers, Shard.Seed).
	Shard Shard
	// StartAt, when set, is when the first step starts (run --start-at): the driver
	// runs Trade-Cleanup, then waits for it, so the shards' steps line up. A time
	// already passed starts at once, with the steps still timed from StartAt.
	StartAt time.Time
	Market  MarketConfig
	Scale   schema.Scale
	Seed    uint64
	// DataMaintenanceEvery is the timer's period (60 s in the reference); negative
	// disables it.
	DataMaintenanceEvery time.Duration
	// ShutdownGrace is how long in-flight transactions may take to finish after an
	// interrupt before they are cut (and not recorded).
	ShutdownGrace time.Duration
	// LostGrace is how long every connection may fail, or the server answer
	// nothing, before the run ends with a *ServerLostError (lost.go); 0:
	// DefaultLostGrace.
	LostGrace time.Duration
	// Limits are the run's response-time limits by transaction name, from which
	// each transaction's deadline is derived (TxnDeadline); a name absent takes
	// the catalogue's limit.
	Limits results.Limits
	// Probe is the liveness probe (stall.go): a trivial query over a connection of
	// its own, which a slow server still answers and a stopped one does not. Nil:
	// only transactions waiting in flight tell a stall.
	Probe func(ctx context.Context) error
	Clock Clock

	// NewUserExecutor makes user i's executor, stream i (0, 1, 2, ...).
	NewUserExecutor func(stream int) txn.Executor
	// NewMarketExecutor makes the executors of the market emulator's workers and of
	// the timer (Trade-Cleanup, Data-Maintenance). Give them their own connections:
	// queued users must never starve the Trade-Results. stream is the worker's input
	// stream for txn.NewExecutor, distinct from every user's.
	NewMarketExecutor func(stream int) txn.Executor
	NewDeck           func(user int) Deck
	Pool              PoolStatser // optional: pool waits in the self-check
	IO                IOSampler   // optional: storage figures per step
	// Probes add their own figures to every step (optional; see WindowProbe).
	Probes []WindowProbe

	OnTick     func(Live)            // once a second
	OnInterval func(record.Interval) // each transaction type's figures of the last second
	OnStep     func(*results.Step)   // each finished (or interrupted) step
	// OnSettle gets each finished settling window (Level.Settle), which is not a step:
	// OnStep never sees it and Run does not return it.
	OnSettle func(*results.Step)
	Logf     func(format string, args ...any)
}

func (c *Config) defaults() {
	if c.Clock == nil {
		c.Clock = RealClock{}
	}
	if c.Market.Workers <= 0 {
		w := c.Market.Workers
		c.Market = DefaultMarket(DefaultMEEWorkers)
		if w > 0 {
			c.Market.Workers = w
		}
	}
	if c.Market.TickerBatch <= 0 {
		c.Market.TickerBatch = 20
	}
	if c.Market.DelayMax <= 0 {
		c.Market.DelayMean, c.Market.DelayMax = time.Second, 5*time.Second
	}
	if c.Market.TriggeredQty <= 0 {
		c.Market.TriggeredQty = 375
	}
	if c.DataMaintenanceEvery == 0 {
		c.DataMaintenanceEvery = time.Minute
	}
	if c.ShutdownGrace <= 0 {
		c.ShutdownGrace = 10 * time.Second
	}
	if c.Logf == nil {
		c.Logf = func(string, ...any) {}
	}
}

// ErrAllFailing stops a run in which every transaction fails: a missing schema or a
// broken database, not a measurement.
var ErrAllFailing = errors.New("every transaction is failing")

// abortAfterFailures: with this many failures and no success, the run stops.
const abortAfterFailures = 100

// Driver runs one run's steps.
type Driver struct {
	cfg   Config
	clock Clock
	rec   *recording
	// sched is the rate schedule of the step running (nil: no cap); a step with a
	// rate of its own (Level.OwnRate) replaces it as the step starts.
	sched atomic.Pointer[RateSchedule]
	mee   *mee
	check *selfCheck

	runCtx  context.Context // users, emulator and timer stop when it ends
	usersMu sync.Mutex
	users   []*user
	active  int
	// nominalThink is the mean think time under nominal pacing (ns), set with the
	// user count.
	nominalThink atomic.Int64
	// paceDropped counts the nominal schedule's starts dropped for being more than
	// LagHorizon late (catchUp).
	paceDropped atomic.Int64

	liveMu    sync.Mutex
	live      Live
	stepStart time.Time
	stepLen   time.Duration // the live line never counts past it
	errs      int64         // in the step so far

	watch     *serverWatch     // whether the server answers (lost.go)
	downAtEnd *ServerLostError // the server was down when the last step ended
}

// DownAtEnd returns a *ServerLostError (AtEnd) when every step ran but the server
// was down, within its grace period, when the last one ended; nil otherwise. Run
// returns nil then: its steps are all there. The caller must not take the server
// for up (a check after the run would fail on a refused connection).
func (d *Driver) DownAtEnd() error {
	if d.downAtEnd == nil {
		return nil
	}
	return d.downAtEnd
}

// New returns a driver for cfg.
func New(cfg Config) (*Driver, error) {
	cfg.defaults()
	if cfg.Steps == nil {
		if err := cfg.Plan.Validate(); err != nil {
			return nil, err
		}
		cfg.Steps = cfg.Plan.Source()
	}
	if cfg.Shard.Sharded() {
		cfg.Rate /= float64(cfg.Shard.Count)
		if cfg.Scale.Customers > 0 {
			cfg.NominalTPSE *= float64(cfg.Shard.CustomerCount(cfg.Scale)) / float64(cfg.Scale.Customers)
		}
	}
	if cfg.NewUserExecutor == nil || cfg.NewMarketExecutor == nil || cfg.NewDeck == nil {
		return nil, errors.New("driver: NewUserExecutor, NewMarketExecutor and NewDeck are required")
	}
	if cfg.Rate < 0 || cfg.Think < 0 || cfg.NominalTPSE < 0 {
		return nil, errors.New("--rate, --think and the nominal tpsE must not be negative")
	}
	return &Driver{cfg: cfg, clock: cfg.Clock}, nil
}

// Run runs the steps (Config.Steps, or the plan's) and returns them. When ctx ends
// early (an interrupt), the step in progress is kept as Partial if part of its
// window was measured, and Run returns the steps with ctx's error. A Driver runs once.
func (d *Driver) Run(ctx context.Context) ([]results.Step, error) {
	cfg := &d.cfg
	txCtx, cancelTx := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelTx()
	d.rec = &recording{rec: record.NewRecorder(d.clock.Now()), txCtx: txCtx, deadlines: deadlines(cfg.Limits, cfg.LostGrace),
		onNewFail: func(class string, err error) { cfg.Logf("first %s failure: %v", class, err) }}

	timer := d.rec.newWorker(timerStream, cfg.NewMarketExecutor(timerStream))
	if cfg.Shard.runsOnce() {
		if err := d.tradeCleanup(ctx, timer); err != nil {
			return nil, err
		}
	}

	start := d.clock.Now()
	if !cfg.StartAt.IsZero() {
		cfg.Logf("waiting for --start-at %s (%s)", cfg.StartAt.UTC().Format(time.RFC3339), cfg.StartAt.Sub(start).Round(time.Second))
		if err := sleepUntil(ctx, d.clock, cfg.StartAt); err != nil {
			return nil, err // interrupted before the first step: nothing ran
		}
		start = cfg.StartAt
	}
	runCtx, stopRun := context.WithCancel(ctx)
	defer stopRun()
	d.runCtx = runCtx
	stepCtx, abort := context.WithCancelCause(ctx)
	defer abort(nil)
	if cfg.Rate > 0 {
		d.sched.Store(NewRateSchedule(cfg.Rate, start))
	}
	d.check = newSelfCheck(cfg.Pool)
	defer d.check.close()
	d.watch = newServerWatch(cfg.LostGrace, d.clock.Now(), cfg.Probe != nil)
	d.rec.answered(d.clock.Now())

	stopMEE := d.startMarket(ctx, start)
	defer stopMEE()

	var bg sync.WaitGroup
	if cfg.DataMaintenanceEvery > 0 && cfg.Shard.runsOnce() {
		bg.Add(1)
		go func() { defer bg.Done(); d.dataMaintenance(runCtx, timer, start) }()
	}
	tickCtx, stopTick := context.WithCancel(context.Background())
	bg.Add(1)
	go func() { defer bg.Done(); d.tick(tickCtx, abort, timer.stats) }()
	if cfg.Probe != nil {
		bg.Add(1)
		go func() { defer bg.Done(); d.probeLoop(tickCtx) }()
	}

	steps, runErr := d.runSteps(stepCtx, abort, start, stopRun, cancelTx)
	stopRun()
	d.waitUsers(cancelTx)
	if runErr == nil {
		// The drain also gives a server restarting at the end a few seconds to
		// come back (the tick still watches); only one still down after it is.
		d.mee.drain(d.clock.Now().Add(cfg.Market.DelayMax + 5*time.Second))
		if l := d.watch.lostAtEnd(d.rec.signals()); l != nil {
			d.downAtEnd = l
		}
	}
	stopMEE()
	stopTick()
	// The emulator's in-flight transactions get the same grace as the users'.
	meeDone := make(chan struct{})
	go func() { d.mee.wait(); close(meeDone) }()
	d.waitOrCut(meeDone, cancelTx)
	cancelTx()
	bg.Wait()
	if runErr != nil {
		if cause := context.Cause(stepCtx); cause != nil && ctx.Err() == nil {
			return steps, cause
		}
		return steps, ctx.Err()
	}
	return steps, nil
}

// startMarket starts the market-exchange emulator and its workers. It outlives the
// users, to complete the market orders they left: the returned function stops it.
func (d *Driver) startMarket(ctx context.Context, start time.Time) context.CancelFunc {
	cfg := &d.cfg
	meeWorkers := make([]*worker, cfg.Market.Workers)
	for i := range meeWorkers {
		meeWorkers[i] = d.rec.newWorker(meeStreamBase+i, cfg.NewMarketExecutor(meeStreamBase+i))
	}
	d.mee = newMEE(cfg.Market, d.clock, d.rec, cfg.Scale.Securities(), cfg.Seed, start)
	d.mee.sched = &d.sched
	meeCtx, stopMEE := context.WithCancel(ctx)
	d.mee.start(meeCtx, meeWorkers)
	return stopMEE
}

// runSteps runs the steps the source chooses until it has no more or one is cut
// short (an interrupt, an abort). A level the source gets wrong aborts the run with
// its error.
func (d *Driver) runSteps(ctx context.Context, abort context.CancelCauseFunc, start time.Time, stopRun, cancelTx context.CancelFunc) ([]results.Step, error) {
	cfg := &d.cfg
	var steps []results.Step
	var last *results.Step
	var at time.Duration // the next step's start, from the run's start
	settles := 0         // settling windows run so far; they are not steps
	for {
		lv, more := cfg.Steps.Next(last)
		if !more {
			return steps, nil
		}
		index := len(steps)
		if lv.Settle {
			index = settles
			settles++
		}
		if err := lv.Validate(); err != nil {
			err = fmt.Errorf("step %d: %w", index+1, err)
			if lv.Settle {
				err = fmt.Errorf("settling window %d: %w", index+1, err)
			}
			abort(err)
			return steps, err
		}
		// A shard holds its share of the level, which may be 0 (fewer users than
		// shards): it idles through the step and still records it.
		lv.Users = cfg.Shard.Users(lv.Users)
		sp := StepPlan{Index: index, Users: lv.Users, Start: at, MeasureFrom: at + lv.Warmup, End: at + lv.Step, Settle: lv.Settle}
		at = sp.End
		if lv.OwnRate {
			d.setRate(lv.Rate, start.Add(sp.Start))
		}
		st, err := d.runStep(ctx, sp, start, stopRun, cancelTx)
		if st != nil {
			if lv.OwnRate {
				st.Rate = lv.Rate
			}
			switch {
			case lv.Settle:
				if cfg.OnSettle != nil {
					cfg.OnSettle(st)
				}
			default:
				st.Probe = lv.Probe
				steps = append(steps, *st)
				if cfg.OnStep != nil {
					cfg.OnStep(st)
				}
			}
		}
		if err != nil {
			return steps, err
		}
		last = st
	}
}

// runStep holds sp's user level and measures its window. Interrupted, it stops the
// users (stopRun) so their in-flight transactions land in the window, and returns
// the step as Partial if part of its window was measured (else nil) with the error.
func (d *Driver) runStep(ctx context.Context, sp StepPlan, start time.Time, stopRun, cancelTx context.CancelFunc) (*results.Step, error) {
	stepStart := start.Add(sp.Start)
	d.setUsers(sp.Users)
	d.setLive(sp, stepStart, false)
	if err := sleepUntil(ctx, d.clock, start.Add(sp.MeasureFrom)); err != nil {
		return nil, err // interrupted in the warm-up: nothing measured
	}
	w := d.openWindow()
	d.setLive(sp, stepStart, true)
	if err := sleepUntil(ctx, d.clock, start.Add(sp.End)); err != nil {
		cut := d.clock.Now()
		stopRun()
		d.waitUsers(cancelTx)
		st := d.closeWindow(w, sp, stepStart, cut)
		st.Partial = true
		if IsServerLost(context.Cause(ctx)) {
			markLost(st)
		}
		if st.MeasuredS > 0 {
			return st, err
		}
		return nil, err
	}
	return d.closeWindow(w, sp, stepStart, d.clock.Now()), nil
}

// setRate puts the users, the emulator and the timer on a new schedule of rate
// starts per second from at (a shard's share of it); 0 takes the cap off.
func (d *Driver) setRate(rate float64, at time.Time) {
	if rate <= 0 {
		d.sched.Store(nil)
		return
	}
	if d.cfg.Shard.Sharded() {
		rate /= float64(d.cfg.Shard.Count)
	}
	d.sched.Store(NewRateSchedule(rate, at))
}

func (d *Driver) tradeCleanup(ctx context.Context, w *worker) error {
	start := d.clock.Now()
	out, err := w.exec.Run(ctx, txn.TradeCleanup)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("Trade-Cleanup before the first step: %w", err)
	}
	d.rec.finish(w, txn.TradeCleanup, txnTimes{start, start, d.clock.Now()}, &out, nil)
	return nil
}

func (d *Driver) dataMaintenance(ctx context.Context, w *worker, start time.Time) {
	next := start
	for {
		if sleepUntil(ctx, d.clock, next) != nil {
			return
		}
		s := d.clock.Now()
		if sch := d.sched.Load(); sch != nil {
			sch.Charge(s)
		}
		out, err := d.rec.attempt(txn.DataMaintenance, func(ctx context.Context) (txn.Outcome, error) { return w.exec.Run(ctx, txn.DataMaintenance) })
		if !d.rec.finish(w, txn.DataMaintenance, txnTimes{next, s, d.clock.Now()}, &out, err) {
			return
		}
		// Keep the cadence on the schedule, not on when the last one ended; skip
		// ticks a slow Data-Maintenance overran.
		for next = next.Add(d.cfg.DataMaintenanceEvery); next.Before(d.clock.Now()); next = next.Add(d.cfg.DataMaintenanceEvery) {
		}
	}
}

// window is a measured window's opening state.
type window struct {
	from    time.Time
	stats   statsSum
	check   checkMark
	sched   *RateSchedule // the step's, whose missed and due starts the window counts
	missed  int64
	due     int64
	dropped int64 // the nominal schedule's dropped starts so far
	closeIO func(txns, commits int64) *results.StepIO
	probes  []func(*results.Step)
}

func (d *Driver) openWindow() *window {
	now := d.clock.Now()
	w := &window{from: now, check: d.check.mark(now, true)}
	d.rec.stats.atEdge(func() {
		d.rec.rec.StartWindow(now)
		w.stats = d.rec.stats.sum(true)
	})
	if w.sched = d.sched.Load(); w.sched != nil {
		w.missed, w.due = w.sched.Missed(now), w.sched.Due(now)
	}
	w.dropped = d.paceDropped.Load()
	if d.cfg.IO != nil {
		w.closeIO = d.cfg.IO.Begin()
	}
	for _, p := range d.cfg.Probes {
		w.probes = append(w.probes, p())
	}
	return w
}

func (d *Driver) closeWindow(w *window, sp StepPlan, stepStart, end time.Time) *results.Step {
	var txns map[string]results.TxnStats
	var from time.Time
	var s statsSum
	d.rec.stats.atEdge(func() {
		txns, from = d.rec.rec.Window()
		s = d.rec.stats.sum(false).minus(w.stats)
	})
	mark := d.check.mark(end, false)
	measured := end.Sub(from).Seconds()
	st := &results.Step{
		Users: sp.Users, StartedAt: stepStart.UTC(),
		WarmupS: sp.MeasureFrom.Seconds() - sp.Start.Seconds(), MeasuredS: round2(measured),
		Statements: s.statements, Transactions: txns,
	}
	var total, commits int64
	for name, t := range txns {
		total += t.Count
		if spec, ok := specByName[name]; ok && !spec.ReadOnly {
			commits += t.Count - t.Rollbacks
		}
	}
	if measured > 0 {
		st.TPS = round2(float64(total) / measured)
		st.TPSE = round2(float64(txns[kindNames[txn.TradeResult]].Count) / measured)
	}
	st.Lag = results.Lag{Late: s.late, MaxMS: float64(s.lateMax) / 1000}
	if s.late > 0 {
		st.Lag.AvgMS = round2(float64(s.lateMicros) / float64(s.late) / 1000)
	}
	var missed, due int64
	if w.sched != nil {
		missed, due = w.sched.Missed(end)-w.missed, w.sched.Due(end)-w.due
		st.Lag.Missed = missed
		st.Lag.Owed = w.sched.Owed(end)
	}
	if d.cfg.NominalTPSE > 0 {
		st.Lag.Missed += d.paceDropped.Load() - w.dropped
		st.Lag.Owed = d.startsOwed(end)
	}
	st.Driver = d.check.window(w.check, mark, missed, due)
	if d.mee != nil {
		lo := d.mee.limitOrders()
		st.LimitOrders = &lo
	}
	if f := s.failed(); f > 0 {
		st.Faults = &results.Faults{ConnectionsLost: s.fails[0], Reconnects: s.fails[0], ByClass: map[string]int64{}}
		if d.cfg.Pool != nil {
			st.Faults.Reconnects = mark.pool.NewConns - w.check.pool.NewConns
		}
		for i, n := range s.fails {
			if n > 0 {
				st.Faults.ByClass[classNames[i]] = n
			}
		}
	}
	outages, stalls := d.watch.takeEnded()
	recordOutages(st, outages, stalls)
	if w.closeIO != nil {
		st.IO = w.closeIO(total, commits)
	}
	for _, done := range w.probes {
		if done != nil {
			done(st)
		}
	}
	return st
}

var specByName = func() map[string]txn.Spec {
	m := map[string]txn.Spec{}
	for _, s := range txn.Catalogue {
		m[s.Name] = s
	}
	return m
}()

func (d *Driver) setLive(sp StepPlan, stepStart time.Time, measuring bool) {
	d.liveMu.Lock()
	d.live.Step, d.live.Steps, d.live.Users = sp.Index+1, d.cfg.Steps.Steps(), sp.Users
	// A settling window is measured for the settling rule alone: the live line says
	// so, and nothing that collects a step's seconds takes its ticks.
	d.live.Settling, d.live.Measuring = sp.Settle, measuring && !sp.Settle
	if !measuring {
		d.errs = 0
	}
	d.stepStart, d.stepLen = stepStart, sp.End-sp.Start
	d.liveMu.Unlock()
}

// tick runs once a second: it merges the workers' histograms, reports the live
// figures, and stops the run when nothing but failures comes back.
func (d *Driver) tick(ctx context.Context, abort context.CancelCauseFunc, timer *workerStats) {
	merged := hdrhistogram.New(results.HistLowestMicros, results.HistHighestMicros, results.HistSigFigs)
	trName := kindNames[txn.TradeResult]
	for {
		select {
		case <-ctx.Done():
			return
		case <-d.clock.After(time.Second):
		}
		now := d.clock.Now()
		merged.Reset()
		var count, tr, errs int64
		var elapsed time.Duration
		d.rec.rec.Tick(now, func(iv record.Interval) {
			elapsed = iv.Elapsed
			n := iv.Response.TotalCount()
			count += n
			if iv.Name == trName {
				tr += n
			}
			errs += iv.Errors
			merged.Merge(iv.Response)
			if d.cfg.OnInterval != nil {
				d.cfg.OnInterval(iv)
			}
		})
		// The timer's Trade-Cleanup and Data-Maintenance may pass on a database
		// where the workload cannot run; what counts is the users and the emulator.
		s := d.rec.stats.sum(false)
		if s.ok-timer.ok.Load() == 0 && s.failed() >= abortAfterFailures {
			abort(fmt.Errorf("%w: %d failures and no success; first: %v", ErrAllFailing, s.failed(), d.rec.anyFailure()))
		}
		if lost := d.watch.observe(now, s.ok, s.fails[0], d.rec.signals()); lost != nil {
			abort(lost)
		}
		d.liveMu.Lock()
		d.errs += errs
		l := d.live
		l.Errors = d.errs
		// Between a step's end and the next one's start (the step being closed and
		// written), the clock runs on but the step does not.
		l.InStep = min(now.Sub(d.stepStart), d.stepLen)
		d.liveMu.Unlock()
		if secs := elapsed.Seconds(); secs > 0 {
			l.TPS, l.TPSE = float64(count)/secs, float64(tr)/secs
		}
		if merged.TotalCount() > 0 {
			l.P95MS = float64(merged.ValueAtQuantile(95)) / 1000
		}
		if d.cfg.IO != nil {
			if f, ok := d.cfg.IO.Live(); ok {
				l.IO = &f
			}
		}
		if d.cfg.OnTick != nil {
			d.cfg.OnTick(l)
		}
	}
}
