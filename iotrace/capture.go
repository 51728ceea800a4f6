package iotrace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
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
	var nums []uint64
	files := map[uint64]string{}
	var paths []string
	for _, d := range devs {
		k := kernelDev(d.Major, d.Minor)
		if _, dup := files[k]; dup {
			continue
		}
		nums = append(nums, k)
		files[k] = d.Path
		paths = append(paths, d.Path)
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
	defer in.close()
	pipe, err := in.pipe()
	if err != nil {
		return nil, err
	}
	defer unix.Close(pipe)
	iw, err := newIologWriter(w, paths)
	if err != nil {
		return nil, err
	}
	sum := newSummarizer(paths)
	start := monoNowUS()
	if err := in.start(); err != nil {
		return nil, err
	}
	sum.out.StartedAt = time.Now().UTC()
	if ready != nil {
		ready()
	}
	r := &pipeReader{fd: pipe}
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	handle := func(line string) error {
		ev, ok, err := parseLine(line)
		if err != nil || !ok {
			return err
		}
		if ev.tsUS < start {
			return nil // buffered before recording began: not possible, but never negative
		}
		ts := ev.tsUS - start
		sum.add(ev, ts)
		if ev.complete {
			return nil
		}
		off, length := int64(ev.sector)*512, int64(ev.sectors)*512
		if ev.dir == Flush {
			off, length = 0, 0
		}
		if ev.dir == Other {
			return nil
		}
		return iw.request(ts, files[ev.dev], ev.dir, off, length)
	}
	for {
		if err := r.drain(handle); err != nil {
			return nil, err
		}
		if err := iw.flush(); err != nil {
			return nil, fmt.Errorf("write the trace: %w", err)
		}
		select {
		case <-ctx.Done():
			in.stop()
			end := monoNowUS() - start
			if err := r.drain(handle); err != nil {
				return nil, err
			}
			if err := iw.close(end); err != nil {
				return nil, fmt.Errorf("write the trace: %w", err)
			}
			out := sum.finish(end)
			out.LostEvents = in.lost()
			return out, nil
		case <-tick.C:
		}
	}
}

// monoNowUS is CLOCK_MONOTONIC in microseconds, the clock trace_clock=mono stamps
// events with.
func monoNowUS() int64 {
	var ts unix.Timespec
	unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
	return ts.Sec*1_000_000 + ts.Nsec/1000
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
