// Package capture is `brokerbench capture` without the command line: every block
// request of the devices under a folder or of a device, recorded from a trace
// instance of brokerbench's own (iotrace) as a fio iolog v3 trace that replay and fio
// read, with its summary beside it; or blktrace's files turned into the same
// (docs/io-capture.md).
package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/brokerbench/brokerbench/internal/iostat"
	"github.com/brokerbench/brokerbench/iotrace"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session"
)

// Options are what a capture records (the flags of `brokerbench capture`).
type Options struct {
	Dirs, Devices []string
	Duration      time.Duration
	Out           string
	Blktrace      []string // read these blktrace files instead of capturing
}

// The files a capture writes in its --out folder (run --capture-io writes the same
// in each step's folder).
const (
	TraceFile   = "trace.iolog"
	SummaryFile = "capture.json"
)

// Devices resolves --dir and --device to the devices to trace (run --capture-io
// resolves the database's folders so).
func Devices(o Options) ([]iotrace.Device, error) {
	var names []string
	for _, d := range o.Dirs {
		disks, err := iostat.DisksUnder(d)
		if err != nil {
			return nil, fmt.Errorf("--dir %w", err)
		}
		names = append(names, disks...)
	}
	var out []iotrace.Device
	add := func(path string, maj, min uint32) {
		for _, d := range out {
			if d.Major == maj && d.Minor == min {
				return
			}
		}
		out = append(out, iotrace.Device{Path: path, Major: maj, Minor: min})
	}
	for _, n := range names {
		var maj, min uint32
		data, err := os.ReadFile(filepath.Join("/sys/class/block", n, "dev"))
		if _, serr := fmt.Sscanf(strings.TrimSpace(string(data)), "%d:%d", &maj, &min); err != nil || serr != nil {
			return nil, fmt.Errorf("block device %s: no device number in /sys/class/block", n)
		}
		add("/dev/"+n, maj, min)
	}
	for _, dev := range o.Devices {
		var st unix.Stat_t
		if err := unix.Stat(dev, &st); err != nil {
			return nil, fmt.Errorf("--device %s: %w", dev, err)
		}
		if st.Mode&unix.S_IFMT != unix.S_IFBLK {
			return nil, session.Usagef("--device %s: not a block device", dev)
		}
		add(dev, unix.Major(st.Rdev), unix.Minor(st.Rdev))
	}
	return out, nil
}

// Run is one capture: every option checked and the trace created (never over one
// already there) before the devices are traced, until o.Duration passes or ctx ends.
func Run(ctx context.Context, con session.Console, o Options) error {
	switch {
	case len(o.Dirs)+len(o.Devices)+len(o.Blktrace) == 0:
		return session.Usagef("say what to capture: --dir DIR or --device DEVICE (or --blktrace FILE to read)")
	case len(o.Blktrace) > 0 && (len(o.Dirs)+len(o.Devices) > 0 || o.Duration != 0):
		return session.Usagef("--blktrace reads files blktrace wrote: give it without --dir, --device and --duration")
	case o.Out == "":
		return session.Usagef("--out FOLDER is required: the trace and its summary go there")
	case o.Duration < 0:
		return session.Usagef("--duration must be positive")
	}
	var devs []iotrace.Device
	var blkFiles []string
	var err error
	if len(o.Blktrace) > 0 {
		blkFiles, err = expandBlktrace(o.Blktrace)
	} else {
		devs, err = Devices(o)
	}
	if err != nil {
		return err
	}
	tracePath, summaryPath := filepath.Join(o.Out, TraceFile), filepath.Join(o.Out, SummaryFile)
	if err := session.RefuseOutputOverInput([]session.Output{{Flag: "--out", Path: tracePath}, {Flag: "--out", Path: summaryPath}}, blkFiles); err != nil {
		return err
	}
	_, traceErr := os.Lstat(tracePath)
	if _, err := os.Lstat(summaryPath); err == nil && traceErr != nil {
		return session.Usagef("--out %s already holds a %s; give another folder", o.Out, SummaryFile)
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return fmt.Errorf("--out %s: %w", o.Out, err)
	}
	f, err := os.OpenFile(tracePath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return session.Usagef("--out %s already holds a trace; give another folder", o.Out)
		}
		return fmt.Errorf("--out %s: %w", o.Out, err)
	}
	defer f.Close()
	if blkFiles != nil {
		sum, err := iotrace.ReadBlktrace(blkFiles, f)
		if err != nil {
			f.Close()
			os.Remove(tracePath)
			if be := (*iotrace.BlktraceError)(nil); errors.As(err, &be) {
				return session.UsageError{Err: fmt.Errorf("--blktrace %w", err)}
			}
			return err
		}
		return finishCapture(con, o, f, sum, false)
	}
	cctx, cancel := ctx, context.CancelFunc(func() {})
	if o.Duration > 0 {
		cctx, cancel = context.WithTimeout(ctx, o.Duration)
	}
	defer cancel()
	var paths []string
	for _, d := range devs {
		paths = append(paths, d.Path)
	}
	sum, err := iotrace.Capture(cctx, devs, f, func() {
		con.Logf("capturing the block requests of %s%s", strings.Join(paths, ", "), map[bool]string{true: " until Ctrl-C", false: " for " + o.Duration.String()}[o.Duration == 0])
	})
	if err != nil {
		f.Close()
		os.Remove(tracePath)
		return err
	}
	return finishCapture(con, o, f, sum, o.Duration > 0 && ctx.Err() != nil)
}

