package iotrace

import (
	"fmt"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/brokerbench/brokerbench/results"
)

// inflightKey identifies an outstanding request: the kernel completes a request at
// the device and sector it issued it at.
type inflightKey struct {
	dev    uint64
	sector uint64
	dir    Direction
}

// summarizer builds a capture's summary as events arrive; it holds only the
// requests in flight, the histograms and one figure per second.
type summarizer struct {
	out      results.IOCapture
	inflight map[inflightKey][]int64 // issue times, oldest first
	lat      [2]*hdrhistogram.Histogram
	// outstanding is the requests in flight now; area accumulates outstanding ×
	// time, for the means.
	outstanding     int
	lastTS          int64
	area, secArea   float64
	sec             int64
	secMax          int
	lowest, highest int64
	seenData        bool
}

func newSummarizer(devices []string) *summarizer {
	s := &summarizer{inflight: map[inflightKey][]int64{}}
	s.out.Devices = devices
	s.out.Sizes = map[string]int64{}
	for i := range s.lat {
		// 1 µs to 100 s at 3 significant digits.
		s.lat[i] = hdrhistogram.New(1, 100_000_000, 3)
	}
	return s
}

// advance moves the outstanding-I/O clock to ts, closing the seconds it passes.
func (s *summarizer) advance(ts int64) {
	for ts >= (s.sec+1)*1_000_000 {
		end := (s.sec + 1) * 1_000_000
		d := float64(end - s.lastTS)
		s.area += d * float64(s.outstanding)
		s.secArea += d * float64(s.outstanding)
		s.out.PerSecond = append(s.out.PerSecond, results.OutstandingSecond{Mean: s.secArea / 1e6, Max: max(s.secMax, s.outstanding)})
		s.sec++
		s.lastTS, s.secArea, s.secMax = end, 0, s.outstanding
	}
	if ts > s.lastTS {
		d := float64(ts - s.lastTS)
		s.area += d * float64(s.outstanding)
		s.secArea += d * float64(s.outstanding)
		s.lastTS = ts
	}
}

func (s *summarizer) setOutstanding(n int) {
	s.outstanding = n
	s.secMax = max(s.secMax, n)
	s.out.OutstandingMax = max(s.out.OutstandingMax, n)
}

func (s *summarizer) add(ev event, ts int64) {
	s.advance(ts)
	key := inflightKey{ev.dev, ev.sector, ev.dir}
	if ev.complete {
		q := s.inflight[key]
		if len(q) == 0 {
			return // issued before the capture began
		}
		issued := q[0]
		if len(q) == 1 {
			delete(s.inflight, key)
		} else {
			s.inflight[key] = q[1:]
		}
		s.setOutstanding(s.outstanding - 1)
		if ev.dir == Read || ev.dir == Write {
			s.lat[ev.dir].RecordValue(max(ts-issued, 1))
		}
		return
	}
	s.inflight[key] = append(s.inflight[key], ts)
	s.setOutstanding(s.outstanding + 1)
	o := &s.out
	f := ev.flags
	o.FUA += b2i(f.FUA)
	o.PreFlush += b2i(f.PreFlush)
	o.SyncRequests += b2i(f.Sync)
	o.MetaRequests += b2i(f.Meta)
	o.WriteZeroes += b2i(f.Zeroes)
	size := int64(ev.sectors) * 512
	switch ev.dir {
	case Flush:
		o.Flushes++
		return
	case Other:
		return
	case Read:
		o.Reads++
		o.ReadBytes += size
	case Write:
		o.Writes++
		o.WriteBytes += size
	case Discard:
		o.Discards++
	}
	o.Requests++
	o.Sizes[SizeBucket(size)]++
	off := int64(ev.sector) * 512
	if !s.seenData || off < s.lowest {
		s.lowest = off
	}
	if !s.seenData || off+size > s.highest {
		s.highest = off + size
	}
	s.seenData = true
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// finish closes the summary at end (microseconds from the start).
func (s *summarizer) finish(end int64) *results.IOCapture {
	s.advance(end)
	o := &s.out
	o.DurationS = float64(end) / 1e6
	if end > 0 {
		o.OutstandingMean = s.area / float64(end)
	}
	if rw := o.Reads + o.Writes; rw > 0 {
		o.ReadPercent = 100 * float64(o.Reads) / float64(rw)
	}
	o.LowestOffset, o.HighestEnd = s.lowest, s.highest
	for _, q := range s.inflight {
		o.Unfinished += int64(len(q))
	}
	o.ReadLatency, o.WriteLatency = latencyOf(s.lat[Read]), latencyOf(s.lat[Write])
	return o
}

func latencyOf(h *hdrhistogram.Histogram) *results.CaptureLatency {
	if h.TotalCount() == 0 {
		return nil
	}
	return &results.CaptureLatency{
		Count: h.TotalCount(),
		P50MS: float64(h.ValueAtQuantile(50)) / 1000,
		P99MS: float64(h.ValueAtQuantile(99)) / 1000,
		MaxMS: float64(h.Max()) / 1000,
	}
}

// SizeBucket names the power-of-two bucket holding a request of size bytes: its
// upper bound ("512", "4k", "1m").
func SizeBucket(size int64) string {
	b := int64(512)
	for b < size {
		b *= 2
	}
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%dm", b>>20)
	case b >= 1<<10:
		return fmt.Sprintf("%dk", b>>10)
	}
	return fmt.Sprint(b)
}
