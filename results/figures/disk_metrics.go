package figures

import (
	"strings"

	"github.com/brokerbench/brokerbench/results"
)

// DiskMetric is one figure of a profile step that compare shows and gates test as
// disk.KEY. The keys are a public contract (docs/result-format.md).
type DiskMetric struct {
	Key, Title     string
	Unit           Unit
	higherIsBetter bool
	Value          func(st *results.DiskStep) (float64, bool)
}

func DirValue(pick func(*results.DiskStep) *results.DiskDir, f func(*results.DiskDir) float64) func(*results.DiskStep) (float64, bool) {
	return func(st *results.DiskStep) (float64, bool) {
		d := pick(st)
		if d == nil {
			return 0, false
		}
		return f(d), true
	}
}

func ReadDir(st *results.DiskStep) *results.DiskDir  { return st.Read }
func WriteDir(st *results.DiskStep) *results.DiskDir { return st.Write }

// DiskMetrics are the profile-step figures, in display order.
var DiskMetrics = []DiskMetric{
	{Key: "iops", Title: "IOPS", higherIsBetter: true, Value: func(st *results.DiskStep) (float64, bool) { return st.IOPS, true }},
	{Key: "mbps", Title: "MB/s", Unit: unitMBps, higherIsBetter: true, Value: func(st *results.DiskStep) (float64, bool) { return st.MBps, true }},
	{Key: "latency", Title: "avg latency", Unit: UnitMS, Value: func(st *results.DiskStep) (float64, bool) { return st.LatencyMS(), st.IOPS > 0 }},
	{Key: "read_iops", Title: "read IOPS", higherIsBetter: true, Value: DirValue(ReadDir, func(d *results.DiskDir) float64 { return d.IOPS })},
	{Key: "read_avg", Title: "read avg", Unit: UnitMS, Value: DirValue(ReadDir, func(d *results.DiskDir) float64 { return d.AvgMS })},
	{Key: "read_p50", Title: "read p50", Unit: UnitMS, Value: DirValue(ReadDir, func(d *results.DiskDir) float64 { return d.P50MS })},
	{Key: "read_p95", Title: "read p95", Unit: UnitMS, Value: DirValue(ReadDir, func(d *results.DiskDir) float64 { return d.P95MS })},
	{Key: "read_p99", Title: "read p99", Unit: UnitMS, Value: DirValue(ReadDir, func(d *results.DiskDir) float64 { return d.P99MS })},
	{Key: "read_p99_9", Title: "read p99.9", Unit: UnitMS, Value: DirValue(ReadDir, func(d *results.DiskDir) float64 { return d.P999MS })},
	{Key: "write_iops", Title: "write IOPS", higherIsBetter: true, Value: DirValue(WriteDir, func(d *results.DiskDir) float64 { return d.IOPS })},
	{Key: "write_avg", Title: "write avg", Unit: UnitMS, Value: DirValue(WriteDir, func(d *results.DiskDir) float64 { return d.AvgMS })},
	{Key: "write_p50", Title: "write p50", Unit: UnitMS, Value: DirValue(WriteDir, func(d *results.DiskDir) float64 { return d.P50MS })},
	{Key: "write_p95", Title: "write p95", Unit: UnitMS, Value: DirValue(WriteDir, func(d *results.DiskDir) float64 { return d.P95MS })},
	{Key: "write_p99", Title: "write p99", Unit: UnitMS, Value: DirValue(WriteDir, func(d *results.DiskDir) float64 { return d.P99MS })},
	{Key: "write_p99_9", Title: "write p99.9", Unit: UnitMS, Value: DirValue(WriteDir, func(d *results.DiskDir) float64 { return d.P999MS })},
	{Key: "sync_p99", Title: "sync p99", Unit: UnitMS, Value: func(st *results.DiskStep) (float64, bool) {
		if st.Sync == nil {
			return 0, false
		}
		return st.Sync.P99MS, true
	}},
	{Key: "device_iops", Title: "device IOPS", higherIsBetter: true, Value: func(st *results.DiskStep) (float64, bool) {
		if !IOKnown(st.IO) {
			return 0, false
		}
		return st.IO.ReadIOPS + st.IO.WriteIOPS, true
	}},
}

// DiskGatePrefix marks a --fail-if expression about storage profiles: disk.iops<-10%.
const DiskGatePrefix = "disk."

func LookupDiskMetric(key string) (DiskMetric, bool) {
	key = strings.ToLower(strings.TrimSpace(key))
	for _, m := range DiskMetrics {
		if m.Key == key {
			return m, true
		}
	}
	return DiskMetric{}, false
}

// HigherIsBetter tells whether a rise of the figure is better (IOPS, MB/s) rather
// than worse (latencies).
func (m DiskMetric) HigherIsBetter() bool { return m.higherIsBetter }

// AsMetric lets a disk figure use the step metrics' formatting and colouring.
func (m DiskMetric) AsMetric() Metric {
	return Metric{Key: m.Key, Title: m.Title, Unit: m.Unit, HigherIsBetter: m.higherIsBetter}
}
