package iostat

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/prometheus/procfs"
	"github.com/prometheus/procfs/blockdevice"
	"golang.org/x/sys/unix"
)

// locator maps directories to the block devices under them (docs/storage.md §2.3). proc and
// sys are the mount points ("/proc", "/sys" or a test fixture).
type locator struct {
	proc, sys string
	bd        blockdevice.FS
}

func newLocator(proc, sys string) (*locator, error) {
	bd, err := blockdevice.NewFS(proc, sys)
	if err != nil {
		return nil, fmt.Errorf("read block device statistics: %w", err)
	}
	return &locator{proc: proc, sys: sys, bd: bd}, nil
}

// stack is a filesystem's device and the whole disks at the bottom of it.
type stack struct {
	Top    string   // the device the filesystem sits on: a disk, a partition, dm-N, mdN
	Leaves []string // whole disks under Top; just [Top] for a plain disk
}

// devNumber returns the major:minor of the filesystem holding path (symlinks
// followed: pg_wal is often a link to another volume).
func (l *locator) devNumber(path string) (uint32, uint32, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return 0, 0, err
	}
	var st unix.Stat_t
	if err := unix.Stat(real, &st); err != nil {
		return 0, 0, fmt.Errorf("stat %s: %w", real, err)
	}
	maj, min := unix.Major(uint64(st.Dev)), unix.Minor(uint64(st.Dev))
	if maj != 0 {
		return maj, min, nil
	}
	// Major 0 is an anonymous device (btrfs subvolume, overlay, tmpfs, NFS): the mount
	// source may still name a block device.
	return l.mountSource(real)
}

