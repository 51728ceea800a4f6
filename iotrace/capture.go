package iotrace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/brokerbench/brokerbench/results"
)

// Device is one block device to capture.
type Device struct {
	Path         string // the node written in the trace ("/dev/loop3")
	Major, Minor uint32
}

// pollEvery is how often the reader empties trace_pipe. The buffer holds seconds
// of events (bufferKB), so this only sets how fast a stop is noticed.
const pollEvery = 20 * time.Millisecond

// Capture records the block requests of devs until ctx ends (a planned end and an
// interruption alike), writing the iolog to w as it goes, and returns its summary.
// The trace instance is removed before Capture returns, whatever happened; a stale
// one left by a killed capture is removed first. ready, if not nil, is called
// once recording is on.
func Capture(ctx context.Context, devs []Device, w io.Writer, ready func()) (*results.IOCapture, error) {
	rec, err := Open(devs)
	if err != nil {
		return nil, err
	}
	defer rec.Close()
	if err := rec.Start(w); err != nil {
		return nil, err
	}
	if ready != nil {
		ready()
	}
	// Stop at the end, or at once when the trace cannot be written (a full disk).
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for ctx.Err() == nil && rec.failed() == nil {
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
	}
	return rec.Stop()
}

// Recorder is a trace instance of brokerbench's own on chosen devices that records
// in segments: each Start ... Stop writes one trace and returns its summary (run
// --capture-io records each step's measured window so). Between segments recording
// is off. A goroutine of its own empties the kernel's buffer every pollEvery while
// a segment records, so the trace streams to disk in bounded memory.
type Recorder struct {
	in    *instance
	pipe  int
	files map[uint64]string // kernel dev_t → the device's node, as the trace names it
	paths []string

	mu     sync.Mutex // guards what follows, and the reading of the pipe
	reader pipeReader
	seg    *segment // nil between segments

	stop chan struct{}
	done chan struct{}
}

// segment is one trace being written.
type segment struct {
	iw  *iologWriter
	sum *summarizer
	// start is the trace's origin in monotonic µs: events before it are left out;
	// end, when set (StopAt), leaves out the events after it. While held (from Arm
	// to From, from Hold to StopAt) nothing is read: the events wait in the
	// kernel's buffer until the edge they are sorted by is known.
	start, end int64
	held       bool
	lostAt     int64 // the instance's lost events when recording began
	err        error // the first failure of the background reader
}

// Open creates the trace instance for devs, recording off; a stale instance left
// by a killed capture is removed first. Close undoes it.
func Open(devs []Device) (*Recorder, error) {
	if len(devs) == 0 {
		return nil, errors.New("capture: no device to capture")
	}
	root, unmount, err := tracefsRoot()
	if err != nil {
		return nil, err
	}
	if _, err := RemoveStale(root); err != nil {
		return nil, err
	}
	r := &Recorder{files: map[uint64]string{}, stop: make(chan struct{}), done: make(chan struct{})}
	var nums []uint64
	for _, d := range devs {
		k := kernelDev(d.Major, d.Minor)
		if _, dup := r.files[k]; dup {
			continue
		}
		nums = append(nums, k)
		r.files[k] = d.Path
		r.paths = append(r.paths, d.Path)
	}
	in, err := openInstance(root, nums)
	if err != nil {
		if unmount != "" {
			unix.Unmount(unmount, unix.MNT_DETACH)
			os.Remove(unmount)
		}
		if errors.Is(err, os.ErrPermission) {
			return nil, ErrNotPermitted
		}
		return nil, err
	}
	in.unmount = unmount
	r.in = in
	if r.pipe, err = in.pipe(); err != nil {
		in.close()
		return nil, err
	}
	r.reader.fd = r.pipe
	go r.poll()
	return r, nil
}

// Devices are the captured devices' nodes, as the traces name them.
func (r *Recorder) Devices() []string { return r.paths }

// failed is the open segment's first failure, which Stop returns.
func (r *Recorder) failed() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seg == nil {
		return nil
	}
	return r.seg.err
}

// poll empties the pipe into the open segment until Close.
func (r *Recorder) poll() {
	defer close(r.done)
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-tick.C:
		}
		r.mu.Lock()
		if s := r.seg; s != nil && s.err == nil && !s.held {
			s.err = r.drain(s)
			if s.err == nil {
				if err := s.iw.flush(); err != nil {
					s.err = fmt.Errorf("write the trace: %w", err)
				}
			}
		}
		r.mu.Unlock()
	}
}

// Start opens a segment writing its trace to w and turns recording on; the trace
// starts now.
func (r *Recorder) Start(w io.Writer) error {
	if err := r.Arm(w); err != nil {
		return err
	}
	r.From(time.Now())
	return nil
}

