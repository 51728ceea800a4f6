package pgmanaged

import (
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/brokerbench/brokerbench/internal/bytesize"
)

// A load into a capped cluster runs with the cap lifted. The loader streams every
// table over its own connection (some 40 backends of about 4 MiB each) and builds
// each table's indexes as it finishes with maintenance_work_mem set per build
// (loader, postload.go), two at a time: with a 192 MB cap, 1,000 customers and 5
// trade days, the cap's OOM killer ended a backend mid-load. The cap exists so that
// runs read from the disks (docs/storage-bound.md); a load measures nothing, so it
// gets the memory it needs, as quickstart's uncapped load does, and the cap is set
// again before anything is measured.

// LoadLiftsCap reports whether BeginLoad lifts the cluster's memory cap for the
// load (it runs capped), so the command can say so.
func (c *Cluster) LoadLiftsCap() bool { return c.cgroup != nil && c.MemoryCap > 0 }

// liftCap raises the group's limit as far as the kernel allows for the load.
func (c *Cluster) liftCap() error {
	if !c.LoadLiftsCap() {
		return nil
	}
	return c.cgroup.SetLimit(math.MaxInt64)
}

// restoreCap sets the group's limit back to the cluster's cap.
func (c *Cluster) restoreCap() error {
	if !c.LoadLiftsCap() {
		return nil
	}
	if err := c.cgroup.SetLimit(c.MemoryCap); err != nil {
		return fmt.Errorf("set the memory cap of %s again after the load: %w", bytesize.Format(c.MemoryCap), err)
	}
	return nil
}

// CapLifted reports whether the cluster's group is above its cap now: a load runs
// (or one was killed before EndLoad, and the next start sets the cap again).
func (c *Cluster) CapLifted() bool {
	if !c.LoadLiftsCap() {
		return false
	}
	lim, err := c.cgroup.Limit()
	return err == nil && (lim < 0 || lim > c.MemoryCap)
}

// restoreLiftedCap sets the cap again on a running cluster whose group is above it
// while no load settings are in place: a load killed between EndLoad's restart and
// its restore left it lifted. While the load settings are there a load may be
// running, and lowering the cap under it is what this file exists to avoid; a
// load killed earlier left both, and the next start undoes both.
func (c *Cluster) restoreLiftedCap() {
	if !c.CapLifted() {
		return
	}
	if _, err := os.Stat(filepath.Join(c.DataDir, loadConf)); err == nil {
		return
	}
	if c.cgroup.SetLimit(c.MemoryCap) == nil {
		c.log("the memory cap of %s, lifted by a load that did not finish, is set again", bytesize.Format(c.MemoryCap))
	}
}
