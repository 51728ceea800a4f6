package run

import (
	"sync"

	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/session"
)

// LimitOptions are run's flags for response-time limits and the --find-max search.
type LimitOptions struct {
	Limits     []string
	FindMax    bool
	Resolution float64 // percent
	Growth     float64
	MaxSteps   int
}

// limits is the catalogue's defaults with the --limit overrides applied (usage errors).
func (o *LimitOptions) limits() (results.Limits, error) {
	l, err := driver.Workload().Limits(o.Limits)
	if err != nil {
		return nil, session.UsageError{Err: err}
	}
	return l, nil
}

// check reports bad --limit and --find-max options before anything starts.
func (o *LimitOptions) check(rate float64, users []int) error {
	if _, err := o.limits(); err != nil {
		return err
	}
	if o.FindMax {
		if _, err := o.searchConfig(rate, users); err != nil {
			return err
		}
	}
	return nil
}

// searchConfig checks the --find-max options against the run's (usage errors).
func (o *LimitOptions) searchConfig(rate float64, users []int) (driver.SearchConfig, error) {
	if len(users) != 1 {
		return driver.SearchConfig{}, session.Usagef("--find-max holds one user count while it varies --rate; give --users N (got %d levels)", len(users))
	}
	// Without --rate the search measures where to start (a calibration probe).
	cfg := driver.SearchConfig{Calibrate: rate == 0, Start: rate, Growth: o.Growth, Resolution: o.Resolution / 100, MaxProbes: o.MaxSteps, Floor: 1}
	if rate > 0 && cfg.Start < cfg.Floor {
		cfg.Floor = cfg.Start
	}
	if err := cfg.Validate(); err != nil {
		return cfg, session.UsageError{Err: err}
	}
	return cfg, nil
}

// stepJudge annotates every finished step before it is stored: which limits broke,
// how steady its tps was, and the "unsteady" flag. It learns per-second tps from
// the driver's live ticks of the measured window.
type stepJudge struct {
	lims results.Limits
	// liveHit, when set, is the cache hit ratio of the last second (a steadiness
	// sample; false when unknown).
	liveHit func() (float64, bool)

	mu      sync.Mutex
	step    int // the live step the samples belong to
	samples results.SteadySamples
}

func newStepJudge(lims results.Limits) *stepJudge { return &stepJudge{lims: lims} }

// tick takes one live tick: a measuring second's tps and p95 (when it finished any
// transaction) are samples of the step's window, and so is the hit ratio when known
// and new (the sampler's counters move once per --io-interval, and the live ratio
// repeats its last value between); a warm-up tick or another step starts the
// samples afresh. The disks' reads come from the step's own I/O series (judge).
func (j *stepJudge) tick(l driver.Live) {
	var hit float64
	hitOK := false
	if j.liveHit != nil && l.Measuring {
		hit, hitOK = j.liveHit()
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if !l.Measuring || l.Step != j.step {
		j.samples = results.SteadySamples{}
		j.step = l.Step
	}
	if !l.Measuring {
		return
	}
	s := &j.samples
	s.TPS = append(s.TPS, l.TPS)
	if l.TPS > 0 {
		s.P95MS = append(s.P95MS, l.P95MS)
	}
	if hitOK && (len(s.HitRatio) == 0 || hit != s.HitRatio[len(s.HitRatio)-1]) {
		s.HitRatio = append(s.HitRatio, hit)
	}
}

// judge fills the step's limits, steadiness and flags, and starts the next step's
// samples afresh.
func (j *stepJudge) judge(st *results.Step) {
	j.mu.Lock()
	samples := j.samples
	j.samples = results.SteadySamples{}
	j.mu.Unlock()
	if st.IO != nil {
		for _, p := range st.IO.Series {
			samples.ReadIOPS = append(samples.ReadIOPS, p.ReadIOPS)
		}
	}
	st.LimitsBroken = figures.BrokenLimits(j.lims, st)
	if s, unsteady := figures.SteadinessOfSamples(samples); s != nil {
		st.Steadiness = s
		if unsteady {
			results.AddFlag(st, results.FlagUnsteady)
		}
	}
}

// wrap hooks the judge into a driver configuration: ticks feed it, and every step
// is judged before the configuration's own OnStep stores and prints it.
func (j *stepJudge) wrap(cfg *driver.Config) {
	onTick, onStep := cfg.OnTick, cfg.OnStep
	cfg.OnTick = func(l driver.Live) {
		j.tick(l)
		if onTick != nil {
			onTick(l)
		}
	}
	cfg.OnStep = func(st *results.Step) {
		j.judge(st)
		if onStep != nil {
			onStep(st)
		}
	}
}

// probeOutcome turns a probe's step into the search's verdict.
func probeOutcome(lims results.Limits, st *results.Step, index int) driver.ProbeOutcome {
	v := figures.JudgeLimits(lims, st)
	out := driver.ProbeOutcome{Pass: v.Pass, Why: v.Why, Limiting: v.Limiting, Step: index, TPS: st.TPS, TPSE: st.TPSE,
		Unsteady: results.HasFlag(st, results.FlagUnsteady)}
	if st.Driver.Bottleneck {
		out.DriverBound, out.Why = true, st.Driver.BottleneckOn
	}
	return out
}

// maxOf is the result file's "max" from the search.
func maxOf(res driver.SearchResult, users int, resolution float64) *results.Max {
	m := &results.Max{Dimension: "rate", Users: users, Step: -1, Resolution: resolution, Stopped: res.Stopped, Note: res.Note}
	if res.Stopped == driver.StopResolved {
		m.Note = ""
	}
	if b := res.Best; b != nil {
		m.Load, m.TPS, m.TPSE, m.Step = b.Load, b.Outcome.TPS, b.Outcome.TPSE, b.Outcome.Step
	}
	if n := res.NextUp; n != nil {
		m.NextLoad, m.LimitedBy, m.NextWhy = n.Load, n.Outcome.Limiting, n.Outcome.Why
	}
	return m
}
