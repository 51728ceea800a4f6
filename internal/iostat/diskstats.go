package iostat

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/procfs/blockdevice"
)

// diskstats reads the local block devices' counters from /proc/diskstats: one read
// gives every device at the same moment.
type diskstats struct {
	bd      blockdevice.FS
	devices []Device
	note    string
	now     func() time.Time
}

var _ Source = (*diskstats)(nil)

func (d *diskstats) Name() string      { return SourceDiskstats }
func (d *diskstats) Devices() []Device { return d.devices }
func (d *diskstats) Note() string      { return d.note }
func (d *diskstats) Close() error      { return nil }

func (d *diskstats) Snapshot(context.Context) (*Snapshot, error) {
	all, err := d.bd.ProcDiskstats()
	if err != nil {
		return nil, fmt.Errorf("read diskstats: %w", err)
	}
	s := &Snapshot{At: d.now(), Devices: make(map[string]Counters, len(d.devices))}
	want := make(map[string]bool, len(d.devices))
	for _, dv := range d.devices {
		want[dv.Name] = true
	}
	for _, st := range all {
		if want[st.DeviceName] {
			s.Devices[st.DeviceName] = kernelCounters(st.IOStats)
		}
	}
	return s, nil
}

// kernelCounters converts one diskstats line (docs/storage.md §4.2): sectors are always 512
// bytes; the ms fields wrap at 2³².
func kernelCounters(st blockdevice.IOStats) Counters {
	return Counters{
		Has:        HasReadTime | HasWriteTime | HasBusyTime | HasQueueTime,
		ReadOps:    st.ReadIOs,
		WriteOps:   st.WriteIOs,
		ReadBytes:  st.ReadSectors * 512,
		WriteBytes: st.WriteSectors * 512,
		ReadTime:   st.ReadTicks * 1000,
		WriteTime:  st.WriteTicks * 1000,
		BusyTime:   st.IOsTotalTicks * 1000,
		QueueTime:  st.WeightedIOTicks * 1000,
		TimeWrap:   kernelTimeWrap,
	}
}

// openLocalByName makes a diskstats source for devices named by hand ("sdb",
// "/dev/sdb", or "sdb=wal" to give the role). Names are checked against
// /proc/diskstats so a typo fails at start, not as an empty result.
func openLocalByName(l *locator, names []string, known map[string]string) (*diskstats, error) {
	all, err := l.bd.ProcDiskstats()
	if err != nil {
		return nil, fmt.Errorf("read diskstats: %w", err)
	}
	present := map[string]bool{}
	for _, st := range all {
		present[st.DeviceName] = true
	}
	var devs []Device
	seen := map[string]bool{}
	for _, arg := range names {
		name, role, hasRole := strings.Cut(arg, "=")
		name = filepath.Base(strings.TrimSpace(name))
		if !present[name] {
			return nil, fmt.Errorf("--io-device %s: no such device in %s/diskstats (have: %s)", arg, l.proc, strings.Join(sortedKeys(present), ", "))
		}
		if !hasRole {
			role = known[name]
			if role == "" {
				role = RoleUnknown
			}
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		// Devices named by hand are all counted: the user chose them.
		devs = append(devs, Device{Name: name, Role: role, InTotals: true})
	}
	return &diskstats{bd: l.bd, devices: devs, now: time.Now}, nil
}

// openLocalByDirs finds the devices under the data and WAL directories.
func openLocalByDirs(l *locator, dataDir, walDir string, logf func(string, ...any)) (*diskstats, error) {
	maj, min, err := l.devNumber(dataDir)
	if err != nil {
		return nil, fmt.Errorf("data directory %s: %w", dataDir, err)
	}
	data, err := l.stackOf(maj, min)
	if err != nil {
		return nil, fmt.Errorf("data directory %s: %w", dataDir, err)
	}
	var wal *stack
	if walDir == "" {
		walDir = filepath.Join(dataDir, "pg_wal")
	}
	if wmaj, wmin, err := l.devNumber(walDir); err != nil {
		logf("iostat: WAL directory %s: %v; WAL I/O is only seen if it is on the data device", walDir, err)
	} else if w, err := l.stackOf(wmaj, wmin); err != nil {
		logf("iostat: WAL directory %s: %v", walDir, err)
	} else {
		wal = &w
	}
	return &diskstats{bd: l.bd, devices: layout(data, wal), now: time.Now}, nil
}

// rolesOf returns the roles the data directory's devices would get, so devices named
// by hand still say whether they hold data or WAL.
func rolesOf(devs []Device) map[string]string {
	m := make(map[string]string, len(devs))
	for _, d := range devs {
		m[d.Name] = d.Role
	}
	return m
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
