package driver

import (
	"time"

	"github.com/brokerbench/brokerbench/results"
)

// StepSource chooses a run's steps one at a time, so a run can pick its next user
// level from the step it just measured (a search for the highest level that meets a
// response-time limit). Plan.Source is the fixed staircase.
type StepSource interface {
	// Next returns the step to run after last, the step just finished as OnStep saw
	// it (nil before the first step), or false to end the run. It is not called again
	// after an interrupted or failed step. The next step starts when Next returns, so
	// it must not wait.
	Next(last *results.Step) (Level, bool)
	// Steps is how many steps the run will have, for the live line ("step 2/6");
	// 0 when the source does not know in advance.
	Steps() int
}

// Level is one step: Users held for Step, the first Warmup not measured.
type Level struct {
	Users  int
	Step   time.Duration
	Warmup time.Duration
	// OwnRate makes the step run at Rate (all starts per second; 0: unpaced) on a
	// schedule that starts with the step, instead of Config.Rate: a --find-max probe.
	// The step records the rate. Rate is the whole run's: a shard takes its 1/N.
	OwnRate bool
	Rate    float64
	// Probe, when set, is recorded on the step (why --find-max ran it).
	Probe *results.Probe
	// Settle makes this a settling window, not a step: it runs before the run's first
	// step to bring the database to a steady state, and its figures (measured over the
	// whole window: Warmup is 0) go to Config.OnSettle and to the StepSource alone.
	Settle bool
}

// Validate reports a step that cannot run, in the words of the flags.
func (l Level) Validate() error {
	return Plan{Users: []int{l.Users}, Step: l.Step, Warmup: l.Warmup}.Validate()
}

// Source is the plan as a StepSource: its levels in order, whatever they measure.
func (p Plan) Source() StepSource { return &planSource{plan: p} }

type planSource struct {
	plan Plan
	next int
}

func (s *planSource) Next(*results.Step) (Level, bool) {
	if s.next >= len(s.plan.Users) {
		return Level{}, false
	}
	u := s.plan.Users[s.next]
	s.next++
	return Level{Users: u, Step: s.plan.Step, Warmup: s.plan.Warmup}, true
}

func (s *planSource) Steps() int { return len(s.plan.Users) }

// WindowProbe measures something of its own over each step's measured window (a
// database's cache hit ratio, say). It is called as the window opens and returns the
// function that adds its figures to the step as the window closes, before OnStep
// and the StepSource see the step; nil: nothing to add. Probes run on the step's
// goroutine between the window's edges, so they must be quick (a query or two).
type WindowProbe func() func(*results.Step)
