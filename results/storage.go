package results

import (
	"fmt"
	"math"
	"slices"
)

// Whether a step exercised the storage: its reads and writes per transaction, the
// database's cache hit ratio, and where its data came from (docs/result-format.md,
// "Data source and bottleneck").

// Step flag names stored in steps[].flags. Other code may add its own names; these
// functions only ever set or clear their own.
const (
	FlagPartial        = "partial"
	FlagDriverBound    = "driver-bound"
	FlagKnee           = "knee"
	FlagMemoryResident = "memory-resident"
	FlagCacheWarming   = "cache-warming"
	// FlagServerOutage: the server stopped answering during the step and came back
	// within the grace period; FlagServerLost: it did not, and the run ended there.
	FlagServerOutage = "server-outage"
	FlagServerLost   = "server-lost"
	// FlagServerStall: the server answered nothing, not even the run's liveness
	// probe, for a while during the step and answered again within the grace period.
	FlagServerStall = "server-stall"
)

// The data-source rule (docs/storage-bound.md, "The data-source rule"): a step read
// its data from memory when the database found more than MemoryResidentHitRatio of its
// page reads in its own cache, or when device counters show the disks served fewer than
// MemoryResidentReadsPerTxn reads per transaction. A TPC-E-like step that reads from disk
// reads 10 to 100 pages per transaction; a database held in memory (its own cache or
// the OS page cache) reads well under one: on docs/storage-bound.md's runs the uncapped
// steps read 0.63 and 0.27 per transaction, the capped ones 18 to 31.
//
// Writes do not enter the rule. An earlier rule also called a step memory-resident when
// it wrote more than it read, which holds for a database in memory (its WAL and
// checkpoints still write) but misjudges a write-heavy step that reads from disk all the
// same: a capped step at 32.3 reads and 49.6 writes per transaction, hit ratio 85 %, read
// from disk.
//
// A step whose disks' reads fell steadily through its window (the steadiness rule finds
// a drift in reads, down by WarmingReadsDrop or more from the first half to the second)
// is warming: its cache filled while it was measured, so it measured neither the disk nor
// memory, and its figures compare with nothing.
//
// Only device counters can tell: a database's own views (PostgreSQL's) count a read
// the OS page cache served as a read, so a database the OS caches whole looks read
// from disk there. Without device counters a step's source is unknown unless its hit
// ratio alone shows memory. SQL Server's file statistics count its reads, which bypass
// the OS cache, so they are device counters in this sense.
const (
	MemoryResidentReadsPerTxn = 2.0
	MemoryResidentHitRatio    = 0.999
	WarmingReadsDrop          = 1.0 / 3
)

// Data sources (Step.DataSource).
const (
	DataDisk    = "disk"
	DataMemory  = "memory"
	DataWarming = "warming"
	DataUnknown = "unknown"
)

// deviceSources are the I/O sources whose reads reached the disks.
var deviceSources = []string{"diskstats", "node_exporter", "sqlserver_file_stats"}

// deviceCounted tells whether the step's reads per transaction came from device counters.
func deviceCounted(io *StepIO) bool {
	return ioKnown(io) && io.ReadsPerTxn != nil && slices.Contains(deviceSources, io.Source)
}

// DataSourceOf applies the rule to one step.
func DataSourceOf(st *Step) string {
	if st.CacheHitRatio != nil && *st.CacheHitRatio > MemoryResidentHitRatio {
		return DataMemory
	}
	if !deviceCounted(st.IO) {
		return DataUnknown
	}
	if *st.IO.ReadsPerTxn < MemoryResidentReadsPerTxn {
		return DataMemory
	}
	if cacheWarming(st.Steadiness) {
		return DataWarming
	}
	return DataDisk
}