// Arm opens a segment writing its trace to w and turns recording on before its
// origin is known; From sets it. A caller that measures a window with another
// source arms the trace, reads that source, and starts the trace where the read
// did (From); at the window's end it holds the trace (Hold), reads the source
// again and stops the trace where that read did (StopAt), so the two count the
// same requests (run --capture-io and the storage sampler).
func (r *Recorder) Arm(w io.Writer) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seg != nil {
		return errors.New("capture: a trace is already being recorded")
	}
	iw, err := newIologWriter(w, r.paths)
	if err != nil {
		return fmt.Errorf("write the trace: %w", err)
	}
	s := &segment{iw: iw, sum: newSummarizer(r.paths), lostAt: r.in.lost(), held: true}
	s.start = monoNowUS()
	if err := r.in.start(); err != nil {
		return err
	}
	s.sum.out.StartedAt = time.Now().UTC()
	r.seg = s
	return nil
}

// From sets the open segment's origin to t, a time after Arm: the trace holds the
// requests from t on, stamped from it.
func (r *Recorder) From(t time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s := r.seg; s != nil && s.held {
		s.start, s.held = max(s.start, monoOf(t)), false
		s.sum.out.StartedAt = t.UTC()
	}
}

// Hold stops reading the kernel's buffer until StopAt, which then sorts the
// events by the end it is given: a caller holds, reads its other source, and stops
// the trace at that read's time.
func (r *Recorder) Hold() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seg != nil {
		r.seg.held = true
	}
}

// Stop turns recording off, writes what the kernel still holds and the trace's
// end, and returns the segment's summary. The trace is valid whatever the error.
func (r *Recorder) Stop() (*results.IOCapture, error) {
	return r.StopAt(time.Time{})
}

// StopAt stops as Stop does, with the trace ending at t, a time after the last
// read of the buffer (Hold before t): the requests after t are left out. The zero
// time ends it now.
func (r *Recorder) StopAt(t time.Time) (*results.IOCapture, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.seg
	if s == nil {
		return nil, errors.New("capture: no trace is being recorded")
	}
	r.seg = nil
	r.in.stop()
	s.held = false
	s.end = monoNowUS()
	if !t.IsZero() {
		s.end = max(s.start, min(s.end, monoOf(t)))
	}
	err := s.err
	if err == nil {
		err = r.drain(s)
	}
	end := s.end - s.start
	if cerr := s.iw.close(end); cerr != nil && err == nil {
		err = fmt.Errorf("write the trace: %w", cerr)
	}
	if err != nil {
		return nil, err
	}
	out := s.sum.finish(end)
	out.LostEvents = r.in.lost() - s.lostAt
	return out, nil
}

// Close ends an open segment (its trace stays valid), stops the reader and removes
// the trace instance.
func (r *Recorder) Close() error {
	r.mu.Lock()
	open := r.seg != nil
	r.mu.Unlock()
	if open {
		r.Stop()
	}
	close(r.stop)
	<-r.done
	unix.Close(r.pipe)
	return r.in.close()
}

// drain hands every event the kernel has buffered to s (events after a segment's
// end, none while recording is off, are dropped with the segment).
func (r *Recorder) drain(s *segment) error {
	return r.reader.drain(func(line string) error {
		ev, ok, err := parseLine(line)
		if err != nil || !ok {
			return err
		}
		if ev.tsUS < s.start || s.end > 0 && ev.tsUS > s.end {
			return nil // outside the trace's window (From, StopAt)
		}
		return s.add(ev, ev.tsUS-s.start, r.files[ev.dev])
	})
}

// add takes one event at ts (µs from the segment's start) into the summary, and an
// issued request into the trace as a request of file.
func (s *segment) add(ev event, ts int64, file string) error {
	s.sum.add(ev, ts)
	if ev.complete || ev.dir == Other {
		return nil
	}
	off, length := int64(ev.sector)*512, int64(ev.sectors)*512
	if ev.dir == Flush {
		off, length = 0, 0
	}
	return s.iw.request(ts, file, ev.dir, off, length)
}

// monoNowUS is CLOCK_MONOTONIC in microseconds, the clock trace_clock=mono stamps
// events with.
func monoNowUS() int64 {
	var ts unix.Timespec
	unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
	return ts.Sec*1_000_000 + ts.Nsec/1000
}

// monoOf is t on the trace's clock: t's distance from now (Go's monotonic reading
// when t has one) taken from CLOCK_MONOTONIC now.
func monoOf(t time.Time) int64 {
	return monoNowUS() - time.Since(t).Microseconds()
}

// pipeReader splits a non-blocking trace_pipe into lines, keeping a partial line
// for the next read.
type pipeReader struct {
	fd      int
	buf     [1 << 16]byte
	partial []byte
}

// drain reads everything the kernel has buffered and hands each full line to fn.
func (p *pipeReader) drain(fn func(string) error) error {
	for {
		n, err := unix.Read(p.fd, p.buf[:])
		if n > 0 {
			data := append(p.partial, p.buf[:n]...)
			for {
				i := bytes.IndexByte(data, '\n')
				if i < 0 {
					break
				}
				if err := fn(string(data[:i])); err != nil {
					return err
				}
				data = data[i+1:]
			}
			p.partial = append(p.partial[:0], data...)
		}
		if err != nil {
			if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR) {
				return nil
			}
			return fmt.Errorf("read trace_pipe: %w", err)
		}
		if n <= 0 {
			return nil
		}
	}
}
