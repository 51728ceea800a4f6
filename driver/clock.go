package driver

import (
	"context"
	"time"
)

// Clock is all the driver knows about time, so tests can replace it.
type Clock interface {
	Now() time.Time
	// Sleep waits d or until ctx ends; it returns ctx.Err() when cut short.
	Sleep(ctx context.Context, d time.Duration) error
	// After delivers the time once d has passed.
	After(d time.Duration) <-chan time.Time
}

// RealClock is the wall clock.
type RealClock struct{}

var _ Clock = RealClock{}

func (RealClock) Now() time.Time { return time.Now() }

func (RealClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

func (RealClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// sleepUntil waits until the clock reaches at.
func sleepUntil(ctx context.Context, c Clock, at time.Time) error {
	return c.Sleep(ctx, at.Sub(c.Now()))
}
