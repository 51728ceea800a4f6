package main

import (
	"context"
	"fmt"

	"github.com/brokerbench/brokerbench/database"
)

// runLockName is the lock a run holds on its database for its length
// (database.Locker: an advisory lock on PostgreSQL, an application lock on SQL
// Server). The shards of one sharded run drive the database together by design, so
// each shard index has a lock of its own: two runs meet on shard 0 (every unsharded
// run is shard 0 of 1), the shards of one run never do.
func runLockName(shard int) string { return fmt.Sprintf("brokerbench run, shard %d", shard) }

// concurrentRunWarning is what a run says when another brokerbench run already holds
// the database's mark: what the second run does to both runs' figures.
const concurrentRunWarning = "warning: another brokerbench run is active on this database (it holds the run lock %q): " +
	"both drive the same server, so each run's tps, response times and I/O include the other's load, " +
	"and each run's Trade-Cleanup cancels the other's pending trades; stop one of them, or run on another database"

// markRun takes the run's lock on its database on a connection of its own (the users'
// and the emulator's pools stay whole) and keeps it until close. When another run
// holds it, the run goes on and says what that does to its figures. A database that
// cannot tell (the lock failed) is said in a line too; neither stops the run.
func (s *runSession) markRun(ctx context.Context) {
	name := runLockName(s.shard.shard.Index)
	db, err := database.Open(ctx, s.tgt.DSN, database.Options{MaxConns: 1, AppName: "brokerbench run lock"})
	if err != nil {
		s.lw.logf("warning: cannot tell whether another brokerbench run is active on this database: %v", err)
		return
	}
	lk, ok := db.(database.Locker)
	if !ok {
		db.Close()
		return
	}
	unlock, held, err := lk.TryLock(ctx, name)
	switch {
	case err != nil:
		s.lw.logf("warning: cannot tell whether another brokerbench run is active on this database: %v", err)
	case !held:
		s.lw.logf(concurrentRunWarning, name)
	default:
		s.undo = append(s.undo, func() { unlock(); db.Close() })
		return
	}
	db.Close()
}
