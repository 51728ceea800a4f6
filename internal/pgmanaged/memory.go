package pgmanaged

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/internal/bytesize"
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
			bytesize.Format(capBytes), bytesize.Format(MinMemoryCap))
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
	name := memcap.NameFor("pg", c.DataDir)
	if removed, err := ctl.RemoveStale(name, staleGroupAge); err == nil && len(removed) > 0 {
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
		bytesize.Format(capBytes), g.Dir, files)
	return g, nil
}

// MaintenanceWorkMemFor is the maintenance_work_mem a cap implies: an eighth of it,
// at least 8 MB. The default 512 MB would let one index build of a load take twice a
// 256 MB cap in private memory, which no page cache can give back: the cap's OOM
// killer ended the load's backends. The load builds an index per table as it
// finishes, two at a time, so two of them take a quarter of the cap.
func MaintenanceWorkMemFor(capBytes int64) string {
	m := max(capBytes/8, 8<<20)
	return "'" + strconv.FormatInt(m>>20, 10) + "MB'"
}

// withMemorySettings sets shared_buffers and maintenance_work_mem from the cap
// unless the caller gave them.
func withMemorySettings(settings map[string]string, capBytes int64) map[string]string {
	out := map[string]string{}
	for k, v := range settings {
		out[k] = v
	}
	if capBytes <= 0 {
		return out
	}
	if _, given := out["shared_buffers"]; !given {
		out["shared_buffers"] = SharedBuffersFor(capBytes)
	}
	if _, given := out["maintenance_work_mem"]; !given {
		out["maintenance_work_mem"] = MaintenanceWorkMemFor(capBytes)
	}
	return out
}

// startCapped starts the server inside the memory group when the cluster has a cap,
// else as any other start does. On failure the group is removed again.
func (c *Cluster) startCapped(ctx context.Context, settings map[string]string) error {
	if c.MemoryCap == 0 {
		if err := c.start(ctx, settings); err != nil {
			return err
		}
		c.rememberCap()
		return nil
	}
	settings = withMemorySettings(settings, c.MemoryCap)
	if err := c.checkCapFits(ctx, settings); err != nil {
		return err
	}
	g, err := c.openMemoryGroup(c.MemoryCap)
	if err != nil {
		return err
	}
	err = c.startInGroup(g, func() error { return c.start(ctx, settings) })
	if err != nil {
		return errors.Join(err, g.Remove())
	}
	c.cgroup = g
	c.rememberCap()
	// The state file was written by start before the group was known.
	return c.writeState()
}

// removeMemoryGroup removes the group after the server stopped.
func (c *Cluster) removeMemoryGroup() error {
	if c.cgroup == nil {
		return nil
	}
	peak, _ := c.cgroup.PeakBytes()
	if err := c.cgroup.Remove(); err != nil {
		return err
	}
	c.log("memory cgroup %s removed (the server used at most %s of its %s cap, page cache included)",
		c.cgroup.Dir, bytesize.Format(peak), bytesize.Format(c.MemoryCap))
	c.cgroup = nil
	return nil
}

// removeEmptyMemoryGroup removes the group when no process is left in it.
func (c *Cluster) removeEmptyMemoryGroup() {
	if c.cgroup == nil {
		return
	}
	if pids, err := c.cgroup.Procs(); err == nil && len(pids) == 0 {
		_ = c.removeMemoryGroup()
	}
}

// MemoryGroup is the directory of the server's memory cgroup, "" without a cap.
func (c *Cluster) MemoryGroup() string {
	if c.cgroup == nil {
		return ""
	}
	return c.cgroup.Dir
}

// RestartWithMemoryCap stops the server and starts it again with capBytes (0: no
// cap), keeping its data and settings; the port may change, so connect again with
// URL. quickstart loads without a cap, then caps the server at a share of what it
// loaded.
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
	if err := c.stopServer(); err != nil {
		return err
	}
	prev := c.MemoryCap
	c.MemoryCap = capBytes
	err := c.startCapped(ctx, c.settings)
	var small *capTooSmallError
	if errors.As(err, &small) {
		// The cap is only known to be too small once the server is down: bring it
		// back as it was, and say why the new cap was refused.
		c.MemoryCap = prev
		return errors.Join(err, c.startCapped(ctx, c.settings))
	}
	return err
}

// groupFromState reopens the group a state file names, for a later process: pg
// stop removes it, and load restarts the server inside it (with the load settings
// and back), so it is joined to this process's controller when there is one.
func groupFromState(st state) *memcap.Group {
	if st.Cgroup == "" || filepath.Base(st.Cgroup) == "" {
		return nil
	}
	if ctl, err := memcap.Find(); err == nil {
		return ctl.Existing(st.Cgroup)
	}
	return memcap.OpenExisting(st.Cgroup)
}

