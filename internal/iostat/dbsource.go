package iostat

import (
	"context"
	"math"
	"time"

	"github.com/brokerbench/brokerbench/database"
)

// dbSource adapts a database's I/O statistics reader (database.IOStatsReader): the database's own view of its
// I/O per class (data, wal), and its WAL volume.
type dbSource struct {
	r       database.IOStatsReader
	devices []Device
	now     func() time.Time
}

var _ Source = (*dbSource)(nil)

func newDBSource(r database.IOStatsReader) *dbSource {
	return &dbSource{r: r, now: time.Now, devices: []Device{
		{Name: "data", Role: RoleData, InTotals: true},
		{Name: "wal", Role: RoleWAL, InTotals: true},
	}}
}

func (d *dbSource) Name() string      { return d.r.Source() }
func (d *dbSource) Devices() []Device { return d.devices }
func (d *dbSource) Close() error      { return d.r.Close() }

func (d *dbSource) Note() string {
	return "the database's own I/O counters: reads include OS page-cache hits, writes reach the disk later"
}

func (d *dbSource) Snapshot(ctx context.Context) (*Snapshot, error) {
	c, err := d.r.ReadIO(ctx)
	if err != nil {
		return nil, err
	}
	s := &Snapshot{At: d.now(), RemoteAt: c.At, Epoch: c.Reset, Devices: map[string]Counters{}}
	for _, g := range c.Groups {
		s.Devices[g.Name] = groupCounters(g)
	}
	if c.HasWAL && c.WALBytes >= 0 {
		s.WALBytes, s.HasWAL = uint64(c.WALBytes), true
	}
	// The cache counters are a second statement on the same connection, read at the
	// same instant as the I/O counters; without them the step has no hit ratio, but
	// its I/O figures stand.
	if cr, ok := d.r.(database.CacheStatsReader); ok {
		if cc, err := cr.ReadCache(ctx); err == nil {
			s.Cache = &CacheCounters{Hits: cc.Hits, Reads: cc.Reads}
		}
	}
	if br, ok := d.r.(database.BackgroundReader); ok {
		if bc, err := br.ReadBackground(ctx); err == nil {
			s.Background = &bc
		}
	}
	return s, nil
}

func groupCounters(g database.IOGroup) Counters {
	c := Counters{
		ReadOps:    nonNeg(g.ReadOps),
		WriteOps:   nonNeg(g.WriteOps),
		ReadBytes:  nonNeg(g.ReadBytes),
		WriteBytes: nonNeg(g.WriteBytes),
		ReadTime:   msToMicros(g.ReadTimeMS),
		WriteTime:  msToMicros(g.WriteTimeMS),
	}
	if g.HasReadTime {
		c.Has |= HasReadTime
	}
	if g.HasWriteTime {
		c.Has |= HasWriteTime
	}
	return c
}

func nonNeg(v int64) uint64 {
	if v < 0 {
		return 0
	}
	return uint64(v)
}

func msToMicros(ms float64) uint64 {
	if ms <= 0 || math.IsNaN(ms) {
		return 0
	}
	return uint64(math.Round(ms * 1000))
}
