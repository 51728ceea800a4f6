// Package replay is `brokerbench replay` without the command line: a trace written by
// capture sent to a file or device target (session/device) through fio, at the captured
// timing, faster, or as fast as it can, and how faithfully it was replayed, in a result
// file of kind disk (docs/io-capture.md).
package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/brokerbench/brokerbench/diskprofile"
	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/internal/fio"
	"github.com/brokerbench/brokerbench/iotrace"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/report"
	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/capture"
	"github.com/brokerbench/brokerbench/session/device"
)

// Options are how a trace is replayed (the flags of `brokerbench replay`).
type Options struct {
	Target, AllowWrites string
	AllowOverwrite      string
	KeepTarget          bool
	Speed               float64 // times the captured rate: 1 replays at the captured timing
	ASAP, SkipWrites    bool
	Span                string
	Scale, Align        int64
	Depth               int
	Out, Label, FIO     string
	// Tool is brokerbench's version, for the result file.
	Tool string
}

// maxSummaryBytes bounds the read of a capture's capture.json: a few KB of figures.
const maxSummaryBytes = 1 << 20

// replayPlan is the checked options.
type replayPlan struct {
	trace   string
	summary *results.IOCapture // nil when the trace has no capture.json beside it
	span    *iotrace.Span
}

// checkOptions checks the options that do not depend on the trace, and parses --span.
func (o Options) checkOptions() (*iotrace.Span, error) {
	if o.Target == "" {
		return nil, session.Usagef("--target FILE|DEVICE is required")
	}
	if o.ASAP && o.Speed != 1 {
		return nil, session.Usagef("--speed and --asap exclude each other")
	}
	if o.Speed <= 0 || o.Speed > 1000 {
		return nil, session.Usagef("--speed %g: want a factor above 0 (2 = twice the captured rate)", o.Speed)
	}
	if o.Align < 0 || o.Align > 0 && o.Align&(o.Align-1) != 0 {
		return nil, session.Usagef("--align %d: want a power of 2", o.Align)
	}
	if o.Scale < 0 || o.Depth < 0 {
		return nil, session.Usagef("--scale and --depth must be positive")
	}
	if o.Span == "" {
		return nil, nil
	}
	if o.Scale > 0 || o.Align > 0 {
		return nil, session.Usagef("--span maps offsets itself: leave out --scale and --align")
	}
	a, b, ok := strings.Cut(o.Span, ":")
	start, err1 := bytesize.Parse(a)
	n, err2 := bytesize.Parse(b)
	if !ok || err1 != nil || err2 != nil || start < 0 || n <= 0 || start%4096 != 0 {
		return nil, session.Usagef("--span %q: want START:LEN, e.g. 0:36GB (START a multiple of 4 KiB)", o.Span)
	}
	return &iotrace.Span{Start: start, Len: n}, nil
}

// CheckOptions checks o as Run does before it reads the trace: for a replay whose
// trace does not exist yet (a study's capture, taken during the study).
func CheckOptions(o Options) error {
	_, err := o.checkOptions()
	return err
}

func (o Options) plan(arg string) (replayPlan, error) {
	var p replayPlan
	span, err := o.checkOptions()
	if err != nil {
		return p, err
	}
	p.span = span
	p.trace = arg
	if fi, err := os.Stat(arg); err == nil && fi.IsDir() {
		p.trace = filepath.Join(arg, capture.TraceFile)
	}
	summary := filepath.Join(filepath.Dir(p.trace), capture.SummaryFile)
	if _, err := os.Stat(summary); err == nil {
		data, err := session.ReadBounded("the trace's summary", summary, maxSummaryBytes)
		if err != nil {
			return p, err
		}
		var s results.IOCapture
		if json.Unmarshal(data, &s) == nil {
			p.summary = &s
		}
	}
	outs := []session.Output{{Flag: "--target", Path: o.Target}, {Flag: "--out", Path: o.Out}}
	if err := session.RefuseOutputOverInput(outs, []string{p.trace, summary}); err != nil {
		return p, err
	}
	if err := session.RefuseOutputOverInput(outs[1:], []string{o.Target}); err != nil {
		return p, err
	}
	return p, nil
}

