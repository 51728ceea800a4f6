package iostat

import (
	"math"

	"github.com/brokerbench/brokerbench/results"
)

const mib = 1 << 20

// Figures turns a delta over seconds into the result file's figures (docs/storage.md §5.1):
// rates are Δcount/T, latencies Δtime/Δops (ratio of sums, never an average of
// averages), queue depth Δweighted-time/T, or Little's law (IOPS × await) when the
// source has no weighted time. Unknown figures stay zero.
func Figures(d Counters, seconds float64) results.IOFigures {
	var f results.IOFigures
	if seconds <= 0 || math.IsNaN(seconds) {
		return f
	}
	f.ReadIOPS = float64(d.ReadOps) / seconds
	f.WriteIOPS = float64(d.WriteOps) / seconds
	f.ReadMBps = float64(d.ReadBytes) / mib / seconds
	f.WriteMBps = float64(d.WriteBytes) / mib / seconds
	if d.Has&HasReadTime != 0 && d.ReadOps > 0 {
		f.ReadAwaitMS = float64(d.ReadTime) / 1000 / float64(d.ReadOps)
	}
	if d.Has&HasWriteTime != 0 && d.WriteOps > 0 {
		f.WriteAwaitMS = float64(d.WriteTime) / 1000 / float64(d.WriteOps)
	}
	switch {
	case d.Has&HasQueueTime != 0:
		f.QueueDepth = float64(d.QueueTime) / 1e6 / seconds
	case d.Has&(HasReadTime|HasWriteTime) == HasReadTime|HasWriteTime:
		f.QueueDepth = float64(d.ReadTime+d.WriteTime) / 1e6 / seconds
	}
	if d.Has&HasBusyTime != 0 {
		f.UtilPercent = 100 * float64(d.BusyTime) / 1e6 / seconds
	}
	return f
}
