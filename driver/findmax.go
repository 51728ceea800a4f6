package driver

import (
	"context"
	"fmt"
	"math"
)

// The --find-max search: the largest offered load at which every response-time
// limit holds and errors stay under 1 %. It starts from a measured estimate (a
// calibration probe without a pacer, whose tps the database and the users gave) or
// from a given load, grows the load geometrically until a probe fails (or shrinks
// it until one passes), then bisects between the highest passing and the lowest
// failing load until they are within the resolution. A failing bound measured
// before the passing one (a colder database) is probed once more before the search
// believes it, and so is a passing probe whose figures were still moving
// (Unsteady). What a probe is (a step at a paced rate) is the caller's: the search
// only asks "run this load and tell me its outcome", so it is tested as a table
// against a fake database of known capacity.

// ProbeRequest is one probe the search asks for.
type ProbeRequest struct {
	N    int     // 1-based probe number
	Load float64 // the offered load to hold
	Why  string  // why this load, for the live output and the result file
}

// ProbeOutcome is what one probe found.
type ProbeOutcome struct {
	// Pass: every limit held and errors stayed under 1 %.
	Pass bool
	// DriverBound: the load driver itself limited the probe, so its verdict says
	// nothing about the database; the search stops rather than report a false
	// maximum.
	DriverBound bool
	// Why is what failed ("Trade-Status p90 1.3 s > 1 s"), or the driver's reason.
	Why string
	// Limiting is the transaction furthest over its limit, "" when none broke.
	Limiting string
	// Step is the probe's index in the result file's steps.
	Step      int
	TPS, TPSE float64
	// Unsteady: the probe's figures still moved across its window (a cache still
	// warming); a passing unsteady probe is run again before the search believes it.
	Unsteady bool
}

// Prober runs one probe. An error ends the search (an interrupt: ctx's error).
type Prober interface {
	Probe(ctx context.Context, req ProbeRequest) (ProbeOutcome, error)
}

// ProberFunc adapts a function to Prober.
type ProberFunc func(ctx context.Context, req ProbeRequest) (ProbeOutcome, error)

// Probe calls f.
func (f ProberFunc) Probe(ctx context.Context, req ProbeRequest) (ProbeOutcome, error) {
	return f(ctx, req)
}

// Search defaults.
const (
	DefaultSearchGrowth     = 2.0
	DefaultSearchResolution = 0.05
	DefaultSearchMaxProbes  = 12
)

// DefaultSearchConfig is run --find-max's search without --rate: a calibration
// probe, then growth x2 and bisection to 5 %, at most 12 probes in all.
func DefaultSearchConfig() SearchConfig {
	return SearchConfig{Calibrate: true, Growth: DefaultSearchGrowth, Resolution: DefaultSearchResolution, MaxProbes: DefaultSearchMaxProbes}
}

// SearchConfig bounds the search.
type SearchConfig struct {
	// Calibrate makes the first probe an unpaced one (Load 0): the search then
	// starts from the tps it measured, and Start is not used. A database of any
	// capacity is then resolved within a few probes of its estimate, where a fixed
	// start would spend the probe budget doubling towards it.
	Calibrate  bool
	Start      float64 // the first load without Calibrate; must be positive
	Growth     float64 // factor between probes before the first failure (and after, shrinking); > 1
	Resolution float64 // stop when the lowest failing load is within this fraction above the highest passing one
	MaxProbes  int     // at most this many probes
	// Floor is the lowest load worth probing when even the start fails; below it
	// the search reports that nothing passed. 0: Start/1000.
	Floor float64
	// Ceiling, when positive, is the highest load to try; a search that passes
	// there stops with "ceiling".
	Ceiling float64
}

// Why a search ended (results.Max.Stopped).
const (
	StopResolved   = "resolved"
	StopMaxProbes  = "max-steps"
	StopDriver     = "driver-bottleneck"
	StopInterrupt  = "interrupted"
	StopNonePassed = "none-passed"
	StopCeiling    = "ceiling"
)

// ProbeRecord is one probe run and its outcome.
type ProbeRecord struct {
	ProbeRequest
	Outcome ProbeOutcome
}

// SearchResult is where the search ended.
type SearchResult struct {
	Probes []ProbeRecord
	// Best is the highest passing probe, NextUp the lowest failing probe above it;
	// either is nil when there is none.
	Best, NextUp *ProbeRecord
	Stopped      string
	// Note explains the stop in words.
	Note string
}

// Validate reports a configuration the search cannot run, in the words of the flags.
func (c SearchConfig) Validate() error {
	switch {
	case !c.Calibrate && (!(c.Start > 0) || math.IsInf(c.Start, 0)):
		return fmt.Errorf("--find-max needs a positive start load, got %g", c.Start)
	case !(c.Growth > 1) || math.IsInf(c.Growth, 0):
		return fmt.Errorf("--growth must be above 1, got %g", c.Growth)
	case !(c.Resolution > 0) || c.Resolution >= 1:
		return fmt.Errorf("--resolution must be above 0 %% and below 100 %%, got %g %%", c.Resolution*100)
	case c.MaxProbes < 1:
		return fmt.Errorf("--max-steps must be at least 1, got %d", c.MaxProbes)
	case c.Calibrate && c.MaxProbes < 2:
		return fmt.Errorf("--max-steps must be at least 2 with the calibration probe, got %d", c.MaxProbes)
	case c.Ceiling < 0 || (c.Ceiling > 0 && !c.Calibrate && c.Ceiling < c.Start):
		return fmt.Errorf("the ceiling %g is below the start %g", c.Ceiling, c.Start)
	}
	return nil
}

