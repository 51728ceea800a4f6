package database

import (
	"context"
	"time"
)

// IOStatsReader reads a database's cumulative I/O counters over its own dedicated
// connection, never through the workload's pool, so sampling does not take a
// connection from the users and is not queued behind them.
type IOStatsReader interface {
	// Source names the views read: "pg_stat_io" (PostgreSQL 16+), "pg_stat" (the
	// pg_stat_database, pg_stat_bgwriter and pg_stat_wal fallback).
	Source() string
	ReadIO(ctx context.Context) (IOCounters, error)
	Close() error
}

// IOCounters is one reading. Every count is cumulative since the statistics were
// last reset (Reset changes then).
type IOCounters struct {
	// At is the server's clock_timestamp() of the reading.
	At time.Time
	// Reset identifies the statistics epoch (the stats_reset times seen).
	Reset string
	// Groups are the I/O classes: "data" (relation files) and "wal".
	Groups []IOGroup
	// WALBytes is the WAL volume generated (pg_stat_wal.wal_bytes on 14+, else the
	// current WAL position), when HasWAL.
	WALBytes int64
	HasWAL   bool
	// Commits and Rollbacks are pg_stat_database's xact_commit and xact_rollback.
	Commits, Rollbacks int64
	// Checkpoints completed (timed + requested).
	Checkpoints int64
}

// IOGroup is one I/O class. PostgreSQL counts the reads and writes it asks of the
// kernel: reads include OS page-cache hits and writes land in the page cache first
// (iops.md §3.1), so these are upper bounds of device reads, and device writes
// happen later.
type IOGroup struct {
	Name                  string
	ReadOps, WriteOps     int64
	ReadBytes, WriteBytes int64
	// Latency sums in ms; valid only with track_io_timing (data) or
	// track_wal_io_timing (wal) on, which HasReadTime / HasWriteTime report.
	ReadTimeMS, WriteTimeMS   float64
	HasReadTime, HasWriteTime bool
}

// IOStatsOpener is implemented by a DB whose server reports its own I/O.
type IOStatsOpener interface {
	// OpenIOStats opens a reader on its own connection, never the pool's.
	OpenIOStats(ctx context.Context) (IOStatsReader, error)
}
