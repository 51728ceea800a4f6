package pgmanaged

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/brokerbench/brokerbench/internal/memcap"
)

// MinMemoryCap is the smallest --server-memory accepted: below it a server with the
// managed settings (500 connections, 256 locks each) cannot hold its own shared
// memory and a few backends, and the cgroup's OOM killer ends the run.
const MinMemoryCap = 96 << 20

// ErrMemoryCap wraps every reason a memory cap cannot be applied (no memory
// controller, no permission); the message says what is needed.
var ErrMemoryCap = memcap.ErrUnavailable

// SharedBuffersFor is the shared_buffers a cap implies: about a quarter of it, so
// the rest is left for backends and the page cache inside the cap, in 8 kB pages
// and at least 16 MB.
func SharedBuffersFor(capBytes int64) string {
	sb := max(capBytes/4, 16<<20)
	return "'" + strconv.FormatInt(sb/8192*8, 10) + "kB'"
}

// CheckMemoryCap refuses a cap below MinMemoryCap (0 means no cap).
func CheckMemoryCap(capBytes int64) error {
	if capBytes != 0 && capBytes < MinMemoryCap {
		return fmt.Errorf("a memory cap of %s is below the %s the managed PostgreSQL needs for its shared memory and backends",
			memcap.FormatSize(capBytes), memcap.FormatSize(MinMemoryCap))
	}
	return nil
}

// openMemoryGroup prepares the cluster's memory cgroup for a start with capBytes:
// the group named after the data directory (a stale one from a crash is reused),
// empty leftovers of other clusters removed, and the cluster's files evicted from
// the page cache so their pages are read again, and charged, inside the cap.
func (c *Cluster) openMemoryGroup(capBytes int64) (*memcap.Group, error) {
	if err := CheckMemoryCap(capBytes); err != nil {
		return nil, err
	}
	ctl, err := memcap.Find()
	if err != nil {
		return nil, err
	}
	name := memcap.NameFor(c.DataDir)
	if removed, err := ctl.RemoveStale(name); err == nil && len(removed) > 0 {
		c.log("removed %d memory cgroup(s) left by managed servers that did not stop cleanly", len(removed))
	}
	g, err := ctl.Open(name, capBytes)
	if err != nil {
		return nil, err
	}
	files, err := memcap.Evict(c.DataDir)
	if err != nil {
		_ = g.Remove()
		return nil, fmt.Errorf("evict %s from the page cache: %w", c.DataDir, err)
	}
	c.log("server memory capped at %s in cgroup %s (%d files of the cluster evicted from the page cache)",
		memcap.FormatSize(capBytes), g.Dir, files)
	return g, nil
}

// withMemorySettings sets shared_buffers from the cap unless the caller gave it.
func withMemorySettings(settings map[string]string, capBytes int64) map[string]string {
	out := map[string]string{}
	for k, v := range settings {
		out[k] = v
	}
	if _, given := out["shared_buffers"]; !given && capBytes > 0 {
		out["shared_buffers"] = SharedBuffersFor(capBytes)
	}
	return out
}

// startCapped starts the server inside the memory group when the cluster has a cap,
// else as before. On failure the group is removed again.
func (c *Cluster) startCapped(ctx context.Context, settings map[string]string) error {
	if c.MemoryCap == 0 {
		return c.start(ctx, settings)
	}
	g, err := c.openMemoryGroup(c.MemoryCap)
	if err != nil {
		return err
	}
	err = g.Run(func() error { return c.start(ctx, withMemorySettings(settings, c.MemoryCap)) })
	if err != nil {
		return errors.Join(err, g.Remove())
	}
	c.cgroup = g
	// The state file was written by start before the group was known.
	return c.writeState()
}

// removeMemoryGroup removes the group after the server stopped.
func (c *Cluster) removeMemoryGroup() error {
	if c.cgroup == nil {
		return nil
	}
	if err := c.cgroup.Remove(); err != nil {
		return err
	}
	c.log("memory cgroup %s removed", c.cgroup.Dir)
	c.cgroup = nil
	return nil
}

// MemoryGroup is the directory of the server's memory cgroup, "" without a cap.
func (c *Cluster) MemoryGroup() string {
	if c.cgroup == nil {
		return ""
	}
	return c.cgroup.Dir
}

// MemoryPeak is the most memory the server's cgroup used, page cache included; 0
// without a cap.
func (c *Cluster) MemoryPeak() int64 {
	if c.cgroup == nil {
		return 0
	}
	v, _ := c.cgroup.PeakBytes()
	return v
}

// RestartWithMemoryCap stops the server and starts it again with capBytes (0: no
// cap), keeping its port, data and settings: quickstart loads without a cap, then
// caps the server at a share of what it loaded.
func (c *Cluster) RestartWithMemoryCap(ctx context.Context, capBytes int64) error {
	if err := CheckMemoryCap(capBytes); err != nil {
		return err
	}
	// Find out whether a cap can be applied at all before stopping a running server.
	if capBytes > 0 {
		if _, err := memcap.Find(); err != nil {
			return err
		}
	}
	if err := c.run(context.WithoutCancel(ctx), "pg_ctl", "-D", c.DataDir, "-m", "fast", "-w", "-t", "60", "stop"); err != nil {
		return err
	}
	if err := c.removeMemoryGroup(); err != nil {
		return err
	}
	c.MemoryCap = capBytes
	return c.startCapped(ctx, c.settings)
}

// groupFromState reopens the group a state file names (pg stop in a later process).
func groupFromState(st state) *memcap.Group {
	if st.Cgroup == "" || filepath.Base(st.Cgroup) == "" {
		return nil
	}
	return memcap.OpenExisting(st.Cgroup)
}
