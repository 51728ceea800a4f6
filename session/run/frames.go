package run

import (
	"context"
	"fmt"
	"time"

	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/txn"
)

// openFrames sets where the run's frames run (--frames). Server frames need the
// database's server routines: a database loaded before they existed, or by an
// older brokerbench, gets this build's; one whose routines are newer, or whose
// server cannot run them (MySQL, without sequences), is refused before anything runs.
func (s *runSession) openFrames(ctx context.Context) error {
	f, err := txn.ParseFrames(s.opts.Frames)
	if err != nil {
		return session.UsageError{Err: err}
	}
	s.frames = f
	if f != txn.ServerFrames {
		return nil
	}
	if msg := txn.FramesUnavailableOn(s.db); msg != "" {
		return session.Usagef("--frames server: %s", msg)
	}
	did, err := txn.EnsureRoutines(ctx, s.db, time.Now())
	if err != nil {
		return fmt.Errorf("--frames server: %w", err)
	}
	s.lw.logf("run: server frames, routines version %d (%s)", txn.RoutinesVersion, did)
	return nil
}