// FindMax runs the search. It returns the probes done and the best passing load so
// far in every case; the error is the prober's (ctx's error on an interrupt, with
// Stopped "interrupted").
func FindMax(ctx context.Context, cfg SearchConfig, p Prober) (SearchResult, error) {
	if err := cfg.Validate(); err != nil {
		return SearchResult{}, err
	}
	s := &search{cfg: cfg, p: p, best: -1, next: -1, confirmed: map[float64]bool{}, reprobed: map[float64]bool{},
		load: roundLoad(cfg.Start), why: "start"}
	n := 1
	if cfg.Calibrate {
		if res, done, err := s.calibrate(ctx); done {
			return res, err
		}
		n = 2
	}
	s.floor = cfg.Floor
	if s.floor <= 0 {
		s.floor = s.load / 1000
	}
	for ; ; n++ {
		if n > cfg.MaxProbes {
			return s.finish(StopMaxProbes, fmt.Sprintf("stopped after --max-steps %d probes before the maximum was resolved to %.0f %%", cfg.MaxProbes, cfg.Resolution*100)), nil
		}
		if err := ctx.Err(); err != nil {
			return s.finish(StopInterrupt, "interrupted; the best passing load so far is kept"), err
		}
		out, err := s.probe(ctx, ProbeRequest{N: n, Load: s.load, Why: s.why})
		if err != nil {
			return s.failed(ctx, "interrupted; the best passing load so far is kept", err)
		}
		if out.DriverBound {
			return s.finish(StopDriver, fmt.Sprintf("the load driver itself was the bottleneck at %s (%s): its figures understate the database, so the search stops here rather than report a false maximum; run the driver on a bigger or separate machine, or give more --users", formatLoad(s.load), out.Why)), nil
		}
		if out.Pass && out.Unsteady && !s.reprobed[s.load] {
			// Its figures were still moving: the database may not hold this load
			// once they settle. Run it again on the now warmer database.
			s.reprobed[s.load] = true
			s.why = fmt.Sprintf("re-probing %s: it passed but was unsteady", formatLoad(s.load))
			continue
		}
		if stopped, note := s.advance(out); stopped != "" {
			return s.finish(stopped, note), nil
		}
	}
}

// search is one FindMax: the probes so far and what they say of the next load.
type search struct {
	cfg                 SearchConfig
	p                   Prober
	res                 SearchResult
	best, next          int // indices into res.Probes: the highest pass, the lowest failure above it
	confirmed, reprobed map[float64]bool
	// overturned: a confirmation just passed where a probe had failed, so the
	// maximum likely lies just above; the next growth is one small step
	// (1 + 2 × resolution) before the search grows by the full factor again.
	overturned  bool
	load, floor float64
	why         string
}

// finish ends the search with the probes done.
func (s *search) finish(stopped, note string) SearchResult {
	s.res.Stopped, s.res.Note = stopped, note
	if s.best >= 0 {
		s.res.Best = &s.res.Probes[s.best]
	}
	if s.next >= 0 {
		s.res.NextUp = &s.res.Probes[s.next]
	}
	return s.res
}

// failed ends the search on the prober's error: an interrupt when ctx ended.
func (s *search) failed(ctx context.Context, interrupted string, err error) (SearchResult, error) {
	if ctx.Err() != nil {
		return s.finish(StopInterrupt, interrupted), err
	}
	return s.finish("error", err.Error()), err
}

// probe runs one probe and records it.
func (s *search) probe(ctx context.Context, req ProbeRequest) (ProbeOutcome, error) {
	out, err := s.p.Probe(ctx, req)
	if err == nil {
		s.res.Probes = append(s.res.Probes, ProbeRecord{req, out})
	}
	return out, err
}

// calibrate runs the probe without a pacer and sets the first load just under the tps
// it measured; done says the search ends there.
func (s *search) calibrate(ctx context.Context) (res SearchResult, done bool, err error) {
	out, err := s.probe(ctx, ProbeRequest{N: 1, Load: 0, Why: CalibrationWhy})
	if err != nil {
		res, err = s.failed(ctx, "interrupted during the calibration", err)
		return res, true, err
	}
	if out.DriverBound {
		return s.finish(StopDriver, fmt.Sprintf("the load driver itself was the bottleneck in the calibration (%s): run the driver on a bigger or separate machine", out.Why)), true, nil
	}
	if !(out.TPS > 0) {
		return s.finish(StopNonePassed, "the calibration measured no transactions: "+out.Why), true, nil
	}
	// Unpaced, the users drove the database to saturation (or as far as they
	// could): a paced load at that rate queues without bound, so the first probe
	// sits just under it.
	s.load = roundLoad(out.TPS * CalibrationShare)
	if s.cfg.Ceiling > 0 && s.load > s.cfg.Ceiling {
		s.load = s.cfg.Ceiling
	}
	s.why = fmt.Sprintf("calibrated: %s tps unpaced", formatLoad(out.TPS))
	return SearchResult{}, false, nil
}

