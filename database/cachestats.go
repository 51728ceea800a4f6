package database

import (
	"context"
	"errors"
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

// DatabaseSizer is implemented by a DB that can tell the size of the database it is
// connected to, in bytes (what a memory cap is compared with).
type DatabaseSizer interface {
	DatabaseBytes(ctx context.Context) (int64, error)
}

// DatabaseBytes is the size of the database db is connected to.
func DatabaseBytes(ctx context.Context, db DB) (int64, error) {
	s, ok := db.(DatabaseSizer)
	if !ok {
		return 0, errors.New("database size: not reported by this database")
	}
	n, err := s.DatabaseBytes(ctx)
	if err != nil {
		return 0, fmt.Errorf("database size: %w", err)
	}
	return n, nil
}
