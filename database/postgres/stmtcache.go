package postgres

import "github.com/jackc/pgx/v5"

// pgxDefaultCacheCapacity is what pgx gives both of a connection's statement caches when
// the DSN names no size (statement_cache_capacity, description_cache_capacity).
const pgxDefaultCacheCapacity = 512

// statementCacheCapacity holds every statement one connection of a run can prepare: the
// workload's catalogue is about 120 statements (txn/*.go, both transaction and check
// statements), so twice that never evicts. pgx sizes each cache's map up front, and at
// 512 the two caches of one connection cost about 25 KB of live heap: 8 MB at 300
// users, a sixth of a run's heap goal against the 100 MB memory bar (docs/driver-cpu.md).
const statementCacheCapacity = 256

// sizeStatementCaches fits pgx's per-connection caches to the workload when the DSN left
// them at pgx's default: the statement cache to statementCacheCapacity, and the
// description cache (used only by the cache_describe exec mode) to none when the
// connection runs in the default cache_statement mode. A size the DSN gives is kept.
func sizeStatementCaches(c *pgx.ConnConfig) {
	if c.StatementCacheCapacity == pgxDefaultCacheCapacity {
		c.StatementCacheCapacity = statementCacheCapacity
	}
	if c.DefaultQueryExecMode == pgx.QueryExecModeCacheStatement && c.DescriptionCacheCapacity == pgxDefaultCacheCapacity {
		c.DescriptionCacheCapacity = 0
	}
}
