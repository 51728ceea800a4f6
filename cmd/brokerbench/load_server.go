package main

import (
	"context"
	"fmt"

	"github.com/brokerbench/brokerbench/internal/pgmanaged"
)

// beginManagedLoad restarts the managed server with the load settings
// (pgmanaged.LoadSettings: wal_level = minimal and the rest) for the duration of a load.
// The returned function restores the cluster's own settings: a cluster that stays up
// (pg start) is restarted with them, so runs are measured on the normal settings; one
// this command stops just loses the load's include file. A server named by --db keeps
// its settings: the loader sets only per-session ones there.
func beginManagedLoad(ctx context.Context, g *globalOptions, t *target) (end func(), err error) {
	g.logf("restarting managed PostgreSQL with the load settings (wal_level = minimal, no checkpoints, no autovacuum); its own are restored after the load")
	if err := t.Managed.BeginLoad(ctx, pgmanaged.LoadSettings()); err != nil {
		return nil, fmt.Errorf("managed PostgreSQL: %w", err)
	}
	return func() {
		if err := t.Managed.EndLoad(t.keep); err != nil {
			fmt.Fprintf(g.Stderr, "brokerbench: managed PostgreSQL: %v\n", err)
		}
	}, nil
}
