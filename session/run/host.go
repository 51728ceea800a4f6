package run

import (
	"fmt"

	"github.com/brokerbench/brokerbench/results/figures"
)

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
	return fmt.Sprintf("  CPU %.0f %% (usr/sys/iow/st/idle %s)  runq %.0f", f.BusyPct(), figures.CPUSplit(f), f.RunQueue)
}
