package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/chart"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/results/stats"
)

// diskFootnote says how the runs' steps were measured, for the kinds of step they
// hold: a profile's step ramps up before its window; a replay has no ramp-up, its
// window is the whole replay; device figures are only where a step read the device.
func diskFootnote(inputs []results.Input) string {
	var profiles, replays, device bool
	for _, in := range inputs {
		d := in.Run.Disk
		replays = replays || d.Replay != nil
		profiles = profiles || d.Replay == nil
		device = device || slices.ContainsFunc(d.Steps, func(st results.DiskStep) bool { return st.IO != nil })
	}
	var s []string
	if profiles {
		s = append(s, "Each profile's step ran on fio for its ramp-up, then measured.")
	}
	if replays {
		s = append(s, "A replay ran the captured trace on fio with no ramp-up: its window is the whole replay.")
	}
	s = append(s, "Latency is fio's completion latency (submission to completion).")
	if device {
		s = append(s, "Device figures come from the block device's own counters over the same window.")
	}
	return strings.Join(s, " ")
}

// diskRunsTable lists storage-profile runs: target, size, fio, seed, tags.
func diskRunsTable(inputs []results.Input) table {
	t := table{Caption: "Storage-profile runs", Head: []string{"run", "file", "target", "size", "fio", "I/O", "seed", "tags", "started"}}
	for _, in := range inputs {
		r, d := in.Run, in.Run.Disk
		seed := fmt.Sprint(r.Seed)
		if d.Replay != nil {
			seed = "-" // a replay's offsets and sizes are the trace's
		}
		io := "buffered"
		if d.Direct {
			io = "direct"
		}
		target := strings.TrimSpace(d.Target.Path + " " + d.Target.Filesystem + " " + d.Target.Device)
		t.Rows = append(t.Rows, []cell{{Text: in.Name(), Class: "name"}, {Text: in.Path}, {Text: target},
			{Text: bytesize.Format(d.Target.SizeBytes)}, {Text: d.FIO}, {Text: io}, {Text: seed},
			{Text: formatTags(r.Tags)}, {Text: startedText(r)}})
	}
	return t
}

// depthAxis ticks the chart at the depths run, on a log scale when they double.
func depthAxis(inputs []results.Input) chart.Options {
	var xs []float64
	for _, in := range allRuns(inputs) {
		for _, d := range results.DepthsOf(in.Run.Disk.Steps) {
			xs = append(xs, float64(d))
		}
	}
	return usersAxis(xs)
}

// sideProfileLine is a side's metric m for one profile against outstanding I/Os:
// at each depth the mean of its runs that have the step (one run's own values).
func sideProfileLine(name string, runs []results.Input, profile string, m figures.DiskMetric, color int, dashed bool) chart.Line {
	l := chart.Line{Name: name, Color: color, Dashed: dashed}
	var steps []results.DiskStep
	for _, run := range runs {
		steps = append(steps, run.Run.Disk.Steps...)
	}
	for _, dp := range results.DepthsOf(steps) {
		var xs []float64
		for _, run := range runs {
			if st := results.StepAt(run.Run.Disk, results.DiskKey{Profile: profile, Depth: dp}); st != nil {
				if v, ok := m.Value(st); ok {
					xs = append(xs, v)
				}
			}
		}
		if len(xs) > 0 {
			mean, _ := stats.MeanSD(xs)
			l.Xs = append(l.Xs, float64(dp))
			l.Ys = append(l.Ys, mean)
		}
	}
	return l
}

// diskCharts draws, per profile, IOPS and average latency against outstanding
// I/Os, one line per run. A profile measured at one depth only (the WAL's, each
// step of a block-size sweep) gets no chart: one point per line says nothing the
// tables do not, and a sweep drew a page of such charts before its own.
func diskCharts(inputs []results.Input, profiles []string) ([]htmlChart, error) {
	iops, _ := figures.LookupDiskMetric("iops")
	lat, _ := figures.LookupDiskMetric("latency")
	opts := depthAxis(inputs)
	var out []htmlChart
	for _, p := range profiles {
		if mostDepths(inputs, p) < 2 {
			continue
		}
		for _, spec := range []struct {
			m             figures.DiskMetric
			title, ylabel string
		}{{iops, "IOPS", "IOPS"}, {lat, "average latency", "ms"}} {
			var lines []chart.Line
			for r, in := range inputs {
				name := in.Name()
				if len(inputs) == 1 {
					name = spec.title
				}
				lines = append(lines, sideProfileLine(name, in.All(), p, spec.m, r, false))
			}
			title := fmt.Sprintf("%s: %s against outstanding I/Os", p, spec.title)
			svg, err := chart.SVG(title, "outstanding I/Os", spec.ylabel, lines, opts)
			if err != nil {
				return nil, err
			}
			out = withChart(out, title, svg)
		}
	}
	return out, nil
}