// Run replays the trace arg (a capture's folder, or its trace file) as o says: every
// option and the target checked before fio runs, the result file written after.
func Run(ctx context.Context, con session.Console, o Options, arg string) error {
	p, err := o.plan(arg)
	if err != nil {
		return err
	}
	info, err := iotrace.ScanTrace(p.trace)
	if err != nil {
		return session.UsageError{Err: err}
	}
	bin, err := fio.Check(ctx, o.FIO)
	if err != nil {
		return err
	}
	tgt, err := o.openTarget(info, p.span)
	if err != nil {
		return err
	}
	defer o.closeTarget(con, tgt)
	tgt.WarnDestroys(con.Stderr)
	work, err := os.MkdirTemp("", "brokerbench-replay-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	setup, mapping, err := o.setup(p, info, work)
	if err != nil {
		return err
	}
	setup.ReadOnly = !o.writes(info)
	con.Logf("replaying %d requests (%.1fs captured) on %s, %d outstanding", info.Requests(), float64(info.LastUS-info.FirstUS)/1e6, o.Target, setup.Depth)
	started := time.Now().UTC()
	out, runErr := bin.Run(ctx, setup.Job())
	if out == nil {
		if runErr == nil {
			runErr = errors.New("fio reported nothing")
		}
		return runErr
	}
	fid, err := iotrace.Fidelity(info, setup, out)
	if err != nil {
		return err
	}
	fid.Trace, fid.Mapping = p.trace, mapping
	step := results.DiskStep{Profile: "replay", Depth: setup.Depth, StartedAt: started, Partial: runErr != nil}
	diskprofile.Figures(&step, out)
	step.MeasuredS = fid.ReplayedS
	if err := results.Write(o.Out, o.result(p, bin, tgt, setup, step, fid)); err != nil {
		return err
	}
	printReplay(con, &step, fid)
	if runErr != nil {
		return session.ErrInterrupted
	}
	return nil
}

// writes tells whether the replay writes to its target.
func (o Options) writes(info *iotrace.TraceInfo) bool {
	return !o.SkipWrites && info.Writes+info.Discards > 0
}

// openTarget opens --target for a replay that reaches past the trace's highest
// offset as mapped: a device only when the trace does not write or
// --allow-device-writes names it; a file created and written in full when missing,
// an existing one only read unless --allow-overwrite names it.
func (o Options) openTarget(info *iotrace.TraceInfo, span *iotrace.Span) (*device.Target, error) {
	// Where the replay reaches on the target.
	reach := info.HighestEnd
	switch {
	case span != nil:
		reach = span.Start + span.Len
	case o.Scale > 1:
		reach = info.HighestEnd/o.Scale + info.MaxLength
	}
	if fi, err := os.Stat(o.Target); err == nil && fi.Mode()&os.ModeDevice != 0 {
		if o.AllowOverwrite != "" {
			return nil, session.Usagef("--allow-overwrite goes with a file --target; a device takes --allow-device-writes")
		}
		tgt, err := device.OpenDevice(device.Use{Flag: "--target", Writer: "the trace's requests", Instead: "pass --skip-writes"}, o.Target, 0, o.writes(info), o.AllowWrites)
		if err != nil {
			return nil, err
		}
		if reach > tgt.Size {
			tgt.Close()
			return nil, session.Usagef("the trace reaches offset %s but %s holds %s: map it with --span START:LEN, --scale or --align",
				bytesize.Format(reach), o.Target, bytesize.Format(tgt.Size))
		}
		return tgt, nil
	}
	if o.AllowWrites != "" {
		return nil, session.Usagef("--allow-device-writes goes with a device --target; an existing file takes --allow-overwrite")
	}
	if o.AllowOverwrite != "" && !session.SameFile(o.AllowOverwrite, o.Target) {
		return nil, session.Usagef("--allow-overwrite %s does not name --target %s", o.AllowOverwrite, o.Target)
	}
	return o.openReplayFile(reach, o.writes(info))
}

// closeTarget removes a target file the replay created, unless --keep-target, and
// says which.
func (o Options) closeTarget(con session.Console, tgt *device.Target) {
	tgt.Close()
	if tgt.Created && !tgt.Keep {
		con.Logf("replay: removed the %s target file %s it created (--keep-target keeps it)", bytesize.Format(tgt.Size), tgt.Path)
	}
}

// replayAlign is the alignment a scaled replay gets when --align is not given: the
// 4 KiB every direct I/O needs on today's disks.
const replayAlign = 4096

// setup is fio's replay of the trace: its depth (the capture's maximum outstanding
// I/Os unless --depth), and the trace mapped into work when --span or --skip-writes
// rewrites it; mapping describes the offset mapping for the result file.
func (o Options) setup(p replayPlan, info *iotrace.TraceInfo, work string) (setup iotrace.ReplaySetup, mapping string, err error) {
	setup = iotrace.ReplaySetup{Trace: p.trace, Target: o.Target, Depth: o.Depth, Speed: o.Speed, ASAP: o.ASAP,
		Scale: o.Scale, Align: o.Align, SkipWrites: o.SkipWrites, LatLog: iotrace.LatLogPrefix(work)}
	if setup.Scale > 1 && setup.Align == 0 {
		// A scaled offset lands anywhere (67114240 from 1073827840 / 16); direct I/O
		// needs it on a 4 KiB boundary or fio's write fails with EINVAL.
		setup.Align = replayAlign
	}
	if setup.Depth == 0 {
		setup.Depth = 32
		if p.summary != nil && p.summary.OutstandingMax > 0 {
			setup.Depth = p.summary.OutstandingMax
		}
	}
	if p.span != nil || o.SkipWrites {
		setup.Trace = filepath.Join(work, "mapped.iolog")
		if err := iotrace.WriteMapped(p.trace, setup.Trace, info, p.span, o.SkipWrites); err != nil {
			return setup, "", session.UsageError{Err: err}
		}
	}
	if p.span != nil {
		mapping = "span " + o.Span
	} else if o.Scale > 1 || o.Align > 0 {
		mapping = strings.TrimSpace(fmt.Sprintf("scale %d align %d", o.Scale, setup.Align))
	}
	return setup, mapping, nil
}

// result is the replay's result file: a disk run of one step, profile "replay", with
// fio's options and the fidelity.
func (o Options) result(p replayPlan, bin *fio.Binary, tgt *device.Target, setup iotrace.ReplaySetup, step results.DiskStep, fid *results.Replay) *results.Run {
	var lines []string
	for _, op := range setup.Job().Jobs[0].Options {
		if op.Key != "write_lat_log" && op.Key != "read_iolog" {
			lines = append(lines, op.String())
		}
	}
	dr := &results.DiskRun{
		Target: results.DiskTarget{Path: o.Target, Raw: tgt.Raw, SizeBytes: tgt.Size, Filesystem: tgt.FSType, Kept: tgt.Created && tgt.Keep},
		FIO:    bin.Version.String(), Direct: true,
		Profiles: []results.DiskProfile{{Name: "replay", Description: "replay of " + p.trace, Source: "replay " + p.trace,
			FIO: []string{"replay: " + strings.Join(lines, " ")}, ReadPercent: step.ReadPercent}},
		Steps:  []results.DiskStep{step},
		Replay: fid,
	}
	return &results.Run{Format: results.FormatVersion, Kind: results.KindDisk, Label: o.Label, Tool: o.Tool,
		StartedAt: step.StartedAt, Steps: []results.Step{}, Disk: dr,
		Options: map[string]any{"trace": p.trace, "mode": fid.Mode, "depth": setup.Depth, "mapping": fid.Mapping, "skip-writes": o.SkipWrites}}
}

// openReplayFile opens the file --target. An existing file is someone's: the
// replay only reads it, unless --allow-overwrite names it, and it must reach as far
// as the trace. A missing one is created, after checking it fits, and written in
// full, so the replay's reads reach allocated blocks on the device (a read of a
// hole or of unwritten space never leaves the file system).
func (o Options) openReplayFile(reach int64, writes bool) (*device.Target, error) {
	path := o.Target
	fi, err := os.Stat(path)
	if err == nil {
		if !fi.Mode().IsRegular() {
			return nil, session.Usagef("--target %s: neither a regular file nor a block device", path)
		}
		if writes && o.AllowOverwrite == "" {
			return nil, session.Usagef("--target %s already exists and the trace writes, which would change it: give a file name that does not exist (brokerbench creates it), pass --allow-overwrite %s to let the replay write it, or --skip-writes", path, path)
		}
		if reach > fi.Size() {
			return nil, session.Usagef("--target %s holds %s but the trace reaches offset %s: give a file name that does not exist (brokerbench creates it at that size) or a larger file",
				path, bytesize.Format(fi.Size()), bytesize.Format(reach))
		}
		return &device.Target{Path: path, Size: fi.Size(), FSType: device.FSTypeOf(filepath.Dir(path))}, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("--target %s: %w", path, errors.Unwrap(err))
	}
	size := (reach + 1<<20 - 1) &^ (1<<20 - 1)
	var st unix.Statfs_t
	if err := unix.Statfs(filepath.Dir(path), &st); err != nil {
		return nil, fmt.Errorf("--target %s: %w", path, err)
	}
	if free := int64(st.Bavail) * int64(st.Bsize); size > free {
		return nil, session.Usagef("--target %s: the trace reaches offset %s, so the target file would be %s, but %s is free there; confine the replay with --span START:LEN or --scale, or write it elsewhere",
			path, bytesize.Format(reach), bytesize.Format(size), bytesize.Format(free))
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("--target %s: %w", path, errors.Unwrap(err))
	}
	t := &device.Target{Path: path, Size: size, FSType: device.FSTypeOf(filepath.Dir(path)), Created: true, Keep: o.KeepTarget}
	if err := fillFile(f, size); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("--target %s: write it in full: %w", path, err)
	}
	return t, nil
}

