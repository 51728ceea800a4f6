package disk

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"sync"
	"time"

	"github.com/brokerbench/brokerbench/diskprofile"
	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/internal/fio"
	"github.com/brokerbench/brokerbench/internal/iostat"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/report"
	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/device"
)

// diskSession is one `brokerbench disk`: fio checked, the target opened safely, the
// result file written before the first step and after every step.
type diskSession struct {
	con  session.Console
	o    Options
	plan diskPlan

	bin     *fio.Binary
	tgt     *device.Target
	sampler *iostat.Sampler
	res     *results.Run
}

func fromRunProfile(path string, users int) (diskprofile.Profile, error) {
	r, err := results.Read(path)
	if err != nil {
		return diskprofile.Profile{}, err
	}
	p, err := diskprofile.FromRun(path, r, users)
	if err != nil {
		return p, session.UsageError{Err: err}
	}
	return p, nil
}

func (s *diskSession) measure(ctx context.Context) error {
	bin, err := fio.Check(ctx, s.o.FIO)
	if err != nil {
		return err
	}
	s.bin = bin
	writes := false
	for _, p := range s.plan.profiles {
		writes = writes || p.Writes()
	}
	if s.o.Device != "" {
		s.tgt, err = device.OpenDevice(device.Use{Flag: "--device", Writer: "the profiles", Instead: "run only reading profiles"}, s.o.Device, s.plan.size, writes, s.o.AllowWrites)
	} else {
		s.tgt, err = device.OpenFile(s.o.Dir, s.plan.size, !s.o.Buffered, s.o.Keep)
	}
	if err != nil {
		return err
	}
	defer s.tgt.Close()
	s.tgt.WarnDestroys(s.con.Stderr)
	if err := s.record(); err != nil {
		return err
	}
	s.instrument(ctx)
	defer s.sampler.Close()
	setup := diskprofile.Setup{Path: s.tgt.Path, SizeBytes: s.tgt.Size, Direct: !s.o.Buffered,
		Ramp: s.o.Ramp, Measure: s.o.Measure, Seed: s.o.Seed}
	err = s.precondition(ctx, setup, writes)
	if err == nil {
		err = s.steps(ctx, setup)
	}
	interrupted := ctx.Err() != nil
	s.res.Interrupted = interrupted
	s.res.FinishedAt = time.Now().UTC()
	s.res.Disk.Target.Kept = s.tgt.Created && s.o.Keep
	if werr := results.Write(s.o.Out, s.res); werr != nil && err == nil {
		err = werr
	}
	if len(s.res.Disk.Steps) > 0 {
		if rerr := report.WriteDiskReport(s.con.Stdout, results.Input{Path: s.o.Out, Run: s.res}); rerr != nil && err == nil {
			err = rerr
		}
	}
	if interrupted {
		s.con.Logf("disk: interrupted; %d finished step(s) kept in %s", len(s.res.Disk.Steps), s.o.Out)
		return session.ErrInterrupted
	}
	return err
}

// record creates the result file before any I/O, so a bad --out fails at once.
func (s *diskSession) record() error {
	dr := &results.DiskRun{
		Target: results.DiskTarget{Path: s.tgt.Path, Raw: s.tgt.Raw, SizeBytes: s.tgt.Size, Filesystem: s.tgt.FSType},
		FIO:    s.bin.Version.String(), Direct: !s.o.Buffered, Steps: []results.DiskStep{},
	}
	for _, p := range s.plan.profiles {
		dr.Profiles = append(dr.Profiles, results.DiskProfile{Name: p.Name, Description: p.Description,
			Source: p.Source, FIO: p.Describe(), ReadPercent: p.ReadPercent()})
	}
	s.res = &results.Run{Format: results.FormatVersion, Kind: results.KindDisk, Label: s.o.Label, Tags: s.plan.tags,
		Seed: s.o.Seed, Tool: s.o.Tool, StartedAt: time.Now().UTC(), Steps: []results.Step{}, Disk: dr,
		Options: map[string]any{"depths": s.plan.levels, "ramp": s.o.Ramp.String(), "measure": s.o.Measure.String(),
			"size": s.tgt.Size, "seed": s.o.Seed, "buffered": s.o.Buffered}}
	if s.o.FromRun != "" {
		s.res.Options["from-run"] = s.o.FromRun
	}
	if len(s.plan.blockSizes) > 0 {
		s.res.Options["block_sizes"] = s.plan.blockSizes
	}
	if err := results.Write(s.o.Out, s.res); err != nil {
		return err
	}
	return nil
}

