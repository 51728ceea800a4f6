package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// The storage-profile half of report: the reference's table (profile × outstanding
// I/Os) and each step's figures beside the device's own.

// describeDisk is the one-line identity of a storage-profile run.
func describeDisk(in results.Input) string {
	r, d := in.Run, in.Run.Disk
	t := d.Target
	where := t.Path
	var on []string
	if t.Filesystem != "" {
		on = append(on, t.Filesystem)
	}
	if t.Device != "" {
		on = append(on, "on "+t.Device)
	}
	if len(on) > 0 {
		where += " (" + strings.Join(on, " ") + ")"
	}
	head := "storage profiles on " + where
	if rp := d.Replay; rp != nil {
		how := rp.Mode
		if rp.Mapping != "" {
			how += ", " + rp.Mapping
		}
		if rp.SkipWrites {
			how += ", reads only"
		}
		head = fmt.Sprintf("replay of %s (%s) on %s", rp.Trace, how, where)
	}
	parts := []string{head, bytesize.Format(t.SizeBytes)}
	if d.FIO != "" {
		parts = append(parts, "fio "+d.FIO)
	}
	if d.Direct {
		parts = append(parts, "direct I/O")
	} else {
		parts = append(parts, "buffered I/O")
	}
	if d.Replay == nil {
		parts = append(parts, fmt.Sprintf("seed %d", r.Seed))
	}
	if r.Interrupted {
		parts = append(parts, "INTERRUPTED")
	}
	if tg := formatTags(r.Tags); tg != "" {
		parts = append(parts, "tags: "+tg)
	}
	return strings.Join(parts, ", ")
}

// WriteDiskReport prints a storage-profile run: the profile × outstanding-I/O table
// (IOPS, MB/s and average latency, as the reference reports them), then every
// step's figures per direction beside the device's.
func WriteDiskReport(w io.Writer, in results.Input) error {
	d := in.Run.Disk
	if d == nil {
		return fmt.Errorf("%s: a disk result file without its disk figures", in.Path)
	}
	fmt.Fprintf(w, "%s (%s)\n  %s\n", in.Name(), in.Path, describeDisk(in))
	if !in.Run.StartedAt.IsZero() {
		fmt.Fprintf(w, "  started %s", in.Run.StartedAt.UTC().Format("2006-01-02 15:04:05 UTC"))
		if in.Run.Tool != "" {
			fmt.Fprintf(w, ", %s", in.Run.Tool)
		}
		fmt.Fprintln(w)
	}
	for _, l := range diskRunLines(d) {
		fmt.Fprintln(w, "  "+l)
	}
	if len(d.Steps) == 0 {
		fmt.Fprintln(w, "\nno steps finished")
		return nil
	}
	for _, t := range slices.Concat([]table{diskMatrix(d)}, diskStepsTables(d), sweepTables(d)) {
		if err := writeTextTable(w, t); err != nil {
			return err
		}
	}
	for _, n := range diskNotes(d) {
		fmt.Fprintln(w, "  "+n)
	}
	return nil
}

// diskRunLines say how the run went beyond its steps: the target's preconditioning,
// a replay's fidelity to its trace.
func diskRunLines(d *results.DiskRun) []string {
	var out []string
	if pc := d.Precondition; pc != nil {
		if pc.Skipped {
			out = append(out, "not preconditioned: "+pc.SkipNote)
		} else {
			out = append(out, fmt.Sprintf("preconditioned: %s written in %.1f s (%.0f MB/s)", bytesize.Format(pc.Bytes), pc.Seconds, pc.MBps))
		}
	}
	if d.Replay != nil {
		out = append(out, FidelityLine(d.Replay))
	}
	return out
}

