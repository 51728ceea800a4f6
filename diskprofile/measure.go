package diskprofile

import (
	"fmt"

	"github.com/brokerbench/brokerbench/internal/fio"
	"github.com/brokerbench/brokerbench/results"
)

const mib = 1 << 20

// Figures fills a step's fio figures from fio's output: the profile's jobs are one
// reporting group, so the first job entry holds them all.
func Figures(st *results.DiskStep, out *fio.Output) {
	if out == nil || len(out.Jobs) == 0 {
		return
	}
	j := out.Jobs[0]
	st.Read, st.Write = dir(j.Read), dir(j.Write)
	var ios int64
	for _, d := range []*results.DiskDir{st.Read, st.Write} {
		if d != nil {
			st.IOPS += d.IOPS
			st.MBps += d.MBps
			ios += d.IOs
		}
	}
	if ios > 0 && st.Read != nil {
		st.ReadPercent = round2(float64(st.Read.IOs) / float64(ios) * 100)
	}
	// fio 3.33 leaves sync.total_ios at 0 and counts the syncs in their latency's N.
	if n := max(j.Sync.TotalIOs, j.Sync.Lat.N); n > 0 {
		st.Sync = &results.DiskSync{Count: n, AvgMS: ms(j.Sync.Lat.Mean)}
		if v, ok := j.Sync.Lat.At(99); ok {
			st.Sync.P99MS = ms(float64(v))
		}
	}
	if len(j.IODepthLevel) > 0 {
		st.DepthLevels = j.IODepthLevel
	}
}

// dir is one direction's figures; nil when it did no I/O.
func dir(d fio.DirStats) *results.DiskDir {
	if d.TotalIOs == 0 {
		return nil
	}
	out := &results.DiskDir{IOs: d.TotalIOs, IOPS: round2(d.IOPS), MBps: round2(float64(d.BWBytes) / mib),
		AvgRequestB: round2(float64(d.IOBytes) / float64(d.TotalIOs)),
		AvgMS:       ms(d.CLat.Mean), MaxMS: ms(float64(d.CLat.Max))}
	for _, p := range []struct {
		q   float64
		dst *float64
	}{{50, &out.P50MS}, {95, &out.P95MS}, {99, &out.P99MS}, {99.9, &out.P999MS}} {
		if v, ok := d.CLat.At(p.q); ok {
			*p.dst = ms(float64(v))
		}
	}
	return out
}

func ms(ns float64) float64 { return round4(ns / 1e6) }

func round2(v float64) float64 { return float64(int64(v*100+0.5)) / 100 }
func round4(v float64) float64 { return float64(int64(v*10000+0.5)) / 10000 }

// CheckDevice compares the device's reading of a step with fio's and records
// whether they agree (within results.DeviceTolerance, on IOPS or, when the block
// layer merged or split requests, on MB/s) and, when not, how they differ.
func CheckDevice(st *results.DiskStep) {
	io := st.IO
	if io == nil || io.Source == "" || io.Source == "none" || st.IOPS == 0 {
		return
	}
	devIOPS := io.ReadIOPS + io.WriteIOPS
	devMBps := io.ReadMBps + io.WriteMBps
	near := func(a, b float64) bool {
		return b > 0 && a >= b*(1-results.DeviceTolerance) && a <= b*(1+results.DeviceTolerance)
	}
	agrees := near(devIOPS, st.IOPS) || near(devMBps, st.MBps)
	st.DeviceAgrees = &agrees
	switch {
	case agrees && !near(devIOPS, st.IOPS) && st.Sync != nil && devIOPS > st.IOPS:
		st.DeviceNote = fmt.Sprintf("the device saw %.0f IOPS for fio's %.0f at the same MB/s: the syncs reach it as flush requests of their own", devIOPS, st.IOPS)
	case agrees && !near(devIOPS, st.IOPS):
		st.DeviceNote = fmt.Sprintf("the device saw %.0f IOPS for fio's %.0f at the same MB/s: the block layer merged or split requests", devIOPS, st.IOPS)
	case agrees:
	case devMBps > st.MBps:
		st.DeviceNote = fmt.Sprintf("the device moved %.1f MB/s for fio's %.1f (%.0f IOPS for %.0f): other I/O on the device, or the file system's journal and metadata", devMBps, st.MBps, devIOPS, st.IOPS)
	default:
		st.DeviceNote = fmt.Sprintf("the device moved %.1f MB/s for fio's %.1f (%.0f IOPS for %.0f): I/O served or held above the device (the page cache, a throttle or another layer in between) or a device window that missed part of the step", devMBps, st.MBps, devIOPS, st.IOPS)
	}
}
