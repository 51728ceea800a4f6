package results

import "time"

// IOCapture summarises a block-I/O capture (brokerbench capture; docs/io-capture.md):
// the requests the kernel issued to the captured devices and how they completed.
// The requests themselves are in Trace, a fio iolog version 3 file.
type IOCapture struct {
	// Trace is the iolog file's path, as given when it was written.
	Trace string `json:"trace"`
	// Devices are the captured devices' nodes ("/dev/loop3").
	Devices   []string  `json:"devices"`
	StartedAt time.Time `json:"started_at"`
	DurationS float64   `json:"duration_s"`
	// Requests are the data requests issued (reads, writes, discards); Flushes are
	// the cache flushes without data, counted apart.
	Requests int64 `json:"requests"`
	Reads    int64 `json:"reads"`
	Writes   int64 `json:"writes"`
	Discards int64 `json:"discards,omitempty"`
	Flushes  int64 `json:"flushes,omitempty"`
	// ReadPercent is reads in percent of reads and writes.
	ReadPercent  float64 `json:"read_percent"`
	ReadBytes    int64   `json:"read_bytes"`
	WriteBytes   int64   `json:"write_bytes"`
	FUA          int64   `json:"fua,omitempty"`      // writes forced to media
	PreFlush     int64   `json:"preflush,omitempty"` // requests preceded by a flush
	SyncRequests int64   `json:"sync,omitempty"`     // marked synchronous
	MetaRequests int64   `json:"metadata,omitempty"` // file system metadata
	// WriteZeroes counts the writes of zeroes the device makes itself (the kernel's
	// write-zeroes); they are in Writes and WriteBytes, as /proc/diskstats counts them.
	WriteZeroes int64 `json:"write_zeroes,omitempty"`
	// Sizes counts data requests by size, in power-of-two buckets named by their upper
	// bound ("4k" holds sizes above 2k up to 4k).
	Sizes map[string]int64 `json:"sizes"`
	// LowestOffset and HighestEnd are the span of the data requests, in bytes from
	// the device's start (HighestEnd is the end of the request reaching furthest).
	LowestOffset int64 `json:"lowest_offset"`
	HighestEnd   int64 `json:"highest_end"`
	// Outstanding is the number of requests issued and not completed: time-weighted
	// Mean and maximum over the capture, and per second.
	OutstandingMean float64             `json:"outstanding_mean"`
	OutstandingMax  int                 `json:"outstanding_max"`
	PerSecond       []OutstandingSecond `json:"outstanding_per_second,omitempty"`
	// Latency is issue to completion as the kernel saw it, per direction.
	ReadLatency  *CaptureLatency `json:"read_latency,omitempty"`
	WriteLatency *CaptureLatency `json:"write_latency,omitempty"`
	// Unfinished counts requests still outstanding when the capture ended (no
	// completion in the trace); they are in the trace all the same.
	Unfinished int64 `json:"unfinished,omitempty"`
	// LostEvents is what the kernel dropped because the trace buffer was full: a
	// capture with losses misses requests, and says so.
	LostEvents int64 `json:"lost_events"`
	// Interrupted is true when the capture was stopped by a signal before its
	// planned end; the trace is complete up to that point.
	Interrupted bool `json:"interrupted,omitempty"`
}

// OutstandingSecond is the outstanding requests over one second of a capture.
type OutstandingSecond struct {
	Mean float64 `json:"mean"`
	Max  int     `json:"max"`
}

// CaptureLatency is one direction's issue-to-completion latency, in milliseconds.
type CaptureLatency struct {
	Count int64   `json:"count"`
	P50MS float64 `json:"p50_ms"`
	P99MS float64 `json:"p99_ms"`
	MaxMS float64 `json:"max_ms"`
}

// Replay is how faithfully a replay (brokerbench replay) reproduced its trace: the
// step beside it holds what the target did.
type Replay struct {
	Trace string `json:"trace"`
	// Mode is "timed" (the captured timing), "speed N" (N times the rate) or "asap"
	// (as fast as possible, in order, at the captured outstanding I/Os).
	Mode string `json:"mode"`
	// Mapping describes how offsets were moved onto the target ("span START:LEN",
	// "scale N", "align N"), "" when they were replayed as captured.
	Mapping    string  `json:"mapping,omitempty"`
	SkipWrites bool    `json:"skip_writes,omitempty"`
	Depth      int     `json:"depth"`
	Captured   int64   `json:"captured_requests"`
	Replayed   int64   `json:"replayed_requests"`
	CapturedS  float64 `json:"captured_s"`
	ReplayedS  float64 `json:"replayed_s"`
	// LagP50MS, LagP99MS and LagMaxMS are how far behind its (scaled) timestamp each
	// request was issued; fio cannot catch up once behind, so a growing lag means the
	// target could not keep the captured rate. Absent for asap replays.
	LagP50MS float64 `json:"lag_p50_ms,omitempty"`
	LagP99MS float64 `json:"lag_p99_ms,omitempty"`
	LagMaxMS float64 `json:"lag_max_ms,omitempty"`
}

// Fidelity is the requests replayed in percent of those captured (of those to
// replay, with writes skipped).
func (r *Replay) Fidelity() float64 {
	if r == nil || r.Captured == 0 {
		return 0
	}
	return 100 * float64(r.Replayed) / float64(r.Captured)
}

// AchievedPercent is the replay's request rate in percent of the captured one:
// 100 when the target kept the trace's pace, less when it fell behind (about N
// times 100 for a faithful --speed N replay, more for an asap one on a faster
// target). 0 when unknown.
func (r *Replay) AchievedPercent() float64 {
	if r == nil || r.Captured == 0 || r.CapturedS <= 0 || r.ReplayedS <= 0 {
		return 0
	}
	return 100 * (float64(r.Replayed) / r.ReplayedS) / (float64(r.Captured) / r.CapturedS)
}

// DurationRatio is the replay's duration over the captured one (0.5 for a faithful
// --speed 2 replay); 0 when unknown.
func (r *Replay) DurationRatio() float64 {
	if r == nil || r.CapturedS <= 0 {
		return 0
	}
	return r.ReplayedS / r.CapturedS
}
