package iostat

import (
	"context"
	"time"

	"github.com/brokerbench/brokerbench/database"
)

// Source names as they appear in the result file's steps[].io.source.
const (
	SourceDiskstats    = "diskstats"
	SourceNodeExporter = "node_exporter"
	SourceNone         = "none"
	// The database sources take their names from the database's reader (pg_stat_io,
	// pg_stat, sqlserver_file_stats).
)

// Roles of a device.
const (
	RoleData    = "data"
	RoleWAL     = "wal"
	RoleDataWAL = "data+wal"
	// RoleUnknown: a device named by hand, or a remote host's disk, whose contents we
	// cannot tell.
	RoleUnknown = "unknown"
)

// LayerMember is results.DeviceIO.Layer of a device the totals do not count.
const LayerMember = "member"

// Device is one series a source reports.
type Device struct {
	Name string
	Role string
	// InTotals is true for the top devices (what the filesystems, hence the database,
	// use). A whole disk under a stacked device or under a partition is reported for
	// what the hardware saw, but never added to the totals: its I/O is already counted
	// in the device above it.
	InTotals bool
}

// Snapshot is one reading of a source's cumulative counters.
type Snapshot struct {
	// At is the driver's monotonic time when the read completed.
	At time.Time
	// RemoteAt is the source's own clock (node_exporter's node_time_seconds, the
	// database's clock_timestamp()); zero when it has none. Intervals use it when both
	// ends have it, so network and query delays do not distort rates.
	RemoteAt time.Time
	// Epoch changes when the source's counters restart (statistics reset).
	Epoch string
	// Devices holds the counters per Device.Name; a device absent from the map was
	// missing at this read (unplugged, re-created).
	Devices map[string]Counters
	// WALBytes is the database's cumulative WAL volume when HasWAL.
	WALBytes uint64
	HasWAL   bool
	// Cache holds the database's buffer-cache counters (database sources whose
	// reader has them); nil when unknown.
	Cache *CacheCounters
	// Background holds the database server's checkpoints and autovacuum workers
	// (database sources whose reader has them); nil when unknown.
	Background *database.BackgroundCounters
	// Host holds a host's CPU, memory and network counters (the procfs host
	// source, a node_exporter with its host collectors); nil when unknown.
	Host *HostCounters
}

// Source reads cumulative counters. Implementations: diskstats (local block
// devices), node_exporter (a remote host), the database's views (dbSource, over
// the database.IOStatsReader its pool opens: PostgreSQL's pg_stat views, SQL
// Server's sys.dm_io_virtual_file_stats).
type Source interface {
	// Name is the result file's source name.
	Name() string
	// Devices lists the series in the order they are reported, top devices first.
	Devices() []Device
	Snapshot(ctx context.Context) (*Snapshot, error)
	// Note says in one line how to read this source's figures ("" when obvious).
	Note() string
	Close() error
}
