package driver

import (
	"fmt"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
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
	return fmt.Sprintf(" %-21s %5.1f %9.2f", figures.CPUSplit(h.HostFigures), h.RunQueue, (h.NetRxBytes+h.NetTxBytes)/(1<<20))
}

// sourceAndBottleneck names where the step's data came from and what limited it, as
// SetStepFlags recorded them: two words apart, so a row reads "data disk, bottleneck cpu",
// never two kinds of "bound" at once. An unknown source or bottleneck is left out.
func sourceAndBottleneck(st *results.Step) []string {
	var f []string
	if st.DataSource != "" && st.DataSource != results.DataUnknown {
		f = append(f, "data "+st.DataSource)
	}
	if st.Bottleneck != "" && st.Bottleneck != figures.BottleneckNone && st.Bottleneck != figures.BottleneckDriver {
		f = append(f, "bottleneck "+st.Bottleneck)
	}
	return f
}
