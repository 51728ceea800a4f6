package iostat

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/results"
)

// Open picks the sources in order (docs/storage.md §2; see the package doc). It fails only
// for a user mistake that names a source (an unknown --io-device, an unreachable
// --io-node-exporter URL); when no source is usable it says so once through
// Options.Log and returns a Sampler whose steps record source "none".
func Open(ctx context.Context, o Options) (*Sampler, error) {
	s := &Sampler{interval: o.Interval, log: o.Log, walIdx: -1, hostIdx: -1, driverIdx: -1}
	if s.interval <= 0 {
		s.interval = DefaultInterval
	}
	if s.log == nil {
		s.log = func(string, ...any) {}
	}
	proc, sys := o.ProcRoot, o.SysRoot
	if proc == "" {
		proc = "/proc"
	}
	if sys == "" {
		sys = "/sys"
	}

	db, dbWhy := openDBSource(ctx, o, s.log)
	serverPID := 0
	if db != nil {
		if sp, ok := db.r.(serverProcess); ok {
			serverPID, _ = sp.ServerProcess()
		}
	}
	o, s.dirsWhy = dropRemoteDirs(o, proc, db, s.log)

	primary, why, err := pickPrimary(ctx, o, proc, sys, s.readTimeout())
	if err != nil {
		if db != nil {
			db.Close()
		}
		return nil, err
	}
	s.system = describeLocal(o, proc, sys, primary, serverPID)
	s.noteDirs(o, primary, why)
	s.useSources(primary, why, db, dbWhy)
	s.addHosts(o, proc, sys, db)
	return s, nil
}

// openDBSource opens the database's reader: the primary when nothing better is there,
// and in any case the WAL volume for wal_bytes_per_commit. It returns nil when the
// database has no usable I/O views, with why (for the note of a run left with no
// source at all); a failure is logged, not returned, since the run goes on without.
func openDBSource(ctx context.Context, o Options, log func(string, ...any)) (*dbSource, string) {
	op, ok := o.DB.(database.IOStatsOpener)
	if !ok || o.DB == nil {
		return nil, ""
	}
	r, err := op.OpenIOStats(ctx)
	if err == nil {
		return newDBSource(r), ""
	}
	switch {
	case errors.Is(err, database.ErrPermission):
		log("iostat: the database's I/O views are not readable (missing permission): %v", err)
	case errors.Is(err, database.ErrUnavailable):
		log("iostat: the database has no I/O views: %v", err)
	default:
		// Not a grant the user can add: a view this server lacks, or a query of
		// ours that is wrong. The run goes on without the views, but the message
		// must not pass for a permission problem.
		log("iostat: reading the database's I/O views failed: %v", err)
	}
	return nil, "the database's I/O views: " + err.Error()
}

// dropRemoteDirs clears the data and WAL directories when the database server is not
// on this host: a path of its is not ours to measure, and a same-named local directory
// would give another machine's disks. Explicit devices or an exporter URL are the
// user's word and are left alone. why says why they were cleared, "" when kept.
func dropRemoteDirs(o Options, proc string, db *dbSource, log func(string, ...any)) (_ Options, why string) {
	if o.DataDir == "" || db == nil || len(o.Devices) > 0 || o.NodeExporterURL != "" {
		return o, ""
	}
	sp, ok := db.r.(serverProcess)
	if !ok {
		return o, ""
	}
	pid, host := sp.ServerProcess()
	if local, why := serverIsLocal(proc, pid, host, o.DataDir); !local {
		log("iostat: not measuring local disks for data directory %s: %s", o.DataDir, why)
		o.DataDir, o.WALDir = "", ""
		return o, why
	}
	return o, ""
}