// staleGroupAge is how old an empty group must be before a start takes it for a
// crashed server's leftover; younger ones may be another start's, not yet joined.
const staleGroupAge = time.Minute

// backendHeadroom is what a capped server needs beyond its shared memory: the
// backends of a few dozen connections and a little page cache. Below it the
// cgroup's OOM killer takes the postmaster in the middle of a run.
const backendHeadroom = 64 << 20

// checkCapFits refuses a cap that cannot hold the server's own shared memory (which
// with 500 connections is far more than shared_buffers) plus backendHeadroom: the
// run would end with the postmaster killed. The server reports its need with
// `postgres -C shared_memory_size` (PostgreSQL 15 and later); older servers are not
// checked beyond MinMemoryCap.
func (c *Cluster) checkCapFits(ctx context.Context, settings map[string]string) error {
	shm := c.sharedMemoryBytes(ctx, settings)
	if shm == 0 || c.MemoryCap >= shm+backendHeadroom {
		return nil
	}
	all := DefaultSettings()
	for k, v := range settings {
		all[k] = v
	}
	return &capTooSmallError{fmt.Sprintf("a memory cap of %s is too small for the managed PostgreSQL: its shared memory alone takes %s "+
		"(shared_buffers %s, max_connections %s); give at least %s, or load more data to read from disk with a larger cap",
		bytesize.Format(c.MemoryCap), bytesize.Format(shm), strings.Trim(all["shared_buffers"], "'"), all["max_connections"],
		bytesize.Format(roundUpMB(shm+backendHeadroom)))}
}

// capTooSmallError is a cap below what the server needs before any page cache.
type capTooSmallError struct{ msg string }

func (e *capTooSmallError) Error() string { return e.msg }

// Is makes errors.Is(err, ErrCapTooSmall) true.
func (e *capTooSmallError) Is(target error) bool { return target == ErrCapTooSmall }

// ErrCapTooSmall matches a cap refused because the server would not fit in it.
var ErrCapTooSmall = errors.New("memory cap too small for the server")

func roundUpMB(b int64) int64 { return (b + 1<<20 - 1) >> 20 << 20 }

// sharedMemoryBytes asks the server binary for the shared memory the settings need;
// 0 when it cannot tell (before PostgreSQL 15, or no initialised cluster yet).
func (c *Cluster) sharedMemoryBytes(ctx context.Context, settings map[string]string) int64 {
	all := DefaultSettings()
	for k, v := range settings {
		all[k] = v
	}
	args := []string{"-D", c.DataDir, "-C", "shared_memory_size"}
	for _, k := range []string{"shared_buffers", "max_connections", "max_locks_per_transaction", "max_wal_senders", "max_worker_processes", "max_prepared_transactions"} {
		if v, ok := all[k]; ok {
			args = append(args, "-c", k+"="+strings.Trim(v, "'"))
		}
	}
	out, err := c.command(ctx, "postgres", args...).Output()
	if err != nil {
		return 0
	}
	mb, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return 0
	}
	return mb << 20
}

// capFile remembers, in a kept cluster's folder, the cap it last started with: the
// state file goes when the server stops, and a later start given no cap must not
// come back uncapped without a word.
const capFile = "brokerbench-memory-cap"

// rememberCap records the cap the server just started with (none: the file goes).
func (c *Cluster) rememberCap() {
	if c.temporary {
		return
	}
	p := filepath.Join(c.Dir, capFile)
	if c.MemoryCap <= 0 {
		_ = os.Remove(p)
		return
	}
	if err := replaceFile(p, []byte(strconv.FormatInt(c.MemoryCap, 10)+"\n"), 0o644); err != nil {
		c.log("warning: cannot remember the memory cap in %s (%v); a later start without --server-memory will run uncapped", p, err)
	}
}

// RememberedCap is the cap the cluster in dataDir last started with, 0 for none.
func RememberedCap(dataDir string) int64 {
	b, err := os.ReadFile(filepath.Join(dataDir, capFile))
	if err != nil {
		return 0
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || v < MinMemoryCap {
		return 0
	}
	return v
}

// keepRememberedCap starts the cluster with the cap it last had, and says so.
func (c *Cluster) keepRememberedCap() {
	if prev := RememberedCap(c.Dir); prev > 0 {
		c.MemoryCap = prev
		c.log("server memory capped at %s, as when this cluster last started (--server-memory 0 starts it uncapped)", bytesize.Format(prev))
	}
}
