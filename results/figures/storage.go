package figures

import (
	"fmt"
	"math"
	"slices"

	"github.com/brokerbench/brokerbench/results"
)

// DeviceSources are the I/O sources whose reads reached the disks.
var DeviceSources = []string{"diskstats", "node_exporter", "sqlserver_file_stats"}

// deviceCounted tells whether the step's reads per transaction came from device counters.
func deviceCounted(io *results.StepIO) bool {
	return IOKnown(io) && io.ReadsPerTxn != nil && slices.Contains(DeviceSources, io.Source)
}

// DataSourceOf applies the rule to one step.
func DataSourceOf(st *results.Step) string {
	if st.CacheHitRatio != nil && *st.CacheHitRatio > results.MemoryResidentHitRatio {
		return results.DataMemory
	}
	if !deviceCounted(st.IO) {
		return results.DataUnknown
	}
	if *st.IO.ReadsPerTxn < results.MemoryResidentReadsPerTxn {
		return results.DataMemory
	}
	if cacheWarming(st.Steadiness) {
		return results.DataWarming
	}
	return results.DataDisk
}

// cacheWarming tells whether the steadiness rule found the disks' reads falling by
// WarmingReadsDrop or more per transaction over the window. The rule's drift is of
// read IOPS, which also fall when tps falls (a host that got busier halfway through):
// the reads' change is taken against tps's, so only reads that fell for each
// transaction, a cache filling, count.
func cacheWarming(s *results.Steadiness) bool {
	if s == nil || s.ReadsHalfChange == nil || !slices.Contains(s.Drifting, "reads") || s.HalfChange <= -1 {
		return false
	}
	perTxn := (1+*s.ReadsHalfChange)/(1+s.HalfChange) - 1
	return perTxn <= -results.WarmingReadsDrop+1e-9 // a drop of exactly a third counts, rounding aside
}

// MemoryResidentAdvice is what a user can do about a memory-resident step.
const MemoryResidentAdvice = "cap the server's memory (--server-memory, or shared_buffers plus a memory limit on a server given with --db) or load more data"

// CacheHitRatio is hits ÷ (hits + reads) of page-read counter deltas over a window:
// PostgreSQL's blks_hit and blks_read, SQL Server's page lookups minus page reads
// and page reads. It is false when the window saw no page requests or a counter
// went backwards (a statistics reset).
func CacheHitRatio(hits, reads int64) (float64, bool) {
	if hits < 0 || reads < 0 || hits+reads == 0 {
		return 0, false
	}
	return float64(hits) / float64(hits+reads), true
}

// MemoryResident tells whether the rule finds the step read its data from memory.
func MemoryResident(st *results.Step) bool { return DataSourceOf(st) == results.DataMemory }

// CacheWarming tells whether the rule finds the step's cache filling in its window.
func CacheWarming(st *results.Step) bool { return DataSourceOf(st) == results.DataWarming }

// SetStepFlags recomputes the flags this file owns on every step of r: partial,
// driver-bound, knee (which moves as later steps arrive), memory-resident,
// cache-warming, disturbed and behind-schedule, and each step's data source and bottleneck; then,
// after the flags it keeps, bound.go's cpu-bound and io-bound. Flags of other names are
// kept as they are.
// Call it before writing the file.
func SetStepFlags(r *results.Run) {
	knee := Knee(r.Steps)
	own := []string{results.FlagPartial, results.FlagDriverBound, results.FlagKnee, results.FlagMemoryResident, results.FlagCacheWarming, results.FlagDisturbed, FlagBehindSchedule, FlagCPUBound, FlagIOBound}
	for i := range r.Steps {
		st := &r.Steps[i]
		kept := slices.DeleteFunc(slices.Clone(st.Flags), func(f string) bool { return slices.Contains(own, f) })
		var f []string
		if st.Partial {
			f = append(f, results.FlagPartial)
		}
		if st.Driver.Bottleneck {
			f = append(f, results.FlagDriverBound)
		}
		if i == knee {
			f = append(f, results.FlagKnee)
		}
		st.DataSource, st.Bottleneck = DataSourceOf(st), BottleneckOf(st, r.System)
		switch st.DataSource {
		case results.DataMemory:
			f = append(f, results.FlagMemoryResident)
		case results.DataWarming:
			f = append(f, results.FlagCacheWarming)
		}
		if Disturbed(st) {
			f = append(f, results.FlagDisturbed)
		}
		if BehindSchedule(st) {
			f = append(f, FlagBehindSchedule)
		}
		f = append(append(f, kept...), boundFlags(st, r.System)...)
		if len(f) == 0 {
			f = nil
		}
		st.Flags = f
	}
}

// FormatHitRatio shows a ratio as a percentage with enough digits to tell 99.9 %
// from 99.99 %: the difference between a tenth and a hundredth of the reads on disk.
func FormatHitRatio(r float64) string {
	if r >= 0.99 && r < 1 {
		return fmt.Sprintf("%.2f %%", math.Floor(r*10000)/100)
	}
	return fmt.Sprintf("%.1f %%", r*100)
}

// DiskReadShare summarises a run for quickstart's closing lines: reads from disk per
// transaction and the cache hit ratio over its measured steps (weighted by
// transactions), and whether any of that is known.
type DiskReadShare struct {
	ReadsPerTxn, HitRatio       float64
	HasReadsPerTxn, HasHitRatio bool
	MemoryResidentSteps, Steps  int
}

// SummarizeDiskReads weighs every step by its transactions.
func SummarizeDiskReads(r *results.Run) DiskReadShare {
	var s DiskReadShare
	var txnR, sumR, txnH, sumH float64
	for i := range r.Steps {
		st := &r.Steps[i]
		n := st.TPS * st.MeasuredS
		s.Steps++
		if MemoryResident(st) {
			s.MemoryResidentSteps++
		}
		if io := st.IO; IOKnown(io) && io.ReadsPerTxn != nil {
			txnR += n
			sumR += n * *io.ReadsPerTxn
		}
		if st.CacheHitRatio != nil {
			txnH += n
			sumH += n * *st.CacheHitRatio
		}
	}
	if txnR > 0 {
		s.ReadsPerTxn, s.HasReadsPerTxn = sumR/txnR, true
	}
	if txnH > 0 {
		s.HitRatio, s.HasHitRatio = sumH/txnH, true
	}
	return s
}

func HasIO(r *results.Run) bool {
	return AnyStep(r, func(st *results.Step) bool { return IOKnown(st.IO) })
}

// AnyStep tells whether f holds for any step of r: whether a column or chart has
// anything to show.
func AnyStep(r *results.Run, f func(*results.Step) bool) bool {
	for i := range r.Steps {
		if f(&r.Steps[i]) {
			return true
		}
	}
	return false
}
