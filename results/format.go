// Package results holds the result file (a public contract, see docs/result-format.md),
// histograms, reports, comparisons, charts and gates. It imports nothing of ours:
// report and compare read only the file.
package results

import "time"

// FormatVersion is the value of the "format" field this code writes and reads.
const FormatVersion = 1

// Run is one result file: a whole ramp against one database.
type Run struct {
	Format   int               `json:"format"`
	Kind     string            `json:"kind,omitempty"` // "" or KindRun: an OLTP run; KindDisk: storage profiles (disk.go)
	Label    string            `json:"label,omitempty"`
	Tags     map[string]string `json:"tags,omitempty"`
	Database Database          `json:"database"`
	Scale    Scale             `json:"scale"`
	Seed     uint64            `json:"seed"`
	// Frames is where the transactions ran their frames: "client" (the driver sent
	// every statement) or "server" (one server routine per transaction); absent in
	// files written before server frames, which ran client (FramesMode).
	Frames string `json:"frames,omitempty"`
	// Options holds every run option as given, the DSN with its password removed.
	Options map[string]any `json:"options,omitempty"`
	// Tool is brokerbench's own version, so a comparison can say what produced each file.
	Tool       string    `json:"tool,omitempty"`
	StartedAt  time.Time `json:"started_at"`
	FinishedAt time.Time `json:"finished_at,omitempty"`
	// Interrupted is true when the run was stopped before its plan completed.
	Interrupted bool   `json:"interrupted,omitempty"`
	Steps       []Step `json:"steps"`
	// Limits are the 90th-percentile response-time limits the steps were judged
	// against, in milliseconds by transaction name (limits.go; judged by results/figures).
	Limits map[string]float64 `json:"limits,omitempty"`
	// Max is what run --find-max found (findmax.go); absent for a plain ramp.
	Max *Max `json:"max,omitempty"`
	// Shard is set when this file is one shard of a sharded run (run --shard I/N);
	// absent for an unsharded run and for a merged file (see Shards).
	Shard *Shard `json:"shard,omitempty"`
	// StartAt is the instant every shard was told to start its first step
	// (run --start-at); nil when the run started as soon as it could.
	StartAt *time.Time `json:"start_at,omitempty"`
	// Shards lists the shard files a merged file was made of (brokerbench merge),
	// with what each shard's own driver did; absent otherwise.
	Shards []MergedShard `json:"shards,omitempty"`
	// Disk holds a storage-profile run's figures (kind "disk"); absent otherwise.
	Disk *DiskRun `json:"disk,omitempty"`
	// Repeat says which of run --repeat N's runs this file holds; absent for a
	// single run.
	Repeat *Repeat `json:"repeat,omitempty"`
	// Settle is what the settling windows before the first step showed (run
	// --settle; settle.go); absent when the run did not settle.
	Settle *Settle `json:"settle,omitempty"`
	// System is the storage under the database's directories and its I/O
	// settings (system.go); absent when they could not be read.
	System *System `json:"system,omitempty"`
}

// System is what the run's database stood on: the storage stack under each of
// its directories (data, WAL), from the file system down to the disks. The
// database's I/O settings are in Database.Settings and its memory cap in
// Database.MemoryCapBytes.
type System struct {
	Storage []StorageStack `json:"storage,omitempty"`
	// Note says why the storage is not described (a remote server, a directory
	// brokerbench cannot read).
	Note string `json:"note,omitempty"`
}

// StorageStack is one database directory and everything under it.
type StorageStack struct {
	Role string `json:"role"` // "data", "wal"
	Path string `json:"path"`
	// Mount is the file system holding Path: its mount point, type, source device
	// and options (from /proc/self/mountinfo).
	Mount *Mount `json:"mount,omitempty"`
	// Devices are the block devices from the file system's down, each followed by
	// the devices it is built from (Depth 0 is the file system's device).
	Devices []BlockDevice `json:"devices,omitempty"`
}

// Mount is one mounted file system.
type Mount struct {
	Point   string `json:"point"`
	FSType  string `json:"fs_type"`
	Source  string `json:"source"`
	Options string `json:"options,omitempty"` // mount options and the super block's, comma-separated
}

