package results

import "strings"

// diskMetric is one figure of a profile step that compare shows and gates test as
// disk.KEY. The keys are a public contract (docs/result-format.md).
type diskMetric struct {
	key, title     string
	unit           unit
	higherIsBetter bool
	value          func(st *DiskStep) (float64, bool)
}

func dirValue(pick func(*DiskStep) *DiskDir, f func(*DiskDir) float64) func(*DiskStep) (float64, bool) {
	return func(st *DiskStep) (float64, bool) {
		d := pick(st)
		if d == nil {
			return 0, false
		}
		return f(d), true
	}
}

func readDir(st *DiskStep) *DiskDir  { return st.Read }
func writeDir(st *DiskStep) *DiskDir { return st.Write }

// diskMetrics are the profile-step figures, in display order.
var diskMetrics = []diskMetric{
	{key: "iops", title: "IOPS", higherIsBetter: true, value: func(st *DiskStep) (float64, bool) { return st.IOPS, true }},
	{key: "mbps", title: "MB/s", unit: unitMBps, higherIsBetter: true, value: func(st *DiskStep) (float64, bool) { return st.MBps, true }},
	{key: "latency", title: "avg latency", unit: unitMS, value: func(st *DiskStep) (float64, bool) { return st.LatencyMS(), st.IOPS > 0 }},
	{key: "read_iops", title: "read IOPS", higherIsBetter: true, value: dirValue(readDir, func(d *DiskDir) float64 { return d.IOPS })},
	{key: "read_avg", title: "read avg", unit: unitMS, value: dirValue(readDir, func(d *DiskDir) float64 { return d.AvgMS })},
	{key: "read_p50", title: "read p50", unit: unitMS, value: dirValue(readDir, func(d *DiskDir) float64 { return d.P50MS })},
	{key: "read_p95", title: "read p95", unit: unitMS, value: dirValue(readDir, func(d *DiskDir) float64 { return d.P95MS })},
	{key: "read_p99", title: "read p99", unit: unitMS, value: dirValue(readDir, func(d *DiskDir) float64 { return d.P99MS })},
	{key: "read_p99_9", title: "read p99.9", unit: unitMS, value: dirValue(readDir, func(d *DiskDir) float64 { return d.P999MS })},
	{key: "write_iops", title: "write IOPS", higherIsBetter: true, value: dirValue(writeDir, func(d *DiskDir) float64 { return d.IOPS })},
	{key: "write_avg", title: "write avg", unit: unitMS, value: dirValue(writeDir, func(d *DiskDir) float64 { return d.AvgMS })},
	{key: "write_p50", title: "write p50", unit: unitMS, value: dirValue(writeDir, func(d *DiskDir) float64 { return d.P50MS })},
	{key: "write_p95", title: "write p95", unit: unitMS, value: dirValue(writeDir, func(d *DiskDir) float64 { return d.P95MS })},
	{key: "write_p99", title: "write p99", unit: unitMS, value: dirValue(writeDir, func(d *DiskDir) float64 { return d.P99MS })},
	{key: "write_p99_9", title: "write p99.9", unit: unitMS, value: dirValue(writeDir, func(d *DiskDir) float64 { return d.P999MS })},
	{key: "sync_p99", title: "sync p99", unit: unitMS, value: func(st *DiskStep) (float64, bool) {
		if st.Sync == nil {
			return 0, false
		}
		return st.Sync.P99MS, true
	}},
	{key: "device_iops", title: "device IOPS", higherIsBetter: true, value: func(st *DiskStep) (float64, bool) {
		if !ioKnown(st.IO) {
			return 0, false
		}
		return st.IO.ReadIOPS + st.IO.WriteIOPS, true
	}},
}

// DiskGatePrefix marks a --fail-if expression about storage profiles: disk.iops<-10%.
const DiskGatePrefix = "disk."

func lookupDiskMetric(key string) (diskMetric, bool) {
	key = strings.ToLower(strings.TrimSpace(key))
	for _, m := range diskMetrics {
		if m.key == key {
			return m, true
		}
	}
	return diskMetric{}, false
}

// asMetric lets a disk figure use the step metrics' formatting and colouring.
func (m diskMetric) asMetric() metric {
	return metric{key: m.key, title: m.title, unit: m.unit, higherIsBetter: m.higherIsBetter}
}
