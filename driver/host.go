package driver

import (
	"fmt"

	"github.com/brokerbench/brokerbench/results"
)

// hostHeader and hostCells are the step rows' host columns (docs/host.md): the
// database host's CPU split, run queue and network traffic.
func hostHeader() string {
	return fmt.Sprintf(" %-21s %5s %9s", "CPU usr/sys/iow/st/id", "runq", "net MB/s")
}

func hostCells(st *results.Step) string {
	h := st.Host
	if h == nil || h.Source == "" || h.Source == results.HostSourceNone {
		return fmt.Sprintf(" %-21s %5s %9s", "-", "-", "-")
	}
	return fmt.Sprintf(" %-21s %5.1f %9.2f", results.CPUSplit(h.HostFigures), h.RunQueue, (h.NetRxBytes+h.NetTxBytes)/(1<<20))
}

// boundFlags names what bound the step, as SetStepFlags recorded it.
func boundFlags(st *results.Step) []string {
	var f []string
	for _, name := range []string{results.FlagCPUBound, results.FlagIOBound} {
		if results.HasFlag(st, name) {
			f = append(f, name)
		}
	}
	return f
}
