package run

import (
	"context"
	"errors"
	"fmt"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/driver"
)

// runOwnConnections are the sessions a run opens beside its two pools: the run's
// lock (two: one holds it, one reads the other runs'), the I/O sampler's and the
// liveness probe's.
const runOwnConnections = 4

// connectionsNeeded is every session the run opens at once: the users' pool, the
// emulator's (its workers and the timer) and its own.
func (s *runSession) connectionsNeeded() int { return s.conns + s.meeWorkers + 1 + runOwnConnections }

// checkConnections compares the sessions the run will open with the ones the server
// has free, before any is opened (docs/faults.md, "Every connection has a
// deadline"): a run beyond them fails its users' connects as errors of the
// measurement, and refuses the server's other clients while it runs. A managed
// PostgreSQL is brokerbench's own, so its max_connections is raised (a restart); any
// other server is refused with the figures.
func (s *runSession) checkConnections(ctx context.Context) error {
	db, err := database.Open(ctx, s.tgt.DSN, database.Options{MaxConns: 1, AppName: "brokerbench connection check"})
	if err != nil {
		return err
	}
	room, err := database.Connections(ctx, db)
	db.Close()
	need := s.connectionsNeeded()
	switch {
	case errors.Is(err, database.ErrNoConnectionCount):
		return nil
	case err != nil:
		s.lw.logf("warning: cannot check the server's free connections against the run's %d: %v", need, err)
		return nil
	}
	room.Used = max(room.Used-1, 0) // the check's own session, closed now
	free := room.Free()
	if need <= free {
		return nil
	}
	what := fmt.Sprintf("%d connections (the users' pool of %d, the emulator's %d, %d of its own: run lock (2), I/O sampler, liveness probe)",
		need, s.conns, s.meeWorkers+1, runOwnConnections)
	if s.tgt.Managed != nil {
		// Room for the sessions open now and a few more (psql, a check) beside the run.
		want := room.Reserved + room.Used + need + 10
		if err := s.tgt.Managed.SetMaxConnections(ctx, want); err != nil {
			return fmt.Errorf("the run needs %s and the managed server has %d free (%s); raising its max_connections to %d failed: %w", what, free, room, want, err)
		}
		s.tgt.DSN = s.tgt.Managed.URL("brokerbench")
		s.lw.logf("run: raised the managed server's max_connections from %d to %d (restarted it) for the run's %s", room.Max, want, what)
		return nil
	}
	return fmt.Errorf("the run needs %s but the server has %d free (%s): give fewer --users or a smaller --connections, or raise the server's max_connections", what, free, room)
}

// Connections is how many server connections a run of at most maxUsers users
// holds: the users, the market emulator's workers, the timer and the run's own
// (runOwnConnections), as the run's connection check and its cap warning count them.
func Connections(maxUsers int) int {
	return maxUsers + driver.MEEWorkersFor(maxUsers) + 1 + runOwnConnections
}
