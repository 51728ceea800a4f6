package driver

import "github.com/brokerbench/brokerbench/schema/dialect"

// msPool reads database/sql's pool statistics for the self-check. database/sql
// counts only the acquires that waited, so Acquires stays 0 and the self-check's
// average wait is over those waits, as on PostgreSQL.
type msPool struct{ db *dialect.MSSQL }

var _ PoolStatser = msPool{}

func (p msPool) PoolStat() PoolStat {
	s := p.db.DB.Stats()
	return PoolStat{EmptyAcquires: s.WaitCount, AcquireWait: s.WaitDuration}
}

// msPoolOf returns database/sql's view of a SQL Server database, or nil.
func msPoolOf(db dialect.DB) PoolStatser {
	if ms, ok := db.(*dialect.MSSQL); ok {
		return msPool{ms}
	}
	return nil
}