// BlockDevice is one layer of a storage stack, as sysfs describes it; a zero field
// is unknown or not applicable.
type BlockDevice struct {
	Name  string `json:"name"` // kernel name: sda, sda1, dm-0, md0, loop0
	Depth int    `json:"depth"`
	// Kind is "disk", "partition", "dm", "md", "loop" or "zram".
	Kind      string `json:"kind"`
	Model     string `json:"model,omitempty"`
	SizeBytes int64  `json:"size_bytes,omitempty"`
	// Rotational is true for a spinning disk; nil when sysfs does not say.
	Rotational  *bool  `json:"rotational,omitempty"`
	Scheduler   string `json:"scheduler,omitempty"`
	NrRequests  int    `json:"nr_requests,omitempty"`
	ReadAheadKB int    `json:"read_ahead_kb,omitempty"`
	// WriteCache is the queue's write cache mode: "write back" or "write through".
	WriteCache string `json:"write_cache,omitempty"`
	// md RAID: level ("raid10"), chunk size, number of member devices.
	RAIDLevel  string `json:"raid_level,omitempty"`
	ChunkBytes int64  `json:"chunk_bytes,omitempty"`
	RAIDDisks  int    `json:"raid_disks,omitempty"`
	// DMName is a device-mapper device's name (vg-lv for LVM), DMTarget its UUID's
	// prefix (LVM, CRYPT, ...).
	DMName   string `json:"dm_name,omitempty"`
	DMTarget string `json:"dm_target,omitempty"`
	// BackingFile is a loop device's file; DirectIO whether the loop device
	// reads and writes it with direct I/O (nil: not a loop device).
	BackingFile string `json:"backing_file,omitempty"`
	DirectIO    *bool  `json:"direct_io,omitempty"`
	// Number is the device's major:minor.
	Number string `json:"number,omitempty"`
	// Throttle is the I/O limit the database server's cgroup puts on the device,
	// as cgroup v2's io.max writes it ("riops=200 wiops=200"), from a v1 blkio
	// group's throttle files or a v2 io.max; empty when there is none.
	Throttle string `json:"throttle,omitempty"`
	// Members are the devices this one is built from (partition: its disk is
	// listed as a member too), in name order.
	Members []string `json:"members,omitempty"`
}

// Repeat is one of several runs of the same plan (run --repeat N).
type Repeat struct {
	Index int `json:"index"` // 1-based
	Count int `json:"count"`
	// Replaced is how many disturbed runs of this repeat run --replace-disturbed set
	// aside before this one (kept as run-disturbed-rK.json); 0 when none was.
	Replaced int `json:"replaced,omitempty"`
}

// Shard says which part of a sharded run a file holds.
type Shard struct {
	Index int `json:"index"` // 0-based, < Count
	Count int `json:"count"`
	// ClockOffsetMS is this shard's clock minus the database server's, measured
	// when the shard started; steps line up across shards within this error.
	ClockOffsetMS float64 `json:"clock_offset_ms"`
}

// MergedShard is one shard of a merged file: where it came from and the
// Figures that belong to each driver, not to the run (they are never summed).
type MergedShard struct {
	Index         int     `json:"index"`
	File          string  `json:"file,omitempty"` // base name of the shard's file
	ClockOffsetMS float64 `json:"clock_offset_ms"`
	// Driver is the shard's own DriverCheck per step, in the steps' order.
	Driver []DriverCheck `json:"driver,omitempty"`
	// DriverHost is the shard's own driver host per step (Step.DriverHost; null
	// where the shard recorded none), in the steps' order.
	DriverHost []*StepHost `json:"driver_host,omitempty"`
}

// Database describes the server under test.
type Database struct {
	Product  string            `json:"product"` // "PostgreSQL", "SQL Server", "Babelfish for PostgreSQL"
	Version  string            `json:"version"`
	Edition  string            `json:"edition,omitempty"`
	Settings map[string]string `json:"settings,omitempty"` // key settings (shared_buffers, ...)
	Managed  bool              `json:"managed,omitempty"`  // brokerbench started it
	// MemoryCapBytes is the memory cap of the server's processes, page cache
	// included (a managed server's --server-memory); 0 when there was none.
	MemoryCapBytes int64 `json:"memory_cap_bytes,omitempty"`
	// SizeBytes is the database's size when the run started; 0 when unknown.
	SizeBytes int64 `json:"size_bytes,omitempty"`
	// Notes say what a reader must know about the server beyond its version: that
	// it is not the product it speaks for and how it runs the workload differently,
	// or that it is older than the supported versions.
	Notes []string `json:"notes,omitempty"`
	// Unavailable names figures the server could not give, with why: "size_bytes"
	// when the database's size could not be read.
	Unavailable map[string]string `json:"unavailable,omitempty"`
}

// Scale is what was loaded.
type Scale struct {
	Customers int64 `json:"customers"`
	TradeDays int   `json:"trade_days"`
}

