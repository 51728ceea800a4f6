package dialect

import (
	"context"
	"fmt"
)

// The database's buffer-cache counters, read over the I/O statistics reader's own
// connection at the same instants as its I/O counters, so a step's cache hit ratio
// covers exactly its measured window. They tell whether a run exercised the storage:
// a step whose page requests are nearly all hits measured memory.

// CacheCounters are cumulative page requests since the statistics epoch: Hits were
// found in the database's buffer cache, Reads had to be read from outside it
// (PostgreSQL: the OS page cache or the disk; SQL Server: the disk).
type CacheCounters struct {
	Hits, Reads int64
}

// CacheStatsReader is implemented by I/O statistics readers that also read the
// buffer-cache counters.
type CacheStatsReader interface {
	ReadCache(ctx context.Context) (CacheCounters, error)
}

var (
	_ CacheStatsReader = (*pgIOStats)(nil)
	_ CacheStatsReader = (*msIOStats)(nil)
)

// pgCacheQuery reads pg_stat_database for the benchmark database only (the reader is
// connected to it): blks_hit and blks_read exist in every supported version and
// count exactly the buffer lookups the workload made. pg_stat_io (16+) holds the same
// hits and reads per backend type, server-wide.
const pgCacheQuery = `SELECT coalesce(sum(blks_hit), 0)::int8, coalesce(sum(blks_read), 0)::int8
FROM pg_stat_database WHERE datname = current_database()`

// ReadCache reads the benchmark database's block hits and reads.
func (r *pgIOStats) ReadCache(ctx context.Context) (CacheCounters, error) {
	var c CacheCounters
	if err := r.conn.QueryRow(ctx, pgCacheQuery).Scan(&c.Hits, &c.Reads); err != nil {
		return c, fmt.Errorf("read pg_stat_database cache counters: %w", err)
	}
	return c, nil
}

// sqlserverCacheQuery reads the Buffer Manager's cumulative page counters. The
// object name carries the instance ("SQLServer:Buffer Manager" for the default
// instance, "MSSQL$NAME:Buffer Manager" for a named one). "Buffer cache hit ratio"
// is not used: its value and base are not cumulative over a window we choose, while
// "Page lookups/sec" and "Page reads/sec" are raw cumulative counts (cntr_type
// 272696576, PERF_COUNTER_BULK_COUNT) whose deltas give the window's ratio.
// Reading the DMV needs VIEW SERVER STATE (2019) or VIEW SERVER PERFORMANCE STATE
// (2022 and later), as the file statistics do.
const sqlserverCacheQuery = `SELECT RTRIM(counter_name), cntr_value
FROM sys.dm_os_performance_counters
WHERE object_name LIKE N'%:Buffer Manager' AND counter_name IN (N'Page lookups/sec', N'Page reads/sec')`

// sqlserverCacheCounters turns the two counters into hits and reads: every lookup
// that did not need a physical read was a hit.
func sqlserverCacheCounters(values map[string]int64) (CacheCounters, error) {
	lookups, okL := values["Page lookups/sec"]
	reads, okR := values["Page reads/sec"]
	if !okL || !okR {
		return CacheCounters{}, fmt.Errorf("read %s cache counters: sys.dm_os_performance_counters lacks the Buffer Manager's Page lookups/sec or Page reads/sec", SQLServerIOSource)
	}
	hits := lookups - reads
	if hits < 0 {
		hits = 0
	}
	return CacheCounters{Hits: hits, Reads: reads}, nil
}

// ReadCache reads the Buffer Manager counters.
func (r *msIOStats) ReadCache(ctx context.Context) (CacheCounters, error) {
	rows, err := r.db.QueryContext(ctx, sqlserverCacheQuery)
	if err != nil {
		return CacheCounters{}, sqlserverIOError(err)
	}
	defer rows.Close()
	values := map[string]int64{}
	for rows.Next() {
		var name string
		var v int64
		if err := rows.Scan(&name, &v); err != nil {
			return CacheCounters{}, sqlserverIOError(err)
		}
		values[name] += v
	}
	if err := rows.Err(); err != nil {
		return CacheCounters{}, sqlserverIOError(err)
	}
	return sqlserverCacheCounters(values)
}

// DatabaseBytes is the size of the database db is connected to: PostgreSQL's
// pg_database_size (every relation file, indexes and TOAST included), SQL Server's
// used pages of every allocation unit (data, indexes, LOB; not the log, not the
// files' free space), from catalog views that need no server-level permission.
func DatabaseBytes(ctx context.Context, db DB) (int64, error) {
	q := pgDatabaseSizeQuery
	if db.Name() == SQLServer {
		q = sqlserverDatabaseSizeQuery
	}
	var n int64
	if err := db.QueryRow(ctx, q).Scan(&n); err != nil {
		return 0, fmt.Errorf("database size: %w", err)
	}
	return n, nil
}

const (
	pgDatabaseSizeQuery        = `SELECT pg_database_size(current_database())::int8`
	sqlserverDatabaseSizeQuery = `SELECT CAST(COALESCE(SUM(CAST(a.used_pages AS bigint)), 0) * 8192 AS bigint) FROM sys.allocation_units AS a`
)