// cacheWarming tells whether the steadiness rule found the disks' reads falling by
// WarmingReadsDrop or more per transaction over the window. The rule's drift is of
// read IOPS, which also fall when tps falls (a host that got busier halfway through):
// the reads' change is taken against tps's, so only reads that fell for each
// transaction, a cache filling, count.
func cacheWarming(s *Steadiness) bool {
	if s == nil || s.ReadsHalfChange == nil || !slices.Contains(s.Drifting, "reads") || s.HalfChange <= -1 {
		return false
	}
	perTxn := (1+*s.ReadsHalfChange)/(1+s.HalfChange) - 1
	return perTxn <= -WarmingReadsDrop+1e-9 // a drop of exactly a third counts, rounding aside
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

// PerTxn sets the step I/O's reads and writes per transaction from its rates over
// measured seconds and the transactions finished in the window (none: left unset).
func (io *StepIO) PerTxn(measuredS float64, txns int64) {
	if io == nil || txns <= 0 || measuredS <= 0 {
		return
	}
	r := round(io.ReadIOPS*measuredS/float64(txns), 4)
	w := round(io.WriteIOPS*measuredS/float64(txns), 4)
	io.ReadsPerTxn, io.WritesPerTxn = &r, &w
}

// MemoryResident tells whether the rule finds the step read its data from memory.
func MemoryResident(st *Step) bool { return DataSourceOf(st) == DataMemory }

// CacheWarming tells whether the rule finds the step's cache filling in its window.
func CacheWarming(st *Step) bool { return DataSourceOf(st) == DataWarming }

// SetStepFlags recomputes the flags this file owns on every step of r: partial,
// driver-bound, knee (which moves as later steps arrive), memory-resident,
// cache-warming, disturbed and behind-schedule, and each step's data source and bottleneck; then,
// after the flags it keeps, bound.go's cpu-bound and io-bound. Flags of other names are
// kept as they are.
// Call it before writing the file.
func SetStepFlags(r *Run) {
	knee := Knee(r.Steps)
	own := []string{FlagPartial, FlagDriverBound, FlagKnee, FlagMemoryResident, FlagCacheWarming, FlagDisturbed, FlagBehindSchedule, FlagCPUBound, FlagIOBound}
	for i := range r.Steps {
		st := &r.Steps[i]
		kept := slices.DeleteFunc(slices.Clone(st.Flags), func(f string) bool { return slices.Contains(own, f) })
		var f []string
		if st.Partial {
			f = append(f, FlagPartial)
		}
		if st.Driver.Bottleneck {
			f = append(f, FlagDriverBound)
		}
		if i == knee {
			f = append(f, FlagKnee)
		}
		st.DataSource, st.Bottleneck = DataSourceOf(st), BottleneckOf(st, r.System)
		switch st.DataSource {
		case DataMemory:
			f = append(f, FlagMemoryResident)
		case DataWarming:
			f = append(f, FlagCacheWarming)
		}
		if Disturbed(st) {
			f = append(f, FlagDisturbed)
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

// formatHitRatio shows a ratio as a percentage with enough digits to tell 99.9 %
// from 99.99 %: the difference between a tenth and a hundredth of the reads on disk.
func formatHitRatio(r float64) string {
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
func SummarizeDiskReads(r *Run) DiskReadShare {
	var s DiskReadShare
	var txnR, sumR, txnH, sumH float64
	for i := range r.Steps {
		st := &r.Steps[i]
		n := st.TPS * st.MeasuredS
		s.Steps++
		if MemoryResident(st) {
			s.MemoryResidentSteps++
		}
		if io := st.IO; ioKnown(io) && io.ReadsPerTxn != nil {
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

// formatBytes shows bytes in the largest binary unit that keeps a whole number part,
// labelled as such (MiB: 2^20 bytes; --size and --server-memory read MB as 10^6), with
// one decimal unless whole. It is memcap.FormatSize's rule, which the commands' logs
// and quickstart's closing line print the same sizes with; results imports nothing of
// ours, so the rule is written twice and TestFormatBytesIsMemcaps holds the two to one
// output.
func formatBytes(b int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	v := float64(b)
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), units[i])
	}
	return fmt.Sprintf("%.1f %s", v, units[i])
}

func hasIO(r *Run) bool { return anyStep(r, func(st *Step) bool { return ioKnown(st.IO) }) }

// anyStep tells whether f holds for any step of r: whether a column or chart has
// anything to show.
func anyStep(r *Run, f func(*Step) bool) bool {
	for i := range r.Steps {
		if f(&r.Steps[i]) {
			return true
		}
	}
	return false
}
