package target

import (
	"context"
	"fmt"

	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/internal/pgmanaged"
)

// BeginManagedLoad restarts the managed server with the load settings
// (pgmanaged.LoadSettings: wal_level = minimal and the rest) for the duration of a load.
// The returned function restores the cluster's own settings: a cluster that stays up
// (pg start) is restarted with them, so runs are measured on the normal settings; one
// this command stops just loses the load's include file. A capped server's cap is
// lifted for the load and set again after it (internal/pgmanaged, loadcap.go). A
// server named by --db keeps its settings: the loader sets only per-session ones there.
//
// end returns the load's own error (loadErr) with the restore's failure after it: a
// server that failed the load usually fails its restart too, and the cause must come
// first, not a "pg_ctl failed" line printed before it.
func (t *Target) BeginManagedLoad(ctx context.Context, logf func(string, ...any)) (end func(loadErr error) error, err error) {
	logf("restarting managed PostgreSQL with the load settings (wal_level = minimal, no checkpoints, no autovacuum); its own are restored after the load")
	if t.Managed.LoadLiftsCap() {
		logf("lifting the server's memory cap of %s for the load (its table streams and index builds need more); it is set again after the load",
			bytesize.Format(t.Managed.MemoryCap))
	}
	if err := t.Managed.BeginLoad(ctx, pgmanaged.LoadSettings()); err != nil {
		return nil, fmt.Errorf("managed PostgreSQL: %w", err)
	}
	return func(loadErr error) error {
		return followedBy(loadErr, t.Managed.EndLoad(t.keep), "managed PostgreSQL")
	}, nil
}
