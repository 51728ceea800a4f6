package iotrace

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/brokerbench/brokerbench/internal/fio"
	"github.com/brokerbench/brokerbench/results"
)

// TraceInfo is what a replay needs to know of a trace, read in one streaming pass.
type TraceInfo struct {
	Reads, Writes, Discards, Flushes int64
	FirstUS, LastUS                  int64 // first and last request's timestamp
	Lowest, HighestEnd               int64 // the data requests' span, bytes
	MaxLength                        int64
	// issued counts the data requests (reads, writes, trims: what fio's latency
	// log records, flushes not) issued in each lagStep-long slice of the trace.
	issued, issuedReads []int64
}

// maxTraceLine bounds a trace's line: a request line is under 100 bytes.
const maxTraceLine = 64 << 10

// lagStep is the resolution of the lag measurement: fio's latency log stamps
// completions in milliseconds.
const lagStepUS = 10_000

// Requests is the trace's requests, flushes included.
func (t *TraceInfo) Requests() int64 { return t.Reads + t.Writes + t.Discards + t.Flushes }

// ScanTrace reads an iolog version 3 trace.
func ScanTrace(path string) (*TraceInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	// Lines are read with a bound: a file with no line break (/dev/zero) is refused
	// after 64 KiB, not held in memory.
	sc.Buffer(make([]byte, maxTraceLine), maxTraceLine)
	if !sc.Scan() || strings.TrimSpace(sc.Text()) != iologHeader {
		return nil, fmt.Errorf("%s: not a fio iolog version 3 trace (first line %q)", path, iologHeader)
	}
	t := &TraceInfo{FirstUS: -1, Lowest: -1}
	line := 1
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) != 5 {
			continue // file actions (add, open, close)
		}
		ts, err1 := strconv.ParseInt(f[0], 10, 64)
		off, err2 := strconv.ParseInt(f[3], 10, 64)
		n, err3 := strconv.ParseInt(f[4], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil || ts < 0 || off < 0 || n < 0 {
			return nil, fmt.Errorf("%s:%d: not an iolog request line: %q", path, line, sc.Text())
		}
		switch f[2] {
		case "read":
			t.Reads++
		case "write":
			t.Writes++
		case "trim":
			t.Discards++
		case "sync", "datasync":
			t.Flushes++
		default:
			return nil, fmt.Errorf("%s:%d: unknown action %q", path, line, f[2])
		}
		if t.FirstUS < 0 {
			t.FirstUS = ts
		}
		t.LastUS = ts
		slot := int(ts / lagStepUS)
		for len(t.issued) <= slot {
			t.issued = append(t.issued, 0)
			t.issuedReads = append(t.issuedReads, 0)
		}
		if f[2] != "sync" && f[2] != "datasync" {
			t.issued[slot]++
		}
		if f[2] == "read" {
			t.issuedReads[slot]++
		}
		if n > 0 {
			if t.Lowest < 0 || off < t.Lowest {
				t.Lowest = off
			}
			t.HighestEnd = max(t.HighestEnd, off+n)
			t.MaxLength = max(t.MaxLength, n)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: a line longer than %d KiB: not an iolog request line", path, line+1, maxTraceLine>>10)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if t.Requests() == 0 {
		return nil, fmt.Errorf("%s: the trace holds no request", path)
	}
	t.Lowest = max(t.Lowest, 0)
	return t, nil
}

// Span confines a replay to Len bytes from Start of the target: the trace's span is
// moved there, and compressed into it when longer (offsets scaled, kept aligned),
// which is how a larger drive used only on its outer part (short-stroking) is
// emulated.
type Span struct{ Start, Len int64 }

// spanAlign keeps mapped offsets on 4 KiB, so direct I/O stays aligned.
const spanAlign = 4096

// WriteMapped writes src to dst with every data request's offset moved into s (a
// nil s keeps the offsets) and, with readsOnly, without the writes, trims and
// flushes. brokerbench drops them itself: fio before 3.34 ignores replay_skip for
// iologs (it applied only to blktrace files).
func WriteMapped(src, dst string, info *TraceInfo, sp *Span, readsOnly bool) error {
	s := Span{Start: 0, Len: 1 << 62}
	if sp != nil {
		s = *sp
	}
	if s.Len < info.MaxLength+spanAlign {
		return fmt.Errorf("--span length %d is shorter than the trace's largest request", s.Len)
	}
	captured := max(info.HighestEnd-info.Lowest, 1)
	room := s.Len - info.MaxLength - spanAlign
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(out, 1<<20)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 64<<10)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if readsOnly && len(f) == 5 && f[2] != "read" {
			continue
		}
		if sp != nil && len(f) == 5 && f[4] != "0" {
			off, _ := strconv.ParseInt(f[3], 10, 64)
			rel := off - info.Lowest
			if captured > room {
				rel = int64(float64(rel) * float64(room) / float64(captured))
			}
			f[3] = strconv.FormatInt(s.Start+rel/spanAlign*spanAlign, 10)
		}
		w.WriteString(strings.Join(f, " "))
		w.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		out.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// ReplaySetup is how a trace is replayed.
type ReplaySetup struct {
	Trace  string // the iolog fio reads (the mapped one, with a span)
	Target string // replay_redirect: every request goes there
	Depth  int
	// Speed scales the captured timing (2 = twice the rate); ASAP drops it and
	// keeps only the order.
	Speed        float64
	ASAP         bool
	Scale, Align int64
	// SkipWrites is set when Trace holds only the reads (WriteMapped).
	SkipWrites bool
	// ReadOnly makes fio refuse any write or trim (fio --readonly): a replay
	// without writes may run on a file brokerbench did not create.
	ReadOnly bool
	// LatLog is the prefix of fio's per-request latency log, read for the lag.
	LatLog string
}