// finishCapture closes the trace f and writes its summary beside it, and prints it.
func finishCapture(con session.Console, o Options, f *os.File, sum *results.IOCapture, interrupted bool) error {
	if err := f.Close(); err != nil {
		return fmt.Errorf("write the trace: %w", err)
	}
	sum.Interrupted = interrupted
	sum.Trace = f.Name()
	data, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return err
	}
	// Created, never replaced: Run checked none was there, and a file that
	// appeared since is someone else's.
	sf, err := os.OpenFile(filepath.Join(o.Out, SummaryFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("write the summary: %w", err)
	}
	if _, err := sf.Write(append(data, '\n')); err != nil {
		sf.Close()
		return fmt.Errorf("write the summary: %w", err)
	}
	if err := sf.Close(); err != nil {
		return fmt.Errorf("write the summary: %w", err)
	}
	printCapture(con, sum)
	if interrupted {
		return session.ErrInterrupted
	}
	return nil
}

// expandBlktrace is the --blktrace files, patterns expanded (quoted, so the shell
// left them to us), each file once.
func expandBlktrace(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		matches, err := filepath.Glob(a)
		if err != nil || len(matches) == 0 {
			return nil, session.Usagef("--blktrace %s: no such file", a)
		}
		for _, m := range matches {
			if !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	return out, nil
}

// printCapture prints the summary's main figures.
func printCapture(con session.Console, s *results.IOCapture) {
	w := con.Stdout
	fmt.Fprintf(w, "trace %s: %d requests in %.1fs (%.0f/s), %.1f %% reads, %d flushes\n",
		s.Trace, s.Requests, s.DurationS, float64(s.Requests)/max(s.DurationS, 1e-9), s.ReadPercent, s.Flushes)
	var sizes []string
	for k := range s.Sizes {
		sizes = append(sizes, k)
	}
	slices.SortFunc(sizes, func(a, b string) int { return int(SizeOfBucket(a) - SizeOfBucket(b)) })
	for i, k := range sizes {
		sizes[i] = fmt.Sprintf("%s:%d", k, s.Sizes[k])
	}
	fmt.Fprintf(w, "  sizes (up to): %s\n", strings.Join(sizes, " "))
	fmt.Fprintf(w, "  offsets %d..%d, outstanding mean %.1f max %d\n", s.LowestOffset, s.HighestEnd, s.OutstandingMean, s.OutstandingMax)
	for _, d := range []struct {
		name string
		l    *results.CaptureLatency
	}{{"read", s.ReadLatency}, {"write", s.WriteLatency}} {
		if d.l != nil {
			fmt.Fprintf(w, "  %s latency p50 %.3f ms, p99 %.3f ms\n", d.name, d.l.P50MS, d.l.P99MS)
		}
	}
	if s.LostEvents > 0 {
		fmt.Fprintf(w, "  WARNING: the kernel dropped %d events (trace buffer full): the trace misses requests\n", s.LostEvents)
	}
	if s.Interrupted {
		fmt.Fprintln(w, "  interrupted: the trace ends where the capture was stopped")
	}
}

// SizeOfBucket is a size bucket's bound in bytes ("4k" -> 4096), for sorting and for
// reading a summary's Sizes.
func SizeOfBucket(b string) int64 {
	var n int64
	var unit string
	fmt.Sscanf(b, "%d%s", &n, &unit)
	switch unit {
	case "k":
		return n << 10
	case "m":
		return n << 20
	}
	return n
}
