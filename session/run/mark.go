package run

import (
	"context"
	"errors"
	"fmt"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/loader"
)

// markRun takes the run's lock on its database (loader.HoldRun: a shard's lock,
// and a row naming this process) on a pool of its own, so the users' and the
// emulator's pools stay whole, and keeps it until close. It refuses while another
// run holds the database, naming it: two runs on one database cancel each other's
// pending trades in Trade-Cleanup and each measures the other's load
// (docs/faults.md, "Two runs on one database"). The shards of one run share it. A
// database that cannot tell (the lock failed) is said in a line, and the run goes on.
func (s *runSession) markRun(ctx context.Context) error {
	sh := s.shard.shard
	db, err := database.Open(ctx, s.tgt.DSN, database.Options{MaxConns: 2, AppName: "brokerbench run lock"})
	if err != nil {
		s.lw.logf("warning: cannot tell whether another brokerbench run is active on this database: %v", err)
		return nil
	}
	release, err := loader.HoldRun(ctx, db, sh.Index, max(sh.Count, 1))
	var held *loader.RunHeldError
	switch {
	case errors.As(err, &held):
		db.Close()
		return runHeldError(held)
	case err != nil:
		db.Close()
		s.lw.logf("warning: cannot tell whether another brokerbench run is active on this database: %v", err)
		return nil
	}
	s.undo = append(s.undo, func() { release(); db.Close() })
	return nil
}

// runHeldError is a run's refusal of a database another run holds.
func runHeldError(held *loader.RunHeldError) error {
	if held.Holder == nil {
		return held
	}
	return fmt.Errorf("another brokerbench run is active on %s (%s): two runs on one database cancel each other's pending trades and each measures the other's load; stop it, or run on another database (the shards of one run pass --shard)",
		held.Target, *held.Holder)
}
