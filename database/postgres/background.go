package postgres

import (
	"context"
	"fmt"

	"github.com/brokerbench/brokerbench/database"
)

var _ database.BackgroundReader = (*pgIOStats)(nil)

// backgroundQuery reads the checkpointer's cumulative counters and the autovacuum
// workers running now, in one statement on the sampler's connection. PostgreSQL 17
// moved the checkpointer's counters from pg_stat_bgwriter to pg_stat_checkpointer.
func backgroundQuery(num int) string {
	const autovacuums = `(SELECT count(*)::int FROM pg_stat_activity WHERE backend_type = 'autovacuum worker')`
	if num >= 170000 {
		return `SELECT (num_timed + num_requested)::int8, buffers_written::int8, ` + autovacuums + ` FROM pg_stat_checkpointer`
	}
	return `SELECT (checkpoints_timed + checkpoints_req)::int8, buffers_checkpoint::int8, ` + autovacuums + ` FROM pg_stat_bgwriter`
}

// ReadBackground reads the server's checkpoints, the buffers they wrote and the
// autovacuum workers running.
func (r *pgIOStats) ReadBackground(ctx context.Context) (database.BackgroundCounters, error) {
	var c database.BackgroundCounters
	if err := r.conn.QueryRow(ctx, backgroundQuery(r.num)).Scan(&c.Checkpoints, &c.CheckpointBuffers, &c.Autovacuums); err != nil {
		return c, fmt.Errorf("read the checkpointer's and autovacuum's activity: %w", err)
	}
	return c, nil
}
