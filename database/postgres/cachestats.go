package postgres

import (
	"context"
	"fmt"

	"github.com/brokerbench/brokerbench/database"
)

var (
	_ database.CacheStatsReader = (*pgIOStats)(nil)
	_ database.DatabaseSizer    = (*PG)(nil)
)

// cacheQuery reads pg_stat_database for the benchmark database only (the reader is
// connected to it): blks_hit and blks_read exist in every supported version and
// count exactly the buffer lookups the workload made. pg_stat_io (16+) holds the
// same hits and reads per backend type, but server-wide.
const cacheQuery = `SELECT coalesce(sum(blks_hit), 0)::int8, coalesce(sum(blks_read), 0)::int8
FROM pg_stat_database WHERE datname = current_database()`

// ReadCache reads the benchmark database's block hits and reads.
func (r *pgIOStats) ReadCache(ctx context.Context) (database.CacheCounters, error) {
	var c database.CacheCounters
	if err := r.conn.QueryRow(ctx, cacheQuery).Scan(&c.Hits, &c.Reads); err != nil {
		return c, fmt.Errorf("read pg_stat_database cache counters: %w", err)
	}
	return c, nil
}

// DatabaseBytes is pg_database_size: every relation file, indexes and TOAST included.
func (p *PG) DatabaseBytes(ctx context.Context) (int64, error) {
	var n int64
	err := p.Pool.QueryRow(ctx, `SELECT pg_database_size(current_database())::int8`).Scan(&n)
	return n, err
}
