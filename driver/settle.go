package driver

import (
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// SettleSteps runs settling windows before a source's first step: the first step's
// users, in windows of Window, until results.Settle's rule finds the database
// steady or Max is spent, then the source's steps as they come. The windows are
// not steps (Level.Settle): the run records only Record.
type SettleSteps struct {
	inner  StepSource
	window time.Duration
	max    time.Duration
	first  Level
	state  settleState
	// Record is what the windows showed; complete once the first step has started.
	Record results.Settle
	// OnWindow, when set, sees the record after each window is judged (the log line).
	OnWindow func(*results.Settle)
}

type settleState int

const (
	settleNotStarted settleState = iota
	settleRunning
	settleDone
)

// MinSettleWindow is the shortest settling window: under it a window's tps and reads
// per transaction are a few seconds' noise.
const MinSettleWindow = 5 * time.Second

// NewSettleSteps settles before inner's steps in windows of window, for at most max.
func NewSettleSteps(inner StepSource, window, max time.Duration) *SettleSteps {
	return &SettleSteps{inner: inner, window: window, max: max,
		Record: results.Settle{WindowS: window.Seconds(), MaxS: max.Seconds(), Windows: []results.SettleWindow{}}}
}

var _ StepSource = (*SettleSteps)(nil)

// Next returns a settling window while the database is not yet steady and the budget
// allows another, then the inner source's steps.
func (s *SettleSteps) Next(last *results.Step) (Level, bool) {
	switch s.state {
	case settleNotStarted:
		first, more := s.inner.Next(nil)
		if !more {
			s.state = settleDone
			return first, false
		}
		s.first, s.state = first, settleRunning
		return s.settleLevel(), true
	case settleRunning:
		if last != nil {
			s.Record.Windows = append(s.Record.Windows, figures.SettleWindowOf(last))
		}
		figures.JudgeSettle(&s.Record)
		if s.OnWindow != nil {
			s.OnWindow(&s.Record)
		}
		if s.Record.Steady || s.Record.Elapsed()+s.window.Seconds() > s.max.Seconds() {
			s.state = settleDone
			return s.first, true
		}
		return s.settleLevel(), true
	}
	return s.inner.Next(last)
}

// settleLevel is one window at the first step's users and rate, measured whole.
func (s *SettleSteps) settleLevel() Level {
	return Level{Users: s.first.Users, Step: s.window, OwnRate: s.first.OwnRate, Rate: s.first.Rate, Settle: true}
}

// Steps is the inner source's count: settling windows are not steps.
func (s *SettleSteps) Steps() int { return s.inner.Steps() }

// Settled tells whether the settling is over (the first step has started).
func (s *SettleSteps) Settled() bool { return s.state == settleDone }