// mountSource finds the mount with the longest mount point that contains path and
// returns the device number of its source when that is a block device.
func (l *locator) mountSource(path string) (uint32, uint32, error) {
	best, err := l.mountHolding(path)
	if err != nil {
		return 0, 0, err
	}
	if best == nil || !strings.HasPrefix(best.Source, "/dev/") {
		fsType := "unknown"
		if best != nil {
			fsType = best.FSType
		}
		return 0, 0, fmt.Errorf("%s is on a %s filesystem without a block device", path, fsType)
	}
	var st unix.Stat_t
	if err := unix.Stat(best.Source, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFBLK {
		return 0, 0, fmt.Errorf("%s is mounted from %s, which is not a block device", path, best.Source)
	}
	return unix.Major(uint64(st.Rdev)), unix.Minor(uint64(st.Rdev)), nil
}

// mountHolding is the mount with the longest mount point that contains path (the
// last such line of mountinfo, the one on top); nil when none does.
func (l *locator) mountHolding(path string) (*procfs.MountInfo, error) {
	fs, err := procfs.NewFS(l.proc)
	if err != nil {
		return nil, err
	}
	self, err := fs.Self()
	if err != nil {
		return nil, err
	}
	mounts, err := self.MountInfo()
	if err != nil {
		return nil, err
	}
	var best *procfs.MountInfo
	for _, m := range mounts {
		if within(path, m.MountPoint) && (best == nil || len(m.MountPoint) >= len(best.MountPoint)) {
			best = m
		}
	}
	return best, nil
}

func within(path, dir string) bool {
	return path == dir || dir == "/" || strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}

// stackOf resolves device maj:min through /sys/dev/block to its kernel name and walks
// down through partitions and layered devices (dm, md: slaves/) to the whole disks.
func (l *locator) stackOf(maj, min uint32) (stack, error) {
	dir, err := l.blockDir(maj, min)
	if err != nil {
		return stack{}, err
	}
	top := filepath.Base(dir)
	leaves, err := l.leaves(l.wholeDiskDir(dir), 0)
	if err != nil {
		return stack{}, err
	}
	return stack{Top: top, Leaves: leaves}, nil
}

// blockDir is device maj:min's sysfs directory, /sys/dev/block/maj:min resolved.
func (l *locator) blockDir(maj, min uint32) (string, error) {
	link := filepath.Join(l.sys, "dev", "block", fmt.Sprintf("%d:%d", maj, min))
	dir, err := filepath.EvalSymlinks(link)
	if err != nil {
		return "", fmt.Errorf("device %d:%d has no %s entry (not a block device)", maj, min, link)
	}
	return dir, nil
}

// wholeDiskDir returns the disk's name for a partition's sysfs directory (a partition
// directory holds a "partition" file and lives inside its disk's), else the name.
func (l *locator) wholeDiskDir(dir string) string {
	if _, err := os.Stat(filepath.Join(dir, "partition")); err == nil {
		return filepath.Base(filepath.Dir(dir))
	}
	return filepath.Base(dir)
}

// wholeDisk maps a kernel name (sdb1, dm-0) to its whole disk through /sys/class/block.
func (l *locator) wholeDisk(name string) (string, error) {
	dir, err := filepath.EvalSymlinks(filepath.Join(l.sys, "class", "block", name))
	if err != nil {
		return "", fmt.Errorf("block device %s: %w", name, err)
	}
	return l.wholeDiskDir(dir), nil
}

const maxStackDepth = 8

// leaves returns the whole disks at the bottom of disk's stack, sorted; [disk] when it
// is built from nothing else.
func (l *locator) leaves(disk string, depth int) ([]string, error) {
	if depth > maxStackDepth {
		return nil, fmt.Errorf("block device stack under %s deeper than %d", disk, maxStackDepth)
	}
	under, err := l.bd.SysBlockDeviceUnderlyingDevices(disk)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("members of %s: %w", disk, err)
	}
	if len(under.DeviceNames) == 0 {
		return []string{disk}, nil
	}
	set := map[string]bool{}
	for _, m := range under.DeviceNames {
		d, err := l.wholeDisk(m)
		if err != nil {
			return nil, err
		}
		sub, err := l.leaves(d, depth+1)
		if err != nil {
			return nil, err
		}
		for _, s := range sub {
			set[s] = true
		}
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out, nil
}

// layout turns the stacks of the data and WAL directories into the device list:
// top devices first (data, wal; data+wal when they share one), then the whole disks
// under them, which are not in the totals. A device that is a top for one role and
// under the other's top is reported once, as a top; the other top is then left out
// of the totals, since its I/O is inside the first one's.
func layout(data stack, wal *stack) []Device {
	roles := map[string]string{}
	var order []string
	add := func(name, role string) {
		if old, ok := roles[name]; ok {
			if old != role {
				roles[name] = RoleDataWAL
			}
			return
		}
		roles[name] = role
		order = append(order, name)
	}
	add(data.Top, RoleData)
	inTotals := map[string]bool{data.Top: true}
	if wal != nil {
		add(wal.Top, RoleWAL)
		inTotals[wal.Top] = true
		if wal.Top != data.Top {
			if contains(wal.Leaves, data.Top) {
				inTotals[wal.Top] = false
			} else if contains(data.Leaves, wal.Top) {
				inTotals[data.Top] = false
			}
		}
	}
	for _, lv := range data.Leaves {
		add(lv, RoleData)
	}
	if wal != nil {
		for _, lv := range wal.Leaves {
			add(lv, RoleWAL)
		}
	}
	out := make([]Device, 0, len(order))
	for _, n := range order {
		out = append(out, Device{Name: n, Role: roles[n], InTotals: inTotals[n]})
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// DisksUnder returns the whole disks at the bottom of the file system holding dir
// (through partitions, dm, md and loop), as the sampler resolves them: the devices
// whose requests carry that file system's I/O.
func DisksUnder(dir string) ([]string, error) {
	l, err := newLocator("/proc", "/sys")
	if err != nil {
		return nil, err
	}
	maj, min, err := l.devNumber(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	st, err := l.stackOf(maj, min)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return st.Leaves, nil
}
