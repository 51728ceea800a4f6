package iostat

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/prometheus/procfs"

	"github.com/brokerbench/brokerbench/results"
)

// The storage stack under a database's directories, recorded with every run so
// compare can say how two systems differed (docs/result-format.md, "system"): the
// file system and its mount options, then each block device from the file
// system's down (dm/LVM, md RAID, partitions, loop, disks) with the queue settings
// that change I/O. Everything comes from sysfs and /proc/self/mountinfo, through
// the same locator that finds the devices to sample.

// DescribeStorage describes the stacks under the data and WAL directories (wal ""
// or the same file system as data: one stack). It needs the directories on this
// host; an error says why they could not be described.
// serverPID, when positive, is a process of the database server (a backend):
// the I/O limits of its cgroup on each device are recorded too.
func DescribeStorage(dataDir, walDir string, serverPID int) (*results.System, error) {
	return describeStorage("/proc", "/sys", dataDir, walDir, serverPID)
}

func describeStorage(proc, sys, dataDir, walDir string, serverPID int) (*results.System, error) {
	l, err := newLocator(proc, sys)
	if err != nil {
		return nil, err
	}
	out := &results.System{}
	seen := map[string]bool{}
	for _, d := range []struct{ role, path string }{{RoleData, dataDir}, {RoleWAL, walDir}} {
		if d.path == "" {
			continue
		}
		maj, min, err := l.devNumber(d.path)
		if err != nil {
			return nil, fmt.Errorf("storage under %s: %w", d.path, err)
		}
		key := fmt.Sprintf("%d:%d", maj, min)
		if seen[key] {
			continue // the WAL on the data directory's file system
		}
		seen[key] = true
		st, err := l.describeStack(d.role, d.path, maj, min)
		if err != nil {
			return nil, fmt.Errorf("storage under %s: %w", d.path, err)
		}
		if serverPID > 0 {
			lim := cgroupIOLimits(proc, filepath.Join(sys, "fs", "cgroup"), serverPID)
			for i := range st.Devices {
				st.Devices[i].Throttle = lim[st.Devices[i].Number]
			}
		}
		out.Storage = append(out.Storage, st)
	}
	return out, nil
}

// describeStack is the stack of device maj:min holding path: its mount and its
// devices, top first.
func (l *locator) describeStack(role, path string, maj, min uint32) (results.StorageStack, error) {
	st := results.StorageStack{Role: role, Path: path}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		real = path
	}
	if m, err := l.mountOf(real); err == nil {
		st.Mount = m
	}
	dir, err := l.blockDir(maj, min)
	if err != nil {
		return st, err
	}
	st.Devices, err = l.describeDevices(dir, 0, nil)
	return st, err
}

// mountOf is the mount with the longest mount point that contains path.
func (l *locator) mountOf(path string) (*results.Mount, error) {
	best, err := l.mountHolding(path)
	if err != nil {
		return nil, err
	}
	if best == nil {
		return nil, fmt.Errorf("no mount holds %s", path)
	}
	return &results.Mount{Point: best.MountPoint, FSType: best.FSType, Source: best.Source,
		Options: joinOptions(best.Options, best.SuperOptions)}, nil
}

// joinOptions lists the mount's and the super block's options once each, sorted.
func joinOptions(sets ...map[string]string) string {
	seen := map[string]bool{}
	for _, s := range sets {
		for k, v := range s {
			if v != "" {
				k += "=" + v
			}
			seen[k] = true
		}
	}
	return strings.Join(sortedKeys(seen), ",")
}

// describeDevices describes the device in sysfs directory dir and, after it, what
// it is built from: a partition's disk, a dm or md device's slaves, depth first.
func (l *locator) describeDevices(dir string, depth int, seen map[string]bool) ([]results.BlockDevice, error) {
	if depth > maxStackDepth {
		return nil, fmt.Errorf("block device stack under %s deeper than %d", filepath.Base(dir), maxStackDepth)
	}
	if seen == nil {
		seen = map[string]bool{}
	}
	name := filepath.Base(dir)
	if seen[name] {
		return nil, nil
	}
	seen[name] = true
	d := describeDevice(dir, name, depth)
	var below []string // sysfs directories of the members
	if d.Kind == "partition" {
		below = append(below, filepath.Dir(dir))
	}
	if ents, err := os.ReadDir(filepath.Join(dir, "slaves")); err == nil {
		for _, e := range ents {
			p, err := filepath.EvalSymlinks(filepath.Join(dir, "slaves", e.Name()))
			if err == nil {
				below = append(below, p)
			}
		}
	}
	for _, b := range below {
		d.Members = append(d.Members, filepath.Base(b))
	}
	slices.Sort(d.Members)
	out := []results.BlockDevice{d}
	slices.SortFunc(below, func(a, b string) int { return strings.Compare(filepath.Base(a), filepath.Base(b)) })
	for _, b := range below {
		sub, err := l.describeDevices(b, depth+1, seen)
		if err != nil {
			return nil, err
		}
		out = append(out, sub...)
	}
	return out, nil
}