// advance takes the last probe's outcome into the bounds and picks the next load:
// grow while every probe passed, shrink while every one failed, else confirm a
// failure that ran on a colder database or bisect. A non-empty stopped ends the search.
func (s *search) advance(out ProbeOutcome) (stopped, note string) {
	cfg, i := s.cfg, len(s.res.Probes)-1
	if out.Pass {
		s.best = i
		if s.next >= 0 && s.res.Probes[s.next].Load <= s.load {
			s.next = -1 // a confirmation passed: the earlier failure was not the database's limit
			s.overturned = true
		}
	} else {
		s.next = i
	}
	lo, hi := 0.0, 0.0
	if s.best >= 0 {
		lo = s.res.Probes[s.best].Load
	}
	if s.next >= 0 {
		hi = s.res.Probes[s.next].Load
	}
	switch {
	case s.next < 0: // every probe passed: grow
		if cfg.Ceiling > 0 && s.load >= cfg.Ceiling {
			return StopCeiling, fmt.Sprintf("passed at the ceiling %s; the maximum lies higher", formatLoad(s.load))
		}
		growth := cfg.Growth
		if s.overturned {
			growth, s.overturned = min(growth, 1+2*cfg.Resolution), false
		}
		s.load = roundLoad(s.load * growth)
		if cfg.Ceiling > 0 && s.load > cfg.Ceiling {
			s.load = cfg.Ceiling
		}
		s.why = fmt.Sprintf("growing x%g: %s passed", growth, formatLoad(lo))
	case s.best < 0: // every probe failed: shrink
		if s.load <= s.floor {
			return StopNonePassed, fmt.Sprintf("no load down to %s passed: %s", formatLoad(s.load), out.Why)
		}
		s.load = max(roundLoad(s.load/cfg.Growth), s.floor)
		s.why = fmt.Sprintf("shrinking /%g: %s failed (%s)", cfg.Growth, formatLoad(hi), s.res.Probes[s.next].Outcome.Why)
	case s.res.Probes[s.next].N < s.res.Probes[s.best].N && !s.confirmed[hi]:
		// The failure bounding the maximum came before the pass below it: it ran
		// on a colder database (the first probe after a restart warms the cache
		// for the rest). Believe it only once it fails again.
		if hi <= lo*(1+cfg.Resolution) || roundLoad((lo+hi)/2) <= lo {
			s.confirmed[hi] = true
			s.load = hi
			s.why = fmt.Sprintf("confirming %s: it failed (%s) before %s passed", formatLoad(hi), s.res.Probes[s.next].Outcome.Why, formatLoad(lo))
			return "", ""
		}
		fallthrough
	default:
		return s.bisect(lo, hi)
	}
	return "", ""
}

// bisect halves the interval between the highest pass lo and the lowest failure hi,
// or stops when it is resolved.
func (s *search) bisect(lo, hi float64) (stopped, note string) {
	if hi <= lo*(1+s.cfg.Resolution) {
		return StopResolved, fmt.Sprintf("resolved to %.0f %%: %s passed, %s failed", s.cfg.Resolution*100, formatLoad(lo), formatLoad(hi))
	}
	mid := roundLoad((lo + hi) / 2)
	if mid <= lo || mid >= hi {
		// The loads are too close for the rounding to split them further.
		return StopResolved, fmt.Sprintf("resolved: %s passed, %s failed", formatLoad(lo), formatLoad(hi))
	}
	s.load = mid
	s.why = fmt.Sprintf("bisecting: %s passed, %s failed (%s)", formatLoad(lo), formatLoad(hi), s.res.Probes[s.next].Outcome.Why)
	return "", ""
}

// CalibrationShare is where the first probe after the calibration sits, as a share
// of the calibration's tps.
const CalibrationShare = 0.9

// CalibrationWhy is the calibration probe's reason, as the result file records it.
const CalibrationWhy = "calibration: unpaced, to measure where to start"

// roundLoad keeps three significant digits: finer than any resolution the search
// stops at, and loads a person can read and repeat ("437 tps", not "437.5000001").
func roundLoad(x float64) float64 {
	if x <= 0 {
		return x
	}
	exp := int(math.Floor(math.Log10(x))) - 2
	if exp < 0 {
		// Divide by an exact power of ten rather than multiply by an inexact 0.1.
		inv := math.Pow10(-exp)
		return math.Round(x*inv) / inv
	}
	mag := math.Pow10(exp)
	return math.Round(x/mag) * mag
}

func formatLoad(x float64) string { return fmt.Sprintf("%.4g", x) }