// fillFile writes size bytes of a pattern to f and syncs it. Not zeros: a device
// that skips zero blocks would not store them.
func fillFile(f *os.File, size int64) error {
	buf := make([]byte, 1<<20)
	for i := range buf {
		buf[i] = byte(i*7 + 1)
	}
	for done := int64(0); done < size; done += int64(len(buf)) {
		if _, err := f.Write(buf); err != nil {
			return err
		}
	}
	if err := f.Sync(); err != nil {
		return err
	}
	return f.Close()
}

func printReplay(con session.Console, st *results.DiskStep, r *results.Replay) {
	w := con.Stdout
	fmt.Fprintf(w, "replay (%s, %d outstanding%s): %.0f IOPS, %.1f MB/s\n", r.Mode, r.Depth, map[bool]string{true: ", " + r.Mapping}[r.Mapping != ""], st.IOPS, st.MBps)
	for _, d := range []struct {
		name string
		d    *results.DiskDir
	}{{"read", st.Read}, {"write", st.Write}} {
		if d.d != nil && d.d.IOs > 0 {
			fmt.Fprintf(w, "  %-5s %8.0f IOPS %7.1f MB/s  latency p50 %.3f ms p99 %.3f ms\n", d.name, d.d.IOPS, d.d.MBps, d.d.P50MS, d.d.P99MS)
		}
	}
	fmt.Fprintln(w, "  "+report.FidelityLine(r))
}

// Planned checks o and the trace arg as Run does, touching nothing, and says how
// long the replay should take: the captured span at --speed (as fast as it can,
// --asap, takes at most about as long on a target that keeps up). A study plans its
// runs and their time with it before the first one starts.
func Planned(o Options, arg string) (time.Duration, error) {
	p, err := o.plan(arg)
	if err != nil {
		return 0, err
	}
	info, err := iotrace.ScanTrace(p.trace)
	if err != nil {
		return 0, session.UsageError{Err: err}
	}
	span := time.Duration(info.LastUS-info.FirstUS) * time.Microsecond
	if !o.ASAP {
		span = time.Duration(float64(span) / o.Speed)
	}
	return span, nil
}