// instrument opens the same I/O sampler a run uses, on the device under the target,
// so each step has the device's own figures beside fio's.
func (s *diskSession) instrument(ctx context.Context) {
	o := iostat.Options{Log: func(f string, a ...any) { s.con.Logf(f, a...) }}
	if s.tgt.Raw {
		o.Devices = []string{filepath.Base(s.tgt.Path) + "=data"}
	} else {
		// No database here: the WAL directory is the test file's too (iostat would
		// otherwise look for a pg_wal beside it).
		o.DataDir = filepath.Dir(s.tgt.Path)
		o.WALDir = o.DataDir
	}
	sm, err := iostat.Open(ctx, o)
	if err != nil {
		s.con.Logf("disk: no device figures: %v", err)
		sm, _ = iostat.Open(ctx, iostat.Options{DataDir: "", Log: o.Log})
	}
	s.sampler = sm
	if devs := sm.Devices(); len(devs) > 0 {
		s.res.Disk.Target.Device = devs[0].Name
	}
	sm.Start(ctx)
}

// precondition lays the test file out and writes it in full, timed. A raw device is
// written only when the profiles write (and --allow-device-writes allowed it).
func (s *diskSession) precondition(ctx context.Context, setup diskprofile.Setup, writes bool) error {
	if s.tgt.Raw && !writes {
		s.res.Disk.Precondition = &results.Precondition{Skipped: true, SkipNote: "reading profiles on a raw device: its contents are read as they are"}
		return nil
	}
	s.con.Logf("disk: writing the %s target in full (preconditioning)", bytesize.Format(setup.SizeBytes))
	start := time.Now()
	if _, err := s.bin.Run(ctx, diskprofile.PreconditionJob(setup)); err != nil {
		return fmt.Errorf("preconditioning %s: %w", setup.Path, err)
	}
	secs := time.Since(start).Seconds()
	s.res.Disk.Precondition = &results.Precondition{Bytes: setup.SizeBytes, Seconds: round3(secs),
		MBps: round3(float64(setup.SizeBytes) / (1 << 20) / secs)}
	return results.Write(s.o.Out, s.res)
}

// steps runs every profile at each of its depths, writing the result file after
// each; an interrupt keeps the finished steps and drops the one cut short.
func (s *diskSession) steps(ctx context.Context, setup diskprofile.Setup) error {
	for _, p := range s.plan.profiles {
		for _, d := range diskprofile.Depths(p, s.plan.levels) {
			st, err := s.step(ctx, p, d, setup)
			if err != nil {
				if ctx.Err() != nil {
					return nil
				}
				return err
			}
			s.res.Disk.Steps = append(s.res.Disk.Steps, st)
			s.con.Logf("disk: %s at %d outstanding: %.0f IOPS, %.1f MB/s, %.3f ms", p.Name, st.Depth, st.IOPS, st.MBps, st.LatencyMS())
			if err := results.Write(s.o.Out, s.res); err != nil {
				return err
			}
		}
	}
	return nil
}

// step runs one profile at one depth. The device window opens when fio's ramp ends
// (by the clock: fio does not announce it) and closes when fio exits.
func (s *diskSession) step(ctx context.Context, p diskprofile.Profile, depth int, setup diskprofile.Setup) (results.DiskStep, error) {
	st := results.DiskStep{Profile: p.Name, Depth: diskprofile.StepDepth(p, depth), BlockSize: p.BlockSizeLabel(),
		StartedAt: time.Now().UTC(), RampS: setup.Ramp.Seconds(), MeasuredS: setup.Measure.Seconds()}
	var mu sync.Mutex
	var from *iostat.Mark
	timer := time.AfterFunc(setup.Ramp, func() {
		m := s.sampler.Mark()
		mu.Lock()
		from = &m
		mu.Unlock()
	})
	out, err := s.bin.Run(ctx, diskprofile.StepJob(p, depth, setup))
	timer.Stop()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return st, err
		}
		return st, fmt.Errorf("%s at %d outstanding: %w", p.Name, depth, err)
	}
	to := s.sampler.Mark()
	diskprofile.Figures(&st, out)
	if j := out.Jobs[0]; j.RuntimeMS > 0 {
		st.MeasuredS = float64(j.RuntimeMS) / 1000
	}
	mu.Lock()
	if from != nil {
		st.IO = s.sampler.Window(*from, to, 0, 0)
		st.Host, _ = s.sampler.HostWindow(*from, to)
	}
	mu.Unlock()
	diskprofile.CheckDevice(&st)
	return st, nil
}

// round3 keeps three decimals: the precondition's figures as the result file holds
// a run's.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
