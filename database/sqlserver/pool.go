package sqlserver

import "github.com/brokerbench/brokerbench/database"

var _ database.PoolStatser = (*MSSQL)(nil)

// PoolStat reads database/sql's pool statistics for the self-check. database/sql
// counts only the acquires that waited, so Acquires stays 0 and the self-check's
// average wait is over those waits, as on PostgreSQL.
func (m *MSSQL) PoolStat() database.PoolStat {
	s := m.DB.Stats()
	return database.PoolStat{EmptyAcquires: s.WaitCount, AcquireWait: s.WaitDuration}
}
