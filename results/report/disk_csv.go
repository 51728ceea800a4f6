package report

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
)

// diskCSVColumn is one column of the storage-profile CSV; the order is a public
// contract (docs/result-format.md): new columns are only appended.
type diskCSVColumn struct {
	name  string
	value func(in results.Input, st *results.DiskStep) string
}

func diskCSVColumns() []diskCSVColumn {
	value := func(name string, get func(*results.DiskStep) (float64, bool)) diskCSVColumn {
		return diskCSVColumn{name, func(_ results.Input, st *results.DiskStep) string {
			if v, ok := get(st); ok {
				return csvFloat(v)
			}
			return ""
		}}
	}
	metric := func(name, key string) diskCSVColumn {
		m, _ := figures.LookupDiskMetric(key)
		return value(name, m.Value)
	}
	dirCol := func(name string, pick func(*results.DiskStep) *results.DiskDir, f func(*results.DiskDir) float64) diskCSVColumn {
		return value(name, figures.DirValue(pick, f))
	}
	dev := func(name string, f func(*results.StepIO) float64) diskCSVColumn {
		return diskCSVColumn{name, func(_ results.Input, st *results.DiskStep) string {
			if !figures.IOKnown(st.IO) {
				return ""
			}
			return csvFloat(f(st.IO))
		}}
	}
	return append([]diskCSVColumn{
		{"file", func(in results.Input, _ *results.DiskStep) string { return in.Path }},
		{"label", func(in results.Input, _ *results.DiskStep) string { return in.Run.Label }},
		{"profile", func(_ results.Input, st *results.DiskStep) string { return st.Profile }},
		{"depth", func(_ results.Input, st *results.DiskStep) string { return strconv.Itoa(st.Depth) }},
		{"block_size", func(_ results.Input, st *results.DiskStep) string { return st.BlockSize }},
		{"started_at", func(_ results.Input, st *results.DiskStep) string { return st.StartedAt.UTC().Format(time.RFC3339) }},
		{"ramp_s", func(_ results.Input, st *results.DiskStep) string { return csvFloat(st.RampS) }},
		{"measured_s", func(_ results.Input, st *results.DiskStep) string { return csvFloat(st.MeasuredS) }},
		{"partial", func(_ results.Input, st *results.DiskStep) string { return csvBool(st.Partial) }},
		metric("iops", "iops"), metric("mbps", "mbps"),
		{"read_percent", func(_ results.Input, st *results.DiskStep) string { return csvFloat(st.ReadPercent) }},
		metric("latency_ms", "latency"),
		dirCol("read_iops", figures.ReadDir, func(d *results.DiskDir) float64 { return d.IOPS }),
		dirCol("read_mbps", figures.ReadDir, func(d *results.DiskDir) float64 { return d.MBps }),
		dirCol("read_avg_ms", figures.ReadDir, func(d *results.DiskDir) float64 { return d.AvgMS }),
		dirCol("read_p50_ms", figures.ReadDir, func(d *results.DiskDir) float64 { return d.P50MS }),
		dirCol("read_p95_ms", figures.ReadDir, func(d *results.DiskDir) float64 { return d.P95MS }),
		dirCol("read_p99_ms", figures.ReadDir, func(d *results.DiskDir) float64 { return d.P99MS }),
		dirCol("read_p99_9_ms", figures.ReadDir, func(d *results.DiskDir) float64 { return d.P999MS }),
		dirCol("write_iops", figures.WriteDir, func(d *results.DiskDir) float64 { return d.IOPS }),
		dirCol("write_mbps", figures.WriteDir, func(d *results.DiskDir) float64 { return d.MBps }),
		dirCol("write_avg_ms", figures.WriteDir, func(d *results.DiskDir) float64 { return d.AvgMS }),
		dirCol("write_p50_ms", figures.WriteDir, func(d *results.DiskDir) float64 { return d.P50MS }),
		dirCol("write_p95_ms", figures.WriteDir, func(d *results.DiskDir) float64 { return d.P95MS }),
		dirCol("write_p99_ms", figures.WriteDir, func(d *results.DiskDir) float64 { return d.P99MS }),
		dirCol("write_p99_9_ms", figures.WriteDir, func(d *results.DiskDir) float64 { return d.P999MS }),
		{"syncs", func(_ results.Input, st *results.DiskStep) string {
			if st.Sync == nil {
				return ""
			}
			return csvInt(st.Sync.Count)
		}},
		metric("sync_p99_ms", "sync_p99"),
		dev("device_iops", func(io *results.StepIO) float64 { return io.ReadIOPS + io.WriteIOPS }),
		dev("device_mbps", func(io *results.StepIO) float64 { return io.ReadMBps + io.WriteMBps }),
		dev("device_read_await_ms", func(io *results.StepIO) float64 { return io.ReadAwaitMS }),
		dev("device_write_await_ms", func(io *results.StepIO) float64 { return io.WriteAwaitMS }),
		{"device_agrees", func(_ results.Input, st *results.DiskStep) string {
			if st.DeviceAgrees == nil {
				return ""
			}
			return csvBool(*st.DeviceAgrees)
		}},
	}, replayCSVColumns()...)
}

