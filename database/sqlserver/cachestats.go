package sqlserver

import (
	"context"
	"fmt"

	"github.com/brokerbench/brokerbench/database"
)

var (
	_ database.CacheStatsReader = (*msIOStats)(nil)
	_ database.DatabaseSizer    = (*MSSQL)(nil)
)

// cacheQuery reads the Buffer Manager's cumulative page counters. The object name
// carries the instance ("SQLServer:Buffer Manager" for the default instance,
// "MSSQL$NAME:Buffer Manager" for a named one). "Buffer cache hit ratio" is not used:
// its value and base do not cover a window we choose, while "Page lookups/sec" and
// "Page reads/sec" are raw cumulative counts (cntr_type 272696576,
// PERF_COUNTER_BULK_COUNT) whose deltas give the window's ratio. The DMV needs VIEW
// SERVER STATE (2019) or VIEW SERVER PERFORMANCE STATE (2022 and later), as the file
// statistics do.
const cacheQuery = `SELECT RTRIM(counter_name), cntr_value
FROM sys.dm_os_performance_counters
WHERE object_name LIKE N'%:Buffer Manager' AND counter_name IN (N'Page lookups/sec', N'Page reads/sec')`

// cacheCounters turns the two counters into hits and reads: every lookup that did
// not need a physical read was a hit.
func cacheCounters(values map[string]int64) (database.CacheCounters, error) {
	lookups, okL := values["Page lookups/sec"]
	reads, okR := values["Page reads/sec"]
	if !okL || !okR {
		return database.CacheCounters{}, fmt.Errorf("read %s cache counters: sys.dm_os_performance_counters lacks the Buffer Manager's Page lookups/sec or Page reads/sec", IOSource)
	}
	return database.CacheCounters{Hits: max(lookups-reads, 0), Reads: reads}, nil
}

// ReadCache reads the Buffer Manager counters.
func (r *msIOStats) ReadCache(ctx context.Context) (database.CacheCounters, error) {
	rows, err := r.db.QueryContext(ctx, cacheQuery)
	if err != nil {
		return database.CacheCounters{}, sqlserverIOError(err)
	}
	defer rows.Close()
	values := map[string]int64{}
	for rows.Next() {
		var name string
		var v int64
		if err := rows.Scan(&name, &v); err != nil {
			return database.CacheCounters{}, sqlserverIOError(err)
		}
		values[name] += v
	}
	if err := rows.Err(); err != nil {
		return database.CacheCounters{}, sqlserverIOError(err)
	}
	return cacheCounters(values)
}

// databaseSizeQuery counts the used pages of every allocation unit (data, indexes,
// LOB; not the log, not the files' free space) from a catalog view that needs no
// server-level permission.
const databaseSizeQuery = `SELECT CAST(COALESCE(SUM(CAST(a.used_pages AS bigint)), 0) * 8192 AS bigint) FROM sys.allocation_units AS a`

// DatabaseBytes is the database's used pages in bytes; without the view, an error
// marked database.ErrUnavailable says why.
func (m *MSSQL) DatabaseBytes(ctx context.Context) (int64, error) {
	var n int64
	err := m.DB.QueryRowContext(ctx, databaseSizeQuery).Scan(&n)
	return n, unavailable(err, "sys.allocation_units")
}
