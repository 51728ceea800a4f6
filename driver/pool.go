package driver

import "github.com/brokerbench/brokerbench/schema/dialect"

// PoolStatsOf returns the pool view of db, or nil when its dialect has none.
func PoolStatsOf(db dialect.DB) PoolStatser {
	for _, of := range []func(dialect.DB) PoolStatser{pgPoolOf, msPoolOf} {
		if p := of(db); p != nil {
			return p
		}
	}
	if p, ok := db.(PoolStatser); ok {
		return p
	}
	return nil
}