// replayCSVColumns are a replay's fidelity figures, as compare shows them beside its
// step (replayFigures); empty for a profile's step.
func replayCSVColumns() []diskCSVColumn {
	var cols []diskCSVColumn
	for _, f := range compare.ReplayFigures {
		cols = append(cols, diskCSVColumn{f.CSV, func(in results.Input, _ *results.DiskStep) string {
			if r := in.Run.Disk.Replay; r != nil {
				if v, ok := f.Value(r); ok {
					return csvFloat(v)
				}
			}
			return ""
		}})
	}
	return cols
}

// DiskCSVHeader is the storage-profile CSV's column names in order.
func DiskCSVHeader() []string {
	cols := diskCSVColumns()
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.name
	}
	return out
}

// WriteDiskCSV writes one row per (run, profile step), runs in the given order (a
// side's repeats after it) and steps in the order they ran.
func WriteDiskCSV(w io.Writer, inputs []results.Input) error {
	return writeDiskCSV(w, inputs, nil, nil)
}

// writeDiskCSV is WriteDiskCSV with the extra columns' names and, for side r's step
// st, their cells.
func writeDiskCSV(w io.Writer, inputs []results.Input, extra []string, cells func(r int, st *results.DiskStep) []string) error {
	cols := diskCSVColumns()
	cw := csv.NewWriter(w)
	if err := cw.Write(append(DiskCSVHeader(), extra...)); err != nil {
		return err
	}
	row := make([]string, len(cols)+len(extra))
	for r, side := range inputs {
		for _, in := range side.All() {
			for i := range in.Run.Disk.Steps {
				st := &in.Run.Disk.Steps[i]
				for c, col := range cols {
					row[c] = results.Printable(col.value(in, st))
				}
				if cells != nil {
					for c, x := range cells(r, st) {
						row[len(cols)+c] = results.Printable(x)
					}
				}
				if err := cw.Write(row); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// DiskIntervalKeys are the storage-profile figures whose change compare's CSV
// carries with its interval when a side has repeats, as IntervalKeys do for the
// runs': <key>_change_pct, <key>_change_lo, <key>_change_hi, <key>_verdict each,
// then <key>_detectable_pct and <key>_verdict_reason each. The order is a public
// contract: columns are only appended.
var DiskIntervalKeys = []string{"iops", "mbps", "latency", "read_p99", "write_p99"}

// DiskCompareCSVHeader is the storage-profile CSV's columns, then the changes.
func DiskCompareCSVHeader() []string {
	return append(DiskCSVHeader(), intervalColumns(DiskIntervalKeys)...)
}

// WriteDiskComparisonCSV writes compare --csv for storage profiles. One run a side
// writes exactly the storage-profile CSV (WriteDiskCSV): with nothing to judge, no
// columns to carry it. With repeats every run is a row of its own, followed by its
// side's change against the base at the step with its 95 % interval, verdict,
// detectable difference and the reason for no verdict (empty on the base's rows
// and unmatched steps), as the runs' compare --csv does.
func WriteDiskComparisonCSV(c *compare.DiskComparison, w io.Writer) error {
	if !c.HasRepeats() {
		return WriteDiskCSV(w, c.Inputs)
	}
	extra := DiskCompareCSVHeader()[len(DiskCSVHeader()):]
	return writeDiskCSV(w, c.Inputs, extra, func(r int, st *results.DiskStep) []string {
		cells := make([]string, len(extra))
		k := results.DiskKey{Profile: st.Profile, Depth: st.Depth}
		if r == 0 || !slices.Contains(c.Keys, k) {
			return cells
		}
		for j, key := range DiskIntervalKeys {
			m, _ := figures.LookupDiskMetric(key)
			e, ok := c.Estimate(k, r, m)
			if !ok {
				continue
			}
			estimateCSVCells(cells, j, len(DiskIntervalKeys), e)
		}
		return cells
	})
}
