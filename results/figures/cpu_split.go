package figures

import (
	"fmt"

	"github.com/brokerbench/brokerbench/results"
)

// CPUSplit is "62/30/1/0/7": user, system, iowait, steal and idle, percent of all cores.
func CPUSplit(f results.HostFigures) string {
	return fmt.Sprintf("%.0f/%.0f/%.0f/%.0f/%.0f", f.UserPct, f.SystemPct, f.IOWaitPct, f.StealPct, f.IdlePct)
}
