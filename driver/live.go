package driver

import (
	"fmt"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/results/figures"
)

// String is the live line: one per second during a run.
func (l Live) String() string {
	var b strings.Builder
	phase := "warm-up"
	if l.Measuring {
		phase = "measuring"
	}
	// A step source that chooses as it goes does not know the count in advance.
	steps := fmt.Sprintf("step %d/%d", l.Step, l.Steps)
	switch {
	case l.Settling:
		steps, phase = fmt.Sprintf("settling %d", l.Step), "window"
	case l.Steps == 0:
		steps = fmt.Sprint("step ", l.Step)
	}
	fmt.Fprintf(&b, "%s  %d users  %s %s  tps %.1f  tpsE %.2f  p95 %s  errors %d",
		steps, l.Users, phase, l.InStep.Truncate(time.Second), l.TPS, l.TPSE, fmtMS(l.P95MS), l.Errors)
	if l.IO != nil {
		fmt.Fprintf(&b, "  IOPS %.0f (r %.0f w %.0f)  I/O %s", l.IO.ReadIOPS+l.IO.WriteIOPS, l.IO.ReadIOPS, l.IO.WriteIOPS, fmtMS(figures.IOAwaitMS(*l.IO)))
	}
	return b.String()
}

func fmtMS(ms float64) string {
	switch {
	case ms < 10:
		return fmt.Sprintf("%.2f ms", ms)
	case ms < 1000:
		return fmt.Sprintf("%.0f ms", ms)
	}
	return fmt.Sprintf("%.1f s", ms/1000)
}