// WriteDiskReportHTML writes a storage-profile run as one self-contained page: the
// profile × outstanding-I/O table, IOPS and latency against outstanding I/Os per
// profile, and every step's figures.
func WriteDiskReportHTML(w io.Writer, in results.Input) error {
	d := in.Run.Disk
	p := htmlPage{Title: "brokerbench storage profiles: " + in.Name(), Subtitle: describeDisk(in),
		Notes: diskRunLines(d), Runs: diskRunsTable([]results.Input{in}), Footnotes: append([]string{diskFootnote([]results.Input{in})}, diskNotes(d)...)}
	var err error
	if p.Charts, err = diskCharts([]results.Input{in}, results.ProfileOrder(d)); err != nil {
		return err
	}
	sweep, err := sweepCharts(d)
	if err != nil {
		return err
	}
	p.Charts = append(p.Charts, sweep...)
	p.Tables = slices.Concat([]table{diskMatrix(d)}, diskStepsTables(d), sweepTables(d))
	return writePage(w, p)
}

// WriteDiskComparisonHTML writes the storage-profile comparison as one self-contained page, with
// the gates' outcome (trips as given by CheckGates).
func WriteDiskComparisonHTML(c *compare.DiskComparison, w io.Writer, gates []compare.DiskGate, trips []string) error {
	names := make([]string, len(c.Inputs))
	for r, in := range c.Inputs {
		names[r] = in.Name()
	}
	p := htmlPage{Title: "brokerbench storage-profile comparison: " + strings.Join(names, " vs "),
		Subtitle:  "Changes are relative to the first run, " + names[0] + ", at the same profile and outstanding I/Os.",
		Runs:      diskRunsTable(allRuns(c.Inputs)),
		Footnotes: []string{diskFootnote(allRuns(c.Inputs))}}
	for r := 1; r < len(c.Inputs); r++ {
		for _, h := range c.Headlines(r) {
			p.Notes = append(p.Notes, names[r]+" vs "+names[0]+", "+h)
		}
		for _, why := range c.VerdictReasons(r) {
			p.Notes = append(p.Notes, names[r]+" vs "+names[0]+": no verdict: "+why)
		}
	}
	for _, warn := range c.Warnings() {
		p.Alerts = append(p.Alerts, "Not comparable: "+warn)
	}
	for _, t := range trips {
		p.Alerts = append(p.Alerts, "Gate tripped: "+t)
	}
	if len(gates) > 0 && len(trips) == 0 {
		gs := make([]string, len(gates))
		for i, g := range gates {
			gs[i] = g.String()
		}
		p.Notes = append(p.Notes, "Gates passed: "+strings.Join(gs, "; "))
	}
	var profiles []string
	for _, k := range c.Keys {
		if len(profiles) == 0 || profiles[len(profiles)-1] != k.Profile {
			profiles = append(profiles, k.Profile)
		}
	}
	var err error
	if p.Charts, err = diskCharts(c.Inputs, profiles); err != nil {
		return err
	}
	p.Tables = DiskComparisonTables(c)
	return writePage(w, p)
}

// allRuns are every run of the sides: each side, then its repeats.
func allRuns(sides []results.Input) []results.Input {
	var out []results.Input
	for _, in := range sides {
		out = append(out, in.All()...)
	}
	return out
}

// mostDepths is the most outstanding-I/O levels any of the runs measured profile p at.
func mostDepths(inputs []results.Input, p string) int {
	most := 0
	for _, in := range allRuns(inputs) {
		n := 0
		for _, st := range in.Run.Disk.Steps {
			if st.Profile == p {
				n++
			}
		}
		most = max(most, n)
	}
	return most
}