// Step is one user level held for the step duration. Every figure covers only its
// measured (steady) window: [StartedAt+Warmup, StartedAt+Warmup+Measured).
type Step struct {
	Users      int       `json:"users"`
	StartedAt  time.Time `json:"started_at"`
	WarmupS    float64   `json:"warmup_s"`
	MeasuredS  float64   `json:"measured_s"`
	TPS        float64   `json:"tps"`
	TPSE       float64   `json:"tps_e"`
	Statements int64     `json:"statements"`
	// Partial marks a step cut short by an interrupt; its figures cover what was measured.
	Partial bool `json:"partial,omitempty"`
	// Faults counts server-side faults seen in the step (lost connections, reconnects).
	Faults       *Faults             `json:"faults,omitempty"`
	Lag          Lag                 `json:"lag"`
	Driver       DriverCheck         `json:"driver"`
	Transactions map[string]TxnStats `json:"transactions"`
	IO           *StepIO             `json:"io,omitempty"`
	// Host is what the database's host spent (CPU, memory, network; host.go);
	// DriverHost the load driver's own host, when that is another machine.
	Host       *StepHost `json:"host,omitempty"`
	DriverHost *StepHost `json:"driver_host,omitempty"`
	// CacheHitRatio is the share of the database's page reads served by its own
	// buffer cache in the window, 0..1; nil when unknown (see storage.go).
	CacheHitRatio *float64 `json:"cache_hit_ratio,omitempty"`
	// DataSource is where the step's data came from: "disk", "memory", "warming"
	// (the cache filled during the window) or "unknown" (DataSourceOf); Bottleneck is
	// what limited it: "cpu", "io", "driver" or "none", absent when the host's figures
	// are unknown (BottleneckOf). The two are separate words on purpose: a step can read
	// from disk and still be limited by the CPU. Files written before them carried a
	// "regime" ("storage-bound", "memory-resident"), which readers ignore and
	// recompute from the figures.
	DataSource string `json:"data_source,omitempty"`
	Bottleneck string `json:"bottleneck,omitempty"`
	// NominalPercent is the step's tpsE as a percentage of the nominal tpsE of the
	// database's customers (customers/500, nominal.go); absent in files written
	// before it was recorded.
	NominalPercent float64 `json:"nominal_percent,omitempty"`
	// LimitOrders are the market emulator's limit orders not yet completed at the
	// window's end (limit_orders.go); absent in files written before it was recorded.
	LimitOrders *LimitOrders `json:"limit_orders,omitempty"`
	// Background is the database server's own work in the window (checkpoints,
	// autovacuum; disturbance.go); absent when it could not be read.
	Background *Background `json:"background,omitempty"`
	// Flags name what makes the step's figures special ("partial", "driver-bound",
	// "knee", "memory-resident", "unsteady", "over-nominal", ...); a reader must
	// ignore names it does not know.
	Flags []string `json:"flags,omitempty"`
	// LimitsBroken names the transactions whose p90 exceeded its limit, sorted.
	LimitsBroken []string `json:"limits_broken,omitempty"`
	// Steadiness is how stable per-second tps was over the window.
	Steadiness *Steadiness `json:"steadiness,omitempty"`
	// Rate is the transaction starts per second (all of them) paced in this step, when
	// the step had its own (a --find-max probe).
	Rate float64 `json:"rate,omitempty"`
	// Probe says why --find-max ran this step; absent in a plain ramp.
	Probe *Probe `json:"probe,omitempty"`
	// Samples are the window's per-second figures (samples.go), from which
	// compare makes its intervals; absent in files written before they were kept.
	Samples *StepSamples `json:"samples,omitempty"`
	// IOCapture summarises the block requests captured over the window (run
	// --capture-io; docs/io-capture.md); its Trace is the step's trace.
	IOCapture *IOCapture `json:"io_capture,omitempty"`
}

// Faults are failures of the server or the connection, not of the workload.
type Faults struct {
	ConnectionsLost int64 `json:"connections_lost"`
	Reconnects      int64 `json:"reconnects"`
	// ByClass counts failed transactions by error class (e.g. "connection", "timeout").
	ByClass map[string]int64 `json:"by_class,omitempty"`
	// ServerOutages counts spells in the step when every connection failed and the
	// server answered again within the run's grace period (a restart, a failover);
	// ServerDownS is their total length. The step is flagged server-outage.
	ServerOutages int     `json:"server_outages,omitempty"`
	ServerDownS   float64 `json:"server_down_s,omitempty"`
	// ServerStalls counts spells in the step when the server answered nothing, not
	// even the run's liveness probe, for over 3 s and answered again within the grace
	// period (a paused server, a network dropping packets); ServerStallS is their
	// total length. The step is flagged server-stall.
	ServerStalls int     `json:"server_stalls,omitempty"`
	ServerStallS float64 `json:"server_stall_s,omitempty"`
	// ServerLost: the run ended in this step because the server stopped answering
	// for longer than the grace period (flag server-lost).
	ServerLost bool `json:"server_lost,omitempty"`
}

