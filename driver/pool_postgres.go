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

// pgPoolOf returns pgxpool's view of a PostgreSQL database, or nil.
func pgPoolOf(db dialect.DB) PoolStatser {
	if pg, ok := db.(*dialect.PG); ok {
		return pgPool{pg}
	}
	return nil
}