// useSources sets the sources a step reads, in order: the device source first, the
// database's views after it for the WAL volume; the views alone when there are no
// device figures; and "none", with a note saying why, when there is neither.
func (s *Sampler) useSources(primary Source, why string, db *dbSource, dbWhy string) {
	switch {
	case primary != nil:
		s.sources = []Source{primary}
		if db != nil {
			s.sources = append(s.sources, db)
			s.walIdx = 1
		}
	case db != nil:
		s.sources = []Source{db}
		s.walIdx = 0
		if why != "" {
			s.log("iostat: no block device figures (%s); using the database's own I/O views (%s)", why, db.Name())
		}
	default:
		s.sources = []Source{noneSource{}}
		s.openNote = "no usable I/O source: " + why
		if dbWhy != "" {
			s.openNote += "; " + dbWhy
		}
		s.log("iostat: no usable I/O source: %s; steps record source \"none\"", why)
	}
}

// pickPrimary returns the device source, or nil and why there is none. Explicit
// options win over discovery: an exporter URL, then devices named by hand, then the
// data directory when it is on this host.
func pickPrimary(ctx context.Context, o Options, proc, sys string, timeout time.Duration) (Source, string, error) {
	if o.NodeExporterURL != "" {
		src, err := openNodeExporter(ctx, o.NodeExporterURL, o.Devices, timeout, o.DataDir)
		if err != nil {
			return nil, "", err
		}
		return src, "", nil
	}
	l, lerr := newLocator(proc, sys)
	if len(o.Devices) > 0 {
		if lerr != nil {
			return nil, "", fmt.Errorf("--io-device: %w", lerr)
		}
		var known map[string]string
		if o.DataDir != "" {
			if d, err := openLocalByDirs(l, o.DataDir, o.WALDir, func(string, ...any) {}); err == nil {
				known = rolesOf(d.devices)
			}
		}
		src, err := openLocalByName(l, o.Devices, known)
		if err != nil {
			return nil, "", err
		}
		return src, "", nil
	}
	if o.DataDir == "" {
		return nil, "the server did not say where its data files are (a remote server, or a login that may not read that); pass --io-node-exporter URL or --io-device NAME", nil
	}
	if _, err := os.Stat(o.DataDir); err != nil {
		return nil, fmt.Sprintf("the data directory %s is not on this host", o.DataDir), nil
	}
	if lerr != nil {
		return nil, lerr.Error(), nil
	}
	var notes []string
	src, err := openLocalByDirs(l, o.DataDir, o.WALDir, func(f string, a ...any) { notes = append(notes, fmt.Sprintf(f, a...)) })
	if err != nil {
		return nil, err.Error(), nil
	}
	src.note = strings.Join(notes, "; ")
	if src.note != "" && o.Log != nil {
		o.Log("%s", src.note)
	}
	return src, "", nil
}

// noteDirs keeps the directories whose disks the primary source measures on this
// host, or why there are none (Dirs).
func (s *Sampler) noteDirs(o Options, primary Source, why string) {
	switch {
	case o.NodeExporterURL != "":
		s.dirsWhy = "the database's host is sampled through --io-node-exporter, not on this host"
	case len(o.Devices) > 0:
		s.dirsWhy = "--io-device names the devices by hand"
	case primary != nil && primary.Name() == SourceDiskstats:
		s.dirs = []string{o.DataDir}
		if o.WALDir != "" {
			s.dirs = append(s.dirs, o.WALDir)
		}
	case s.dirsWhy == "":
		s.dirsWhy = why
	}
}

// noneSource stands in when nothing is usable.
type noneSource struct{}

var _ Source = noneSource{}

func (noneSource) Name() string                                { return SourceNone }
func (noneSource) Devices() []Device                           { return nil }
func (noneSource) Note() string                                { return "" }
func (noneSource) Snapshot(context.Context) (*Snapshot, error) { return nil, nil }
func (noneSource) Close() error                                { return nil }

// describeLocal is the storage stack under the directories a local device source
// measures (DescribeStorage); nil when the primary source is not local block
// devices, and a System with only a note when they could not be described.
func describeLocal(o Options, proc, sys string, primary Source, serverPID int) *results.System {
	if primary == nil || primary.Name() != SourceDiskstats || o.DataDir == "" {
		return nil
	}
	st, err := describeStorage(proc, sys, o.DataDir, o.WALDir, serverPID)
	if err != nil {
		return &results.System{Note: err.Error()}
	}
	return st
}