// Lag counts transaction starts that happened later than the pacer intended.
type Lag struct {
	Late   int64   `json:"late"`    // starts later than 1 ms after their intended time
	MaxMS  float64 `json:"max_ms"`  // worst start delay
	AvgMS  float64 `json:"avg_ms"`  // average start delay over late starts
	Missed int64   `json:"dropped"` // intended starts never made (rate mode, no user free; nominal pacing, a user more than 10 s behind)
	// Owed is how many intended starts had fallen due at the window's end and were
	// not made yet: the users could not keep up with the pacer (--rate, --pace nominal).
	Owed int64 `json:"owed,omitempty"`
}

// DriverCheck is the load generator watching itself.
type DriverCheck struct {
	CPUPercent   float64 `json:"cpu_percent"` // process CPU over the window, 100 = one core
	GCPauseMS    float64 `json:"gc_pause_ms"` // total GC pause in the window
	SchedLagMS   float64 `json:"sched_lag_p99_ms"`
	PoolWaitMS   float64 `json:"pool_wait_avg_ms"`
	PoolWaits    int64   `json:"pool_waits"`
	Bottleneck   bool    `json:"bottleneck"` // the driver itself limited the step
	BottleneckOn string  `json:"bottleneck_reason,omitempty"`
}

// TxnStats are one transaction type's figures in a step's measured window.
// Response times run from the intended start; service times from the first statement.
type TxnStats struct {
	Count        int64   `json:"count"`
	Share        float64 `json:"share"` // of all transactions in the step, 0..1
	AvgMS        float64 `json:"avg_ms"`
	P50MS        float64 `json:"p50_ms"`
	P90MS        float64 `json:"p90_ms"`
	P95MS        float64 `json:"p95_ms"`
	P99MS        float64 `json:"p99_ms"`
	MaxMS        float64 `json:"max_ms"`
	ServiceAvgMS float64 `json:"service_avg_ms"`
	ServiceP95MS float64 `json:"service_p95_ms"`
	Errors       int64   `json:"errors"`
	Retries      int64   `json:"retries"`
	Rollbacks    int64   `json:"rollbacks"`
	// Histograms, encoded with hdrhistogram-go's Encode (compressed, base64), in
	// microseconds, so percentiles can be recomputed and runs merged.
	Response string `json:"response_hist,omitempty"`
	Service  string `json:"service_hist,omitempty"`
}

// StepIO is what the disks (or the database's own I/O views) did in the step's window.
type StepIO struct {
	Source string `json:"source"` // "diskstats", "node_exporter", "pg_stat_io", "pg_stat", "sqlserver_file_stats", "none"
	Note   string `json:"note,omitempty"`
	IOFigures
	Devices []DeviceIO `json:"devices,omitempty"`
	// Derived figures; zero when unknown.
	IOPerTxn float64 `json:"io_per_txn,omitempty"`
	// ReadsPerTxn and WritesPerTxn split IOPerTxn; nil when there were no
	// transactions. A pointer, because zero reads per transaction is the finding
	// that matters (a memory-resident step), not a missing figure.
	ReadsPerTxn       *float64   `json:"reads_per_txn,omitempty"`
	WritesPerTxn      *float64   `json:"writes_per_txn,omitempty"`
	WALBytesPerCommit float64    `json:"wal_bytes_per_commit,omitempty"`
	Series            []IOSample `json:"series,omitempty"`
}

// IOFigures are ratios of sums over a window (docs/storage.md §5.1).
type IOFigures struct {
	ReadIOPS     float64 `json:"read_iops"`
	WriteIOPS    float64 `json:"write_iops"`
	ReadMBps     float64 `json:"read_mbps"`
	WriteMBps    float64 `json:"write_mbps"`
	ReadAwaitMS  float64 `json:"read_await_ms"`
	WriteAwaitMS float64 `json:"write_await_ms"`
	QueueDepth   float64 `json:"queue_depth"`
	UtilPercent  float64 `json:"util_percent,omitempty"`
}

// DeviceIO is one device (or database file group) and its role.
type DeviceIO struct {
	Name string `json:"name"`
	Role string `json:"role"` // "data", "wal", "log", "data+wal"
	// Layer is empty for a device the totals count (what the filesystems use) and
	// "member" for a whole disk under a partition or a stacked device (dm, md): its
	// I/O is already in the device above it, so it is shown but never added.
	Layer string `json:"layer,omitempty"`
	IOFigures
}

// IOSample is one point of the per-step time series (every --io-interval).
type IOSample struct {
	At time.Time `json:"at"`
	IOFigures
}
