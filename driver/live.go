package driver

import (
	"fmt"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// IOAwaitMS is the average I/O latency over reads and writes, weighted by their
// rates; 0 when nothing moved.
func IOAwaitMS(f results.IOFigures) float64 {
	n := f.ReadIOPS + f.WriteIOPS
	if n == 0 {
		return 0
	}
	return (f.ReadIOPS*f.ReadAwaitMS + f.WriteIOPS*f.WriteAwaitMS) / n
}

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
		fmt.Fprintf(&b, "  IOPS %.0f (r %.0f w %.0f)  I/O %s", l.IO.ReadIOPS+l.IO.WriteIOPS, l.IO.ReadIOPS, l.IO.WriteIOPS, fmtMS(IOAwaitMS(*l.IO)))
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

// StepHeader and StepRow print the per-step table one row at a time, as each step
// ends (fixed widths, since later rows are not known yet).
func StepHeader(withIO bool) string {
	h := fmt.Sprintf("%5s %6s %9s %8s %9s %9s %7s %7s", "step", "users", "tps", "tpsE", "avg ms", "p95 ms", "errors", "retries")
	if withIO {
		h += fmt.Sprintf(" %8s %8s %8s %7s %7s %7s", "IOPS", "I/O ms", "I/O/txn", "rd/txn", "wr/txn", "hit %") + hostHeader()
	}
	return h + "  flags"
}

// StepRow is one finished step.
func StepRow(n int, st *results.Step, withIO bool) string {
	ov := figures.StepOverall(st)
	p95 := "-"
	if ov.HasPercentiles {
		p95 = fmt.Sprintf("%.3f", ov.P95MS)
	}
	r := fmt.Sprintf("%5d %6d %9.1f %8.2f %9.3f %9s %7d %7d", n, st.Users, st.TPS, st.TPSE, ov.AvgMS, p95, ov.Errors, ov.Retries)
	if withIO {
		if io := st.IO; io != nil && io.Source != "" && io.Source != "none" {
			r += fmt.Sprintf(" %8.0f %8.3f %8.1f", io.ReadIOPS+io.WriteIOPS, IOAwaitMS(io.IOFigures), io.IOPerTxn)
			r += " " + optional("%7.2f", io.ReadsPerTxn) + " " + optional("%7.2f", io.WritesPerTxn)
		} else {
			r += fmt.Sprintf(" %8s %8s %8s %7s %7s", "-", "-", "-", "-", "-")
		}
		var hit *float64
		if st.CacheHitRatio != nil {
			h := *st.CacheHitRatio * 100
			hit = &h
		}
		r += " " + optional("%7.2f", hit) + hostCells(st)
	}
	var flags []string
	if st.Partial {
		flags = append(flags, "partial")
	}
	if st.Driver.Bottleneck {
		flags = append(flags, "driver-bound: "+st.Driver.BottleneckOn)
	}
	if st.Lag.Missed > 0 {
		flags = append(flags, fmt.Sprintf("%d starts missed", st.Lag.Missed))
	}
	if figures.BehindSchedule(st) {
		flags = append(flags, fmt.Sprintf("%s: %d starts owed", figures.FlagBehindSchedule, st.Lag.Owed))
	}
	if st.Faults != nil && st.Faults.ConnectionsLost > 0 {
		flags = append(flags, fmt.Sprintf("%d connections lost", st.Faults.ConnectionsLost))
	}
	if f := st.Faults; f != nil && f.ServerOutages > 0 {
		flags = append(flags, fmt.Sprintf("server down %.0f s, reconnected", f.ServerDownS))
	}
	if f := st.Faults; f != nil && f.ServerStalls > 0 {
		flags = append(flags, fmt.Sprintf("%s: no answer for %.0f s", results.FlagServerStall, f.ServerStallS))
	}
	if f := st.Faults; f != nil && f.ServerLost {
		flags = append(flags, "server lost")
	}
	flags = append(flags, sourceAndBottleneck(st)...)
	if d := figures.Disturbances(st); len(d) > 0 {
		flags = append(flags, "disturbed: "+strings.Join(d, ", "))
	}
	return r + "  " + strings.Join(flags, ", ")
}

// optional formats a figure that may be unknown, "-" right-aligned in its width.
func optional(format string, v *float64) string {
	if v == nil {
		return fmt.Sprintf("%*s", len(fmt.Sprintf(format, 0.0)), "-")
	}
	return fmt.Sprintf(format, *v)
}
