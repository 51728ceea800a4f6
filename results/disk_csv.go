package results

import (
	"encoding/csv"
	"io"
	"strconv"
	"time"
)

// diskCSVColumn is one column of the storage-profile CSV; the order is a public
// contract (docs/result-format.md): new columns are only appended.
type diskCSVColumn struct {
	name  string
	value func(in Input, st *DiskStep) string
}

func diskCSVColumns() []diskCSVColumn {
	value := func(name string, get func(*DiskStep) (float64, bool)) diskCSVColumn {
		return diskCSVColumn{name, func(_ Input, st *DiskStep) string {
			if v, ok := get(st); ok {
				return csvFloat(v)
			}
			return ""
		}}
	}
	metric := func(name, key string) diskCSVColumn {
		m, _ := lookupDiskMetric(key)
		return value(name, m.value)
	}
	dirCol := func(name string, pick func(*DiskStep) *DiskDir, f func(*DiskDir) float64) diskCSVColumn {
		return value(name, dirValue(pick, f))
	}
	dev := func(name string, f func(*StepIO) float64) diskCSVColumn {
		return diskCSVColumn{name, func(_ Input, st *DiskStep) string {
			if !ioKnown(st.IO) {
				return ""
			}
			return csvFloat(f(st.IO))
		}}
	}
	return append([]diskCSVColumn{
		{"file", func(in Input, _ *DiskStep) string { return in.Path }},
		{"label", func(in Input, _ *DiskStep) string { return in.Run.Label }},
		{"profile", func(_ Input, st *DiskStep) string { return st.Profile }},
		{"depth", func(_ Input, st *DiskStep) string { return strconv.Itoa(st.Depth) }},
		{"block_size", func(_ Input, st *DiskStep) string { return st.BlockSize }},
		{"started_at", func(_ Input, st *DiskStep) string { return st.StartedAt.UTC().Format(time.RFC3339) }},
		{"ramp_s", func(_ Input, st *DiskStep) string { return csvFloat(st.RampS) }},
		{"measured_s", func(_ Input, st *DiskStep) string { return csvFloat(st.MeasuredS) }},
		{"partial", func(_ Input, st *DiskStep) string { return csvBool(st.Partial) }},
		metric("iops", "iops"), metric("mbps", "mbps"),
		{"read_percent", func(_ Input, st *DiskStep) string { return csvFloat(st.ReadPercent) }},
		metric("latency_ms", "latency"),
		dirCol("read_iops", readDir, func(d *DiskDir) float64 { return d.IOPS }),
		dirCol("read_mbps", readDir, func(d *DiskDir) float64 { return d.MBps }),
		dirCol("read_avg_ms", readDir, func(d *DiskDir) float64 { return d.AvgMS }),
		dirCol("read_p50_ms", readDir, func(d *DiskDir) float64 { return d.P50MS }),
		dirCol("read_p95_ms", readDir, func(d *DiskDir) float64 { return d.P95MS }),
		dirCol("read_p99_ms", readDir, func(d *DiskDir) float64 { return d.P99MS }),
		dirCol("read_p99_9_ms", readDir, func(d *DiskDir) float64 { return d.P999MS }),
		dirCol("write_iops", writeDir, func(d *DiskDir) float64 { return d.IOPS }),
		dirCol("write_mbps", writeDir, func(d *DiskDir) float64 { return d.MBps }),
		dirCol("write_avg_ms", writeDir, func(d *DiskDir) float64 { return d.AvgMS }),
		dirCol("write_p50_ms", writeDir, func(d *DiskDir) float64 { return d.P50MS }),
		dirCol("write_p95_ms", writeDir, func(d *DiskDir) float64 { return d.P95MS }),
		dirCol("write_p99_ms", writeDir, func(d *DiskDir) float64 { return d.P99MS }),
		dirCol("write_p99_9_ms", writeDir, func(d *DiskDir) float64 { return d.P999MS }),
		{"syncs", func(_ Input, st *DiskStep) string {
			if st.Sync == nil {
				return ""
			}
			return csvInt(st.Sync.Count)
		}},
		metric("sync_p99_ms", "sync_p99"),
		dev("device_iops", func(io *StepIO) float64 { return io.ReadIOPS + io.WriteIOPS }),
		dev("device_mbps", func(io *StepIO) float64 { return io.ReadMBps + io.WriteMBps }),
		dev("device_read_await_ms", func(io *StepIO) float64 { return io.ReadAwaitMS }),
		dev("device_write_await_ms", func(io *StepIO) float64 { return io.WriteAwaitMS }),
		{"device_agrees", func(_ Input, st *DiskStep) string {
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
	for _, f := range replayFigures {
		cols = append(cols, diskCSVColumn{f.csv, func(in Input, _ *DiskStep) string {
			if r := in.Run.Disk.Replay; r != nil {
				if v, ok := f.value(r); ok {
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

// WriteDiskCSV writes one row per (run, profile step), runs in the given order and
// steps in the order they ran.
func WriteDiskCSV(w io.Writer, inputs []Input) error {
	cols := diskCSVColumns()
	cw := csv.NewWriter(w)
	if err := cw.Write(DiskCSVHeader()); err != nil {
		return err
	}
	row := make([]string, len(cols))
	for _, in := range inputs {
		for i := range in.Run.Disk.Steps {
			for c, col := range cols {
				row[c] = Printable(col.value(in, &in.Run.Disk.Steps[i]))
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