// Job is the fio job that replays the trace.
func (s ReplaySetup) Job() fio.JobFile {
	opts := []fio.Option{
		{Key: "read_iolog", Value: s.Trace},
		{Key: "replay_redirect", Value: s.Target},
		{Key: "ioengine", Value: "libaio"},
		{Key: "direct", Value: "1"},
		{Key: "iodepth", Value: strconv.Itoa(s.Depth)},
		{Key: "percentile_list", Value: fio.PercentileList},
		{Key: "write_lat_log", Value: s.LatLog},
		{Key: "log_avg_msec", Value: "0"},
	}
	if s.ASAP {
		opts = append(opts, fio.Option{Key: "replay_no_stall", Value: "1"})
	} else if s.Speed != 1 {
		opts = append(opts, fio.Option{Key: "replay_time_scale", Value: strconv.Itoa(int(s.Speed*100 + 0.5))})
	}
	if s.Scale > 1 {
		opts = append(opts, fio.Option{Key: "replay_scale", Value: strconv.FormatInt(s.Scale, 10)})
	}
	if s.Align > 0 {
		opts = append(opts, fio.Option{Key: "replay_align", Value: strconv.FormatInt(s.Align, 10)})
	}
	return fio.JobFile{Jobs: []fio.Job{{Name: "replay", Options: opts}}, ReadOnly: s.ReadOnly}
}

// Fidelity compares the replay with its trace: requests replayed of those to
// replay, durations, and the lag behind the (scaled) timestamps from fio's latency
// log. out is fio's output of s.Job().
func Fidelity(info *TraceInfo, s ReplaySetup, out *fio.Output) (*results.Replay, error) {
	r := &results.Replay{Depth: s.Depth, SkipWrites: s.SkipWrites, Mode: "timed"}
	switch {
	case s.ASAP:
		r.Mode = "asap"
	case s.Speed != 1:
		r.Mode = "speed " + strconv.FormatFloat(s.Speed, 'g', -1, 64)
	}
	r.Captured = info.Requests()
	if s.SkipWrites {
		r.Captured = info.Reads
	}
	r.CapturedS = float64(info.LastUS-info.FirstUS) / 1e6
	var runtimeMS int64
	for _, j := range out.Jobs {
		// fio 3.33 leaves sync.total_ios at 0 and counts the syncs in their latency's N.
		r.Replayed += j.Read.TotalIOs + j.Write.TotalIOs + j.Trim.TotalIOs + max(j.Sync.TotalIOs, j.Sync.Lat.N)
		runtimeMS = max(runtimeMS, j.RuntimeMS)
	}
	r.ReplayedS = float64(runtimeMS) / 1000
	if s.ASAP {
		return r, nil
	}
	lags, err := lagsFromLog(s.LatLog+"_lat.1.log", info, s)
	if err != nil {
		return nil, err
	}
	if len(lags) > 0 {
		sort.Float64s(lags)
		at := func(q float64) float64 { return lags[min(len(lags)-1, int(q*float64(len(lags))))] }
		r.LagP50MS, r.LagP99MS, r.LagMaxMS = at(0.50), at(0.99), lags[len(lags)-1]
	}
	return r, nil
}

// lagsFromLog measures, for every lagStep slice of the replay, how far behind the
// trace it was: when the replay had issued its k-th request, the trace (at the
// replay's speed) had issued it that many milliseconds earlier. Memory is one
// counter per slice, not per request. The result has one figure per slice in
// which the replay issued requests.
func lagsFromLog(path string, info *TraceInfo, s ReplaySetup) ([]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("fio's latency log: %w", err)
	}
	defer f.Close()
	var replayed []int64 // requests issued per slice of the replay
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), ",")
		if len(fs) < 3 {
			continue
		}
		ms, err1 := strconv.ParseInt(strings.TrimSpace(fs[0]), 10, 64)
		latNS, err2 := strconv.ParseInt(strings.TrimSpace(fs[1]), 10, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		issueUS := max(ms*1000-latNS/1000, 0)
		slot := int(issueUS / lagStepUS)
		for len(replayed) <= slot {
			replayed = append(replayed, 0)
		}
		replayed[slot]++
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	speed := s.Speed
	if speed <= 0 {
		speed = 1
	}
	// want[k] is when (µs, at the replay's speed, from the first request) the
	// trace had issued its k-th request, read slice by slice.
	issued := info.issued
	if s.SkipWrites {
		issued = info.issuedReads
	}
	var lags []float64
	var capIdx int
	var capCum, repCum int64
	for slot, n := range replayed {
		if n == 0 {
			continue
		}
		repCum += n
		for capIdx < len(issued) && capCum+issued[capIdx] < repCum {
			capCum += issued[capIdx]
			capIdx++
		}
		capUS := float64(int64(capIdx)*lagStepUS-info.FirstUS) / speed
		lag := (float64(int64(slot)*lagStepUS) - capUS) / 1000
		lags = append(lags, max(lag, 0))
	}
	return lags, nil
}

// LatLogPrefix is where fio writes the replay's latency log, in dir.
func LatLogPrefix(dir string) string { return filepath.Join(dir, "replay") }
