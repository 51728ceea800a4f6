package driver

import (
	"github.com/brokerbench/brokerbench/schema/dialect"
)

// pgPool reads pgxpool's statistics for the self-check.
type pgPool struct{ db *dialect.PG }

var _ PoolStatser = pgPool{}

func (p pgPool) PoolStat() PoolStat {
	s := p.db.Pool.Stat()
	return PoolStat{
		Acquires: s.AcquireCount(), EmptyAcquires: s.EmptyAcquireCount(),
		AcquireWait: s.AcquireDuration(), NewConns: s.NewConnsCount(),
	}
}

// PoolStatsOf returns the pool view of db, or nil when its dialect has none.
func PoolStatsOf(db dialect.DB) PoolStatser {
	if pg, ok := db.(*dialect.PG); ok {
		return pgPool{pg}
	}
	if p, ok := db.(PoolStatser); ok {
		return p
	}
	return nil
}
