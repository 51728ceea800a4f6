package run

import (
	"context"

	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/target"
)

// Session is one run, for a caller that opens the target itself and does more
// around the run (quickstart: a load before it, a report after it). Run is the whole
// of `brokerbench run`.
type Session struct{ s *runSession }

// New checks the options (usage errors) before anything starts; the session speaks
// on g's console, its live line included.
func New(g *session.Globals, o Options) (*Session, error) {
	s, err := newRunSession(g, o, newLiveWriter(g))
	if err != nil {
		return nil, err
	}
	return &Session{s: s}, nil
}

// Plan is the run's plan: its user levels, step and warm-up.
func (s *Session) Plan() driver.Plan { return s.s.plan }

// Logf says a line of progress on the console, clearing the live line first.
func (s *Session) Logf(format string, args ...any) { s.s.lw.logf(format, args...) }

// RunOn runs every phase on the open target tgt (the caller closes it). The result
// comes back even with an error when the file holds steps (an interrupted run).
func (s *Session) RunOn(ctx context.Context, tgt *target.Target) (*Result, error) {
	return s.s.run(ctx, tgt)
}
