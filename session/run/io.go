package run

import (
	"fmt"

	"github.com/brokerbench/brokerbench/internal/iostat"
	"github.com/brokerbench/brokerbench/results"
)

// ioAdapter gives the driver its view of the I/O sampler: the window figures of each
// step, the live line's. It keeps the last closed window's cache hit ratio and host
// figures, from the same marks, for windowProbe, which the driver runs right after it.
type ioAdapter struct {
	s        *iostat.Sampler
	hitRatio *float64
	// background: the last window's checkpoints and autovacuum, for windowProbe.
	background *results.Background
	// host and driverHost: the last window's host figures, for windowProbe.
	host, driverHost *results.StepHost
	// capture, with run --capture-io, traces each window from the read of its first
	// edge to the read of its last.
	capture *stepCapture
	// settling tells whether the window opening is a settling window (settle.go).
	settling func() bool
}

func (a *ioAdapter) Begin() func(txns, commits int64) *results.StepIO {
	capture := a.capture
	if a.settling != nil && a.settling() {
		capture = nil // a settling window is not a step: no step-N trace
	}
	if capture != nil {
		capture.arm()
	}
	m := a.s.Mark()
	if capture != nil {
		capture.from(m.At)
	}
	return func(txns, commits int64) *results.StepIO {
		if capture != nil {
			capture.hold()
		}
		end := a.s.Mark()
		if capture != nil {
			capture.until(end.At)
		}
		a.hitRatio = nil
		if r, ok := a.s.HitRatio(m, end); ok {
			a.hitRatio = &r
		}
		a.background = nil
		if bg, ok := a.s.Background(m, end); ok {
			a.background = &bg
		}
		a.host, a.driverHost = a.s.HostWindow(m, end)
		return a.s.Window(m, end, txns, commits)
	}
}

func (a *ioAdapter) Live() (results.IOFigures, bool) {
	f := a.s.Live()
	return f, a.s.Source() != iostat.SourceNone
}

// windowProbe is a driver.WindowProbe: it hands the cache hit ratio and the host
// figures that the adapter's window (closed just before, from the same marks)
// measured to the step.
func (a *ioAdapter) windowProbe() func(*results.Step) {
	return func(st *results.Step) {
		st.CacheHitRatio, st.Host, st.DriverHost, st.Background = a.hitRatio, a.host, a.driverHost, a.background
		a.hitRatio, a.host, a.driverHost, a.background = nil, nil, nil, nil
	}
}

// liveHitRatio is the live line's cache figure, "" when unknown.
func (a *ioAdapter) liveHitRatio() string {
	if a == nil {
		return ""
	}
	if r, ok := a.s.LiveHitRatio(); ok {
		return fmt.Sprintf("  hit %.1f %%", r*100)
	}
	return ""
}
