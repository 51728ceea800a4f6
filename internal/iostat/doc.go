// Package iostat measures what the storage did during each measured window of a run:
// read and write IOPS, MB/s (MiB/s, as iostat -m prints them), average read and
// write latency, queue depth and utilisation, per device and role (data, wal), plus a
// time series, all taken as ratios of sums between cumulative counter snapshots
// (docs/storage.md).
//
// Sources, tried in this order by Open:
//   - a node_exporter on the database host (--io-node-exporter URL),
//   - local block devices: named with --io-device, or found under the database's data
//     directory and WAL directory when the database runs on this host (/proc/diskstats),
//   - the database's own I/O views (PostgreSQL pg_stat_io on 16+, pg_stat_database,
//     pg_stat_bgwriter and pg_stat_wal below; SQL Server sys.dm_io_virtual_file_stats),
//     through the database.IOStatsReader the pool opens,
//   - none: the step records source "none" and the run goes on.
//
// Every source returns cumulative counters; the Sampler differences them at the
// window edges the driver marks, handling 32-bit wraps, counter resets and devices
// that disappear, and keeps the periodic samples for the series.
//
// The same Sampler reads the hosts' CPU, memory and network over the same windows
// (docs/host.md): this machine's procfs, and a remote database host's through its
// node_exporter. DescribeStorage describes the storage stack under the database's
// directories for the result file. Its importer is cmd/brokerbench (run, disk and
// capture); the driver sees it only through its IOSampler interface.
package iostat
