package report

import (
	"fmt"
	"strings"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// StepHeader and StepRow print a run's per-step table live, one row as each step
// ends (fixed widths, since later rows are not known yet); the report's table of the
// same steps is stepsTable, its letters for these flags stepFlags.
func StepHeader(withIO bool) string {
	h := fmt.Sprintf("%5s %6s %9s %8s %9s %9s %7s %7s", "step", "users", "tps", "tpsE", "avg ms", "p95 ms", "errors", "retries")
	if withIO {
		h += fmt.Sprintf(" %8s %8s %8s %7s %7s %7s", "IOPS", "I/O ms", "I/O/txn", "rd/txn", "wr/txn", "hit %") + liveHostHeader()
	}
	return h + "  flags"
}

// leadingFigures are the figures every rendering of a step opens with, as text:
// users, tps, tpsE, avg ms, p95 ms ("-" without percentiles), errors and retries.
// The live row pads them to fixed widths; the report's table puts them in cells.
func leadingFigures(st *results.Step) []string {
	ov := figures.StepOverall(st)
	p95 := "-"
	if ov.HasPercentiles {
		p95 = fmt.Sprintf("%.3f", ov.P95MS)
	}
	return []string{fmt.Sprint(st.Users), fmt.Sprintf("%.1f", st.TPS), fmt.Sprintf("%.2f", st.TPSE),
		fmt.Sprintf("%.3f", ov.AvgMS), p95, fmt.Sprint(ov.Errors), fmt.Sprint(ov.Retries)}
}

// StepRow is one finished step.
func StepRow(n int, st *results.Step, withIO bool) string {
	f := leadingFigures(st)
	r := fmt.Sprintf("%5d %6s %9s %8s %9s %9s %7s %7s", n, f[0], f[1], f[2], f[3], f[4], f[5], f[6])
	if withIO {
		if io := st.IO; io != nil && io.Source != "" && io.Source != "none" {
			r += fmt.Sprintf(" %8.0f %8.3f %8.1f", io.ReadIOPS+io.WriteIOPS, figures.IOAwaitMS(io.IOFigures), io.IOPerTxn)
			r += " " + optional("%7.2f", io.ReadsPerTxn) + " " + optional("%7.2f", io.WritesPerTxn)
		} else {
			r += fmt.Sprintf(" %8s %8s %8s %7s %7s", "-", "-", "-", "-", "-")
		}
		var hit *float64
		if st.CacheHitRatio != nil {
			h := *st.CacheHitRatio * 100
			hit = &h
		}
		r += " " + optional("%7.2f", hit) + liveHostCells(st)
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

// StepNote is printed under a step's live row (StepRow): what broke, and advice
// for an unsteady step; the report says the same in its limits column and notes.
func StepNote(lims results.Limits, r *results.Run, st *results.Step) string {
	var notes []string
	if n := figures.NominalShortNote(r, st); n != "" {
		notes = append(notes, n)
	}
	if v := figures.JudgeLimits(lims, st); !v.Pass {
		notes = append(notes, "limits: FAIL: "+v.Why)
	}
	if results.HasFlag(st, results.FlagUnsteady) && st.Steadiness != nil {
		notes = append(notes, "unsteady: "+figures.DescribeDrift(st.Steadiness)+" between the window's halves; lengthen --warmup or --step")
	}
	if len(notes) == 0 {
		return ""
	}
	return "      " + strings.Join(notes, "; ")
}

// optional formats a figure that may be unknown, "-" right-aligned in its width.
func optional(format string, v *float64) string {
	if v == nil {
		return fmt.Sprintf("%*s", len(fmt.Sprintf(format, 0.0)), "-")
	}
	return fmt.Sprintf(format, *v)
}

// liveHostHeader and liveHostCells are the live step rows' host columns (docs/host.md): the
// database host's CPU split, run queue and network traffic.
func liveHostHeader() string {
	return fmt.Sprintf(" %-21s %5s %9s", "CPU usr/sys/iow/st/id", "runq", "net MB/s")
}

func liveHostCells(st *results.Step) string {
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
