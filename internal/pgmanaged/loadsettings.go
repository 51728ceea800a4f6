package pgmanaged

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// loadConf holds the load-time settings. It exists only while a load runs: postgresql.conf
// includes it after brokerbench.conf, so its values win, and every managed start deletes
// a stale one (a load killed before it could restore), so a run never inherits them.
const loadConf = "brokerbench-load.conf"

// LoadSettings are the server settings of a bulk load, on top of the cluster's own. A
// load writes each table in one COPY in the transaction that truncated it and builds
// every index on a relation that is new in its transaction; with wal_level = minimal
// PostgreSQL writes neither to the WAL (it syncs the files at commit instead), so the
// server stops writing the data twice. The rest keeps the server from working against
// the load: no checkpoints forced by WAL volume or time, no commit flushes, no
// autovacuum workers analysing tables the load analyses itself at the end. None of it
// risks more than the load: a crash during it means loading again (--drop), as always.
func LoadSettings() map[string]string {
	return map[string]string{
		"wal_level":          "minimal",
		"max_wal_senders":    "0", // wal_level = minimal requires it
		"max_wal_size":       "'16GB'",
		"checkpoint_timeout": "'1h'",
		"synchronous_commit": "off",
		"autovacuum":         "off",
	}
}

// BeginLoad restarts the server with settings (LoadSettings) on top of its own. A
// capped server's cap is lifted for the load (LoadLiftsCap). EndLoad undoes both; call
// it even when the load fails.
func (c *Cluster) BeginLoad(ctx context.Context, settings map[string]string) error {
	if err := c.liftCap(); err != nil {
		return fmt.Errorf("lift the memory cap for the load: %w", err)
	}
	// Included after brokerbench.conf (writeConf adds that one at the first start), so
	// the load's values override the cluster's.
	if err := c.writeInclude(loadConf, "for the duration of a load; removed after it", settings); err != nil {
		return errors.Join(err, c.restoreCap())
	}
	if err := c.Restart(ctx); err != nil {
		// A server that refuses the settings (archive_mode = on in a hand-edited
		// postgresql.conf refuses wal_level = minimal) is down now: bring it back
		// with its own.
		if rmErr := c.removeLoadConf(); rmErr == nil {
			_ = c.Restart(context.WithoutCancel(ctx))
		}
		return errors.Join(fmt.Errorf("restart with the load settings: %w", err), c.restoreCap())
	}
	return nil
}

// EndLoad removes the load settings and, when restart is set (the server keeps running
// for other commands), restarts the server with its own settings; a cap BeginLoad
// lifted is set again. It works after the caller's context was canceled (Ctrl-C
// during the load).
func (c *Cluster) EndLoad(restart bool) error {
	if err := c.removeLoadConf(); err != nil {
		return errors.Join(err, c.restoreCap())
	}
	if !restart {
		return c.restoreCap()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c.log("restarting managed PostgreSQL with its own settings")
	if err := c.Restart(ctx); err != nil {
		return errors.Join(fmt.Errorf("restart with the run settings after the load: %w", err), c.restoreCap())
	}
	// After the restart: the load's backends are gone, and what the group gives back
	// to fit the cap again is page cache.
	return c.restoreCap()
}

func (c *Cluster) removeLoadConf() error {
	if err := os.Remove(filepath.Join(c.DataDir, loadConf)); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}
