package run

import (
	"time"

	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/session"
)

// --settle: windows at the first step's users before the first step, until the
// database holds still (results/settle.go, docs/result-format.md "settle").

const (
	// SettleAuto and settleOff are --settle's words beside a budget (cmd's default
	// is SettleAuto).
	SettleAuto = "auto"
	settleOff  = "off"
	// defaultSettleMax is auto's budget with --repeat: a freshly loaded database
	// under a capped server climbed for minutes of 8 users before its tps held still
	// (its cache, then the storage's own caches under it, warming).
	defaultSettleMax = 5 * time.Minute
	// maxSettleWindow bounds a window when --warmup is long: results.SettleSpan
	// windows of it are the shortest settling.
	maxSettleWindow = 30 * time.Second
)

// settleMax is --settle as a budget: auto settles for up to defaultSettleMax before
// the first of several repeats (whose verdict needs them alike) and not before a
// single run; off or 0 never; a duration is the budget. Sharded runs do not settle:
// each shard would end its settling at its own moment and their steps would not line
// up.
func (o Options) settleMax() (time.Duration, error) {
	var d time.Duration
	switch o.Settle {
	case SettleAuto:
		if o.RepeatOpts.Repeat > 1 && o.Shard == "" {
			d = defaultSettleMax
		}
		return d, nil
	case settleOff:
		return 0, nil
	}
	d, err := time.ParseDuration(o.Settle)
	switch {
	case err != nil:
		return 0, session.Usagef("--settle takes auto, off or a duration such as 5m, got %q", o.Settle)
	case d < 0:
		return 0, session.Usagef("--settle must not be negative, got %s", o.Settle)
	case d > 0 && o.Shard != "":
		return 0, session.Usagef("--settle cannot be combined with --shard: each shard would settle at its own moment and the steps would not line up; settle with a short unsharded run first")
	case d > 0 && d < figures.SettleSpan*settleWindow(o.Warmup):
		return 0, session.Usagef("--settle %s is shorter than the %d windows of %s the rule needs (windows are --warmup long, %s to %s)",
			o.Settle, figures.SettleSpan, settleWindow(o.Warmup), driver.MinSettleWindow, maxSettleWindow)
	}
	return d, nil
}

// settleWindow is a settling window's length: the warm-up the user chose for a step
// (how long they expect a change to take hold), within MinSettleWindow..maxSettleWindow.
func settleWindow(warmup time.Duration) time.Duration {
	return min(max(warmup, driver.MinSettleWindow), maxSettleWindow)
}

// settled wraps src in settling windows when this run settles: --settle's budget,
// and only the first of several repeats, or a run again of it (--replace-disturbed:
// the first one's window may have been a cache still warming); later repeats start
// on the settled server. Each window is logged as it is judged, and the record goes
// into the result file with the first step.
func (s *runSession) settled(src driver.StepSource) driver.StepSource {
	if s.settleMax <= 0 || (s.repeat != nil && s.repeat.Index > 1) {
		return src
	}
	win := settleWindow(s.plan.Warmup)
	st := driver.NewSettleSteps(src, win, s.settleMax)
	s.lw.logf("settling: the first step's users in windows of %s until tps and reads per transaction hold still (at most %s)", win, s.settleMax)
	st.OnWindow = func(r *results.Settle) {
		w := r.Windows[len(r.Windows)-1]
		line := results.SettleWindowText(len(r.Windows), w)
		switch {
		case r.Steady:
			line += "; " + r.Summary()
		case len(r.Windows) >= figures.SettleSpan:
			line += "; not yet: " + r.Why
		}
		s.lw.clear()
		s.lw.logf("%s", line)
	}
	s.settler = st
	if s.ioAd != nil {
		s.ioAd.settling = func() bool { return !st.Settled() }
	}
	return st
}

// keepSettle puts the settling's record into the result file, once the first step
// has started or the run ended in it.
func (s *runSession) keepSettle() {
	if s.settler == nil || s.result.Settle != nil || len(s.settler.Record.Windows) == 0 {
		return
	}
	rec := s.settler.Record
	s.result.Settle = &rec
}
