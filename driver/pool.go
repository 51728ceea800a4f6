package driver

import "github.com/brokerbench/brokerbench/database"

// PoolStatsOf returns the pool view of db, or nil when its database has none.
func PoolStatsOf(db database.DB) PoolStatser {
	if p, ok := db.(PoolStatser); ok {
		return p
	}
	return nil
}