// diskMatrix is the reference's table: one row per profile, per depth its IOPS,
// MB/s and average latency.
func diskMatrix(d *results.DiskRun) table {
	depths := results.DepthsOf(d.Steps)
	t := table{Caption: "IOPS / MB/s / average latency ms, by outstanding I/Os", Head: []string{"profile"}}
	for _, dp := range depths {
		t.Head = append(t.Head, fmt.Sprintf("%d", dp))
	}
	for _, p := range results.ProfileOrder(d) {
		row := []cell{{Text: p, Class: "name"}}
		any := false
		for _, dp := range depths {
			st := results.StepAt(d, results.DiskKey{Profile: p, Depth: dp})
			if st == nil {
				row = append(row, dash)
				continue
			}
			any = true
			row = append(row, cell{Text: fmt.Sprintf("%.0f / %.1f / %.3f", st.IOPS, st.MBps, st.LatencyMS()), Class: "num"})
		}
		if any {
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

// diskStepsTables are every step in two tables, fio's figures per direction and
// then the device's own beside fio's: one table of 18 columns ran past the page's
// edge.
func diskStepsTables(d *results.DiskRun) []table {
	fio := table{Caption: "Steps (measured window; latency is fio's completion latency, ms)",
		Head: []string{"profile", "depth", "bs", "IOPS", "MB/s", "read %", "read avg", "read p99", "read p99.9",
			"write avg", "write p99", "write p99.9", "syncs/s", "sync p99"}}
	dev := table{Caption: "The device's own counters over each step's window, beside fio's",
		Head: []string{"profile", "depth", "bs", "IOPS", "MB/s", "device IOPS", "device MB/s", "device r/w await", "device"}}
	for _, p := range results.ProfileOrder(d) {
		for _, dp := range results.DepthsOf(d.Steps) {
			st := results.StepAt(d, results.DiskKey{Profile: p, Depth: dp})
			if st == nil {
				continue
			}
			name := cell{Text: p, Class: "name"}
			if st.Partial {
				name.Text += " (partial)"
			}
			key := []cell{name, numCell("%.0f", float64(st.Depth)), {Text: st.BlockSize},
				numCell("%.0f", st.IOPS), numCell("%.1f", st.MBps)}
			row := append(slices.Clone(key), numCell("%.1f", st.ReadPercent))
			for _, dd := range []*results.DiskDir{st.Read, st.Write} {
				if dd == nil {
					row = append(row, dash, dash, dash)
					continue
				}
				row = append(row, numCell("%.3f", dd.AvgMS), numCell("%.3f", dd.P99MS), numCell("%.3f", dd.P999MS))
			}
			if st.Sync != nil && st.MeasuredS > 0 {
				row = append(row, numCell("%.0f", float64(st.Sync.Count)/st.MeasuredS), numCell("%.3f", st.Sync.P99MS))
			} else {
				row = append(row, dash, dash)
			}
			fio.Rows = append(fio.Rows, row)
			drow := slices.Clone(key)
			if io := st.IO; figures.IOKnown(io) {
				drow = append(drow, numCell("%.0f", io.ReadIOPS+io.WriteIOPS), numCell("%.1f", io.ReadMBps+io.WriteMBps),
					cell{Text: fmt.Sprintf("%.3f / %.3f", io.ReadAwaitMS, io.WriteAwaitMS), Class: "num"})
			} else {
				drow = append(drow, dash, dash, dash)
			}
			switch {
			case st.DeviceAgrees == nil:
				drow = append(drow, cell{Text: "-"})
			case *st.DeviceAgrees:
				drow = append(drow, cell{Text: "agrees"})
			default:
				drow = append(drow, cell{Text: "DIFFERS"})
			}
			dev.Rows = append(dev.Rows, drow)
		}
	}
	return []table{fio, dev}
}

// diskNotes explain the steps whose device reading differs from fio's.
func diskNotes(d *results.DiskRun) []string {
	var notes []string
	for _, st := range d.Steps {
		if st.DeviceNote != "" {
			notes = append(notes, fmt.Sprintf("%s: %s.", results.DiskKey{Profile: st.Profile, Depth: st.Depth}, st.DeviceNote))
		}
	}
	return notes
}
