package results

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

// PerTxn sets the step I/O's reads and writes per transaction from its rates over
// measured seconds and the transactions finished in the window (none: left unset).
func (io *StepIO) PerTxn(measuredS float64, txns int64) {
	if io == nil || txns <= 0 || measuredS <= 0 {
		return
	}
	r := Round(io.ReadIOPS*measuredS/float64(txns), 4)
	w := Round(io.WriteIOPS*measuredS/float64(txns), 4)
	io.ReadsPerTxn, io.WritesPerTxn = &r, &w
}