// describeDevice reads one device's sysfs attributes. A partition has no queue of
// its own: its disk's is read where the disk is described.
func describeDevice(dir, name string, depth int) results.BlockDevice {
	d := results.BlockDevice{Name: name, Depth: depth, Kind: deviceKind(dir, name), Number: readText(filepath.Join(dir, "dev"))}
	if sectors, ok := readInt(filepath.Join(dir, "size")); ok {
		d.SizeBytes = sectors * 512 // sysfs counts 512-byte sectors whatever the device's
	}
	d.Model = readText(filepath.Join(dir, "device", "model"))
	if v, ok := readInt(filepath.Join(dir, "queue", "rotational")); ok {
		rot := v == 1
		d.Rotational = &rot
	}
	d.Scheduler = activeScheduler(readText(filepath.Join(dir, "queue", "scheduler")))
	if v, ok := readInt(filepath.Join(dir, "queue", "nr_requests")); ok {
		d.NrRequests = int(v)
	}
	if v, ok := readInt(filepath.Join(dir, "queue", "read_ahead_kb")); ok {
		d.ReadAheadKB = int(v)
	}
	d.WriteCache = readText(filepath.Join(dir, "queue", "write_cache"))
	switch d.Kind {
	case "md":
		d.RAIDLevel = readText(filepath.Join(dir, "md", "level"))
		if v, ok := readInt(filepath.Join(dir, "md", "chunk_size")); ok {
			d.ChunkBytes = v
		}
		if v, ok := readInt(filepath.Join(dir, "md", "raid_disks")); ok {
			d.RAIDDisks = int(v)
		}
	case "dm":
		d.DMName = readText(filepath.Join(dir, "dm", "name"))
		if uuid := readText(filepath.Join(dir, "dm", "uuid")); uuid != "" {
			d.DMTarget, _, _ = strings.Cut(uuid, "-")
		}
	case "loop":
		d.BackingFile = readText(filepath.Join(dir, "loop", "backing_file"))
		if v, ok := readInt(filepath.Join(dir, "loop", "dio")); ok {
			dio := v == 1
			d.DirectIO = &dio
		}
	}
	return d
}

// deviceKind names a device's layer from sysfs: a "partition" file, a dm or md
// directory, a loop device's loop directory; else by its name; else a disk.
func deviceKind(dir, name string) string {
	exists := func(p string) bool { _, err := os.Stat(filepath.Join(dir, p)); return err == nil }
	switch {
	case exists("partition"):
		return "partition"
	case exists("dm") || strings.HasPrefix(name, "dm-"):
		return "dm"
	case exists("md") || strings.HasPrefix(name, "md"):
		return "md"
	case exists("loop") || strings.HasPrefix(name, "loop"):
		return "loop"
	case strings.HasPrefix(name, "zram"):
		return "zram"
	}
	return "disk"
}

// activeScheduler picks the bracketed entry of queue/scheduler ("none
// [mq-deadline] kyber" → "mq-deadline"); a single entry is itself.
func activeScheduler(s string) string {
	if i := strings.IndexByte(s, '['); i >= 0 {
		if j := strings.IndexByte(s[i:], ']'); j > 0 {
			return s[i+1 : i+j]
		}
	}
	if strings.ContainsRune(s, ' ') {
		return ""
	}
	return s
}

func readText(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func readInt(path string) (int64, bool) {
	v, err := strconv.ParseInt(readText(path), 10, 64)
	return v, err == nil
}

// cgroupIOLimits are the I/O limits of process pid's cgroup, by device number
// ("7:0"), written as cgroup v2's io.max writes them ("riops=200 wiops=200"):
// a cgroup v1 blkio group's throttle files, or a v2 group's io.max. A limit set
// on the process's own group is what the server's I/O met; an ancestor's is not
// read.
func cgroupIOLimits(proc, cgroupRoot string, pid int) map[string]string {
	fs, err := procfs.NewFS(proc)
	if err != nil {
		return nil
	}
	p, err := fs.Proc(pid)
	if err != nil {
		return nil
	}
	groups, err := p.Cgroups()
	if err != nil {
		return nil
	}
	parts := map[string][]string{}
	add := func(dev, kv string) {
		if !slices.Contains(parts[dev], kv) {
			parts[dev] = append(parts[dev], kv)
		}
	}
	for _, g := range groups {
		switch {
		case slices.Contains(g.Controllers, "blkio"):
			dir := filepath.Join(cgroupRoot, "blkio", g.Path)
			for _, f := range []struct{ file, key string }{
				{"blkio.throttle.read_bps_device", "rbps"}, {"blkio.throttle.write_bps_device", "wbps"},
				{"blkio.throttle.read_iops_device", "riops"}, {"blkio.throttle.write_iops_device", "wiops"},
			} {
				for _, line := range strings.Split(readText(filepath.Join(dir, f.file)), "\n") {
					if dev, v, ok := strings.Cut(strings.TrimSpace(line), " "); ok {
						add(dev, f.key+"="+strings.TrimSpace(v))
					}
				}
			}
		case g.HierarchyID == 0:
			for _, line := range strings.Split(readText(filepath.Join(cgroupRoot, g.Path, "io.max")), "\n") {
				dev, rest, ok := strings.Cut(strings.TrimSpace(line), " ")
				if !ok {
					continue
				}
				for _, kv := range strings.Fields(rest) {
					if !strings.HasSuffix(kv, "=max") {
						add(dev, kv)
					}
				}
			}
		}
	}
	out := map[string]string{}
	for dev, kvs := range parts {
		if len(kvs) > 0 {
			out[dev] = strings.Join(kvs, " ")
		}
	}
	return out
}
