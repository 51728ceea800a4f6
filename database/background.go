package database

import "context"

// Background work of the database server that disturbs a measured window: the
// checkpoints it completed and the buffers they wrote (cumulative counters), and the
// autovacuum workers running at the instant of reading. A window that holds a
// checkpoint or a vacuum measures the workload plus that work, which a repeat of the
// same window without it does not; results/disturbance.go turns the deltas into a
// step's disturbances.
type BackgroundCounters struct {
	Checkpoints, CheckpointBuffers int64
	Autovacuums                    int
}

// BackgroundReader is implemented by I/O statistics readers that can read the
// server's background work (PostgreSQL; others record none).
type BackgroundReader interface {
	ReadBackground(ctx context.Context) (BackgroundCounters, error)
}
