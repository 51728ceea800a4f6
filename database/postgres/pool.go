package postgres

import "github.com/brokerbench/brokerbench/database"

var _ database.PoolStatser = (*PG)(nil)

// PoolStat reads pgxpool's statistics for the load driver's self-check.
func (p *PG) PoolStat() database.PoolStat {
	s := p.Pool.Stat()
	return database.PoolStat{
		Acquires: s.AcquireCount(), EmptyAcquires: s.EmptyAcquireCount(),
		AcquireWait: s.AcquireDuration(), NewConns: s.NewConnsCount(),
	}
}
