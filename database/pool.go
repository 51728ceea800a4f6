package database

import "time"

// PoolStat is a connection pool's running totals, for the load driver's self-check.
type PoolStat struct {
	Acquires      int64
	EmptyAcquires int64 // acquires that had to wait for a connection
	AcquireWait   time.Duration
	NewConns      int64
}

// PoolStatser is implemented by a DB whose pool reports its statistics.
type PoolStatser interface {
	PoolStat() PoolStat
}
