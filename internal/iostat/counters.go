package iostat

import (
	"errors"
	"fmt"
)

// Fields says which optional Counters a source really provides; ops and bytes are
// always present.
type Fields uint8

const (
	HasReadTime  Fields = 1 << iota // ReadTime is the sum of read latencies
	HasWriteTime                    // WriteTime is the sum of write latencies
	HasBusyTime                     // BusyTime: time with at least one request in flight
	HasQueueTime                    // QueueTime: area under the in-flight curve
)

// Counters are one device's (or one database file group's) cumulative values since
// the device was registered or the statistics were reset. Times are in microseconds
// so that all sources (ms from the kernel, float seconds from node_exporter, float
// ms from PostgreSQL) share one unit without losing sub-millisecond sums.
type Counters struct {
	Has                   Fields
	ReadOps, WriteOps     uint64
	ReadBytes, WriteBytes uint64
	ReadTime, WriteTime   uint64 // µs
	BusyTime, QueueTime   uint64 // µs
	// TimeWrap is the modulus the time fields wrap at, in µs: the kernel prints its
	// ms fields as 32-bit values (2³² ms ≈ 49.7 days of accumulated time). 0: no wrap.
	TimeWrap uint64
}

// kernelTimeWrap is 2³² ms in µs: /proc/diskstats' ms fields are unsigned int.
const kernelTimeWrap = uint64(1<<32) * 1000

// errReset means a counter went backwards by more than a wrap explains: the device
// was re-created or the statistics were reset, so the interval has no valid delta.
var errReset = errors.New("counters went backwards (device re-created or statistics reset)")

// sub returns cur-prev for a counter that may wrap at modulus (0: never wraps).
// A decrease is a wrap only when it is larger than half the modulus, i.e. the old
// value was near the top and the new one near zero; anything else is a reset.
func sub(prev, cur, modulus uint64) (uint64, error) {
	if cur >= prev {
		return cur - prev, nil
	}
	if modulus > 0 && prev < modulus && prev-cur > modulus/2 {
		return modulus - prev + cur, nil
	}
	return 0, errReset
}

// countWrap is the wrap of the count fields on 32-bit kernels (unsigned long); a
// 64-bit counter never comes near it in a run, so applying it is harmless there.
const countWrap = uint64(1 << 32)

// Delta returns the counters accumulated between prev and cur.
func Delta(prev, cur Counters) (Counters, error) {
	d := Counters{Has: prev.Has & cur.Has}
	var err error
	step := func(dst *uint64, p, c, mod uint64) {
		if err != nil {
			return
		}
		*dst, err = sub(p, c, mod)
	}
	step(&d.ReadOps, prev.ReadOps, cur.ReadOps, countWrap)
	step(&d.WriteOps, prev.WriteOps, cur.WriteOps, countWrap)
	// Sectors are unsigned long too; in bytes the 32-bit wrap is 2³² sectors.
	step(&d.ReadBytes, prev.ReadBytes, cur.ReadBytes, countWrap*512)
	step(&d.WriteBytes, prev.WriteBytes, cur.WriteBytes, countWrap*512)
	tw := cur.TimeWrap
	step(&d.ReadTime, prev.ReadTime, cur.ReadTime, tw)
	step(&d.WriteTime, prev.WriteTime, cur.WriteTime, tw)
	step(&d.BusyTime, prev.BusyTime, cur.BusyTime, tw)
	step(&d.QueueTime, prev.QueueTime, cur.QueueTime, tw)
	if err != nil {
		return Counters{}, err
	}
	return d, nil
}

// Sum adds deltas of several devices of one layer (never a disk and its partition,
// never a stacked device and its members): ratios are then taken of the sums
// (docs/storage.md §5.1). A time field is known only when it is known for all of them.
func Sum(ds ...Counters) Counters {
	if len(ds) == 0 {
		return Counters{}
	}
	s := Counters{Has: ds[0].Has}
	for _, d := range ds {
		s.Has &= d.Has
		s.ReadOps += d.ReadOps
		s.WriteOps += d.WriteOps
		s.ReadBytes += d.ReadBytes
		s.WriteBytes += d.WriteBytes
		s.ReadTime += d.ReadTime
		s.WriteTime += d.WriteTime
		s.BusyTime += d.BusyTime
		s.QueueTime += d.QueueTime
	}
	return s
}

func (c Counters) String() string {
	return fmt.Sprintf("r=%d w=%d rB=%d wB=%d rt=%dus wt=%dus busy=%dus q=%dus", c.ReadOps, c.WriteOps,
		c.ReadBytes, c.WriteBytes, c.ReadTime, c.WriteTime, c.BusyTime, c.QueueTime)
}
