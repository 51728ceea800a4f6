package main

import (
	"fmt"

	"github.com/brokerbench/brokerbench/results"
)

// hostProbe is a driver.WindowProbe: it hands the host figures that the adapter's
// window (closed just before, from the same marks) measured to the step.
func (a *ioAdapter) hostProbe() func(*results.Step) {
	return func(st *results.Step) {
		st.Host, st.DriverHost = a.host, a.driverHost
		a.host, a.driverHost = nil, nil
	}
}

// liveHost is the live line's host figure: the database host's CPU split since the
// sampler's last reading, "" when unknown.
func (a *ioAdapter) liveHost() string {
	if a == nil {
		return ""
	}
	f, ok := a.s.LiveHost()
	if !ok || f.Cores == 0 {
		return ""
	}
	return fmt.Sprintf("  CPU %.0f %% (usr/sys/iow/st/idle %s)  runq %.0f", f.BusyPct(), results.CPUSplit(f), f.RunQueue)
}
