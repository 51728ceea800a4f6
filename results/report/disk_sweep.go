package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/chart"
	"github.com/brokerbench/brokerbench/results/figures"
)

// Block-size sweeps (disk --block-sizes): a profile run at several request sizes at
// one number of outstanding I/Os, each size a step named PROFILE@SIZE. The sweep's
// limitsTable and charts put MB/s, IOPS and latency beside what the host's CPUs and
// network spent, as the reference's block-size table does (docs/host.md).

// sweepKey is one sweep: a base profile at one depth.
type sweepKey struct {
	profile string
	depth   int
}

// sweeps groups the steps of swept profiles by base profile and depth, each in run
// order; keys in order of first appearance.
func sweeps(d *results.DiskRun) ([]sweepKey, map[sweepKey][]*results.DiskStep) {
	var keys []sweepKey
	by := map[sweepKey][]*results.DiskStep{}
	for i := range d.Steps {
		st := &d.Steps[i]
		base, _, ok := strings.Cut(st.Profile, "@")
		if !ok {
			continue
		}
		k := sweepKey{base, st.Depth}
		if _, seen := by[k]; !seen {
			keys = append(keys, k)
		}
		by[k] = append(by[k], st)
	}
	return keys, by
}

// blockBytes reads a request size as fio does ("512", "4k", "1m"); 0 when it cannot.
func blockBytes(s string) float64 {
	s = strings.ToLower(strings.TrimSpace(s))
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "k"):
		mult, s = 1024, strings.TrimSuffix(s, "k")
	case strings.HasSuffix(s, "m"):
		mult, s = 1<<20, strings.TrimSuffix(s, "m")
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0
	}
	return v * mult
}

// sweepTables are one table per sweep: per block size the storage's figures and
// the host's CPU split and network load in the same window.
func sweepTables(d *results.DiskRun) []table {
	keys, by := sweeps(d)
	var out []table
	for _, k := range keys {
		t := table{Caption: fmt.Sprintf("Block-size sweep: %s at %d outstanding", k.profile, k.depth),
			Head: []string{"block size", "MB/s", "IOPS", "avg ms", "host CPU %", "usr/sys/iow/steal/idle %", "net MB/s", "link %"}}
		for _, st := range by[k] {
			row := []cell{{Text: st.BlockSize}, numCell("%.1f", st.MBps), numCell("%.0f", st.IOPS), numCell("%.3f", st.LatencyMS())}
			if h := st.Host; figures.HostKnown(h) {
				link := dash
				if h.NetLinkPct != nil {
					link = numCell("%.1f", *h.NetLinkPct)
				}
				row = append(row, numCell("%.1f", h.BusyPct()), cell{Text: figures.CPUSplit(h.HostFigures), Class: "num"},
					numCell("%.2f", (h.NetRxBytes+h.NetTxBytes)/figures.MiB), link)
			} else {
				row = append(row, dash, dash, dash, dash)
			}
			t.Rows = append(t.Rows, row)
		}
		out = append(out, t)
	}
	return out
}

// sweepCharts draw, per sweep, MB/s against block size and the host's CPU against
// block size (busy, and system apart: the part a storage stack's driver costs).
func sweepCharts(d *results.DiskRun) ([]htmlChart, error) {
	keys, by := sweeps(d)
	var out []htmlChart
	for _, k := range keys {
		mb := chart.Line{Name: "MB/s", Color: 0}
		busy := chart.Line{Name: "host CPU busy %", Color: 1}
		sys := chart.Line{Name: "host CPU system %", Color: 2, Dashed: true}
		names := map[float64]string{}
		for _, st := range by[k] {
			x := blockBytes(st.BlockSize)
			if x <= 0 {
				continue
			}
			names[x] = st.BlockSize
			mb.Xs, mb.Ys = append(mb.Xs, x), append(mb.Ys, st.MBps)
			if figures.HostKnown(st.Host) {
				busy.Xs, busy.Ys = append(busy.Xs, x), append(busy.Ys, st.Host.BusyPct())
				sys.Xs, sys.Ys = append(sys.Xs, x), append(sys.Ys, st.Host.SystemPct)
			}
		}
		// Ticks named as the sweep names its sizes: "1m" and "2m", not 1048576 and
		// 2097152 printed over each other.
		opts := chart.Options{XTicks: mb.Xs, LogX: true, XLabel: func(x float64) string { return names[x] }}
		for _, c := range []struct {
			title, ylabel string
			lines         []chart.Line
		}{
			{fmt.Sprintf("%s at %d outstanding: MB/s against block size", k.profile, k.depth), "MB/s", []chart.Line{mb}},
			{fmt.Sprintf("%s at %d outstanding: host CPU against block size", k.profile, k.depth), "% of all cores", []chart.Line{busy, sys}},
		} {
			svg, err := chart.SVG(c.title, "block size", c.ylabel, c.lines, opts)
			if err != nil {
				return nil, err
			}
			out = withChart(out, c.title, svg)
		}
	}
	return out, nil
}
