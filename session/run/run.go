package run

import (
	"context"

	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/target"
)

// Run checks the options before anything starts, then runs them on the target.
func Run(ctx context.Context, g *session.Globals, o Options) (retErr error) {
	lw := newLiveWriter(g)
	s, err := newRunSession(g, o, lw)
	if err != nil {
		return err
	}
	tgt, err := target.Open(ctx, g, lw.logf)
	if err != nil {
		return err
	}
	defer func() { retErr = tgt.CloseAfter(retErr, g.Stderr) }()
	if o.RepeatOpts.Repeat > 1 {
		return runRepeats(ctx, g, o, lw, tgt)
	}
	_, err = s.run(ctx, tgt)
	return err
}
