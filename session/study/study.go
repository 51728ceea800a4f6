package study

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/disk"
	"github.com/brokerbench/brokerbench/session/load"
	"github.com/brokerbench/brokerbench/session/replay"
	"github.com/brokerbench/brokerbench/session/run"
)

// Options are how a study runs its plan.
type Options struct {
	// Resume continues the study in the plan's folder: a done run is never run
	// again; an interrupted or failed one is run again, its file kept aside.
	Resume bool
	// DryRun prints the plan, its order and its estimated time, and runs nothing.
	DryRun bool
}

// slot is one run of the schedule: a workload on a system, one repeat.
type slot struct {
	repeat   int
	system   System
	workload *Planned
}

func (s slot) file() string {
	return results.StudyRunFile(s.system.Name, s.workload.Name, s.repeat)
}

// study is one `brokerbench study` running its plan.
type study struct {
	g       *session.Globals
	p       *Plan
	rec     *results.Study
	started time.Time
	// spent and planned are the time the runs done in this session took and their
	// estimates: the rest of the estimate is scaled by their ratio.
	spent, planned time.Duration
}

// Run runs the plan: the study folder made (or, with Resume, its record read),
// the plan and its estimated time printed, every run in the schedule's order that
// is not done, the record written after each, then the report.
func Run(ctx context.Context, g *session.Globals, p *Plan, o Options) error {
	s := &study{g: g, p: p, started: time.Now()}
	if o.DryRun {
		s.rec = p.newRecord(g.Tool)
		s.printPlan(s.schedule())
		return nil
	}
	rec, err := p.openFolder(g.Tool, o.Resume)
	if err != nil {
		return err
	}
	s.rec = rec
	sched := s.schedule()
	s.printPlan(sched)
	rec.Stopped = ""
	if err := s.save(); err != nil {
		return err
	}
	for i, sl := range sched {
		if s.done(sl) {
			continue
		}
		if sl.repeat > s.repeatsNeeded() {
			break
		}
		if err := ctx.Err(); err != nil {
			return s.stop(session.ErrInterrupted, "interrupted before "+sl.file())
		}
		s.progress(i, sched)
		if err := s.runSlot(ctx, sl); err != nil {
			why := fmt.Sprintf("%s of %s, repeat %d: %s", sl.workload.Name, sl.system.Name, sl.repeat, session.OneLine(err.Error()))
			if ctx.Err() != nil {
				// Whatever the run was doing when the signal came (fio killed mid-check,
				// a query cancelled), the study was interrupted: exit 130, resumable.
				err, why = session.ErrInterrupted, fmt.Sprintf("interrupted during %s of %s, repeat %d", sl.workload.Name, sl.system.Name, sl.repeat)
			}
			return s.stop(err, why)
		}
		if s.roundDone(sched, i) {
			if err := s.decideRepeats(sl.repeat); err != nil {
				return s.stop(err, err.Error())
			}
		}
	}
	s.g.Logf("study %s: every run done in %s", p.Name, session.ShortDuration(time.Since(s.started).Round(time.Second)))
	return s.report()
}

// stop records why the study stopped and returns err: the record keeps every
// finished run, and --resume continues from the first that is not done.
func (s *study) stop(err error, why string) error {
	s.rec.Stopped = why
	if werr := s.save(); werr != nil {
		return errors.Join(err, werr)
	}
	s.g.Logf("study %s stopped (%s); every finished run is kept: continue it with brokerbench study %s --resume", s.p.Name, why, s.p.Source)
	return err
}

func (s *study) save() error {
	s.rec.Updated = time.Now().UTC()
	return results.WriteStudy(s.p.Dir, s.rec)
}

// is tells whether r is a run (an attempt) of slot sl.
func (sl slot) is(r results.StudyRun) bool {
	return r.System == sl.system.Name && r.Workload == sl.workload.Name && r.Repeat == sl.repeat
}

// done tells whether the record holds sl done (a resumed study skips it).
func (s *study) done(sl slot) bool {
	return slices.ContainsFunc(s.rec.Runs, func(r results.StudyRun) bool { return sl.is(r) && r.Done() })
}

// runSlot runs one slot and records it: started before, its end after.
func (s *study) runSlot(ctx context.Context, sl slot) error {
	if sl.workload.Kind == results.WorkloadRun {
		if err := s.loadSystem(ctx, sl.system); err != nil {
			return err
		}
	}
	file := sl.file()
	path := filepath.Join(s.p.Dir, file)
	if err := s.setAside(sl, path); err != nil {
		return err
	}
	s.rec.Runs = append(s.rec.Runs, results.StudyRun{System: sl.system.Name, Workload: sl.workload.Name, Repeat: sl.repeat,
		File: file, Started: time.Now().UTC(), Status: results.StudyRunInterrupted})
	if err := s.save(); err != nil {
		return err
	}
	began := time.Now()
	err := s.runOne(ctx, sl, path)
	entry := &s.rec.Runs[len(s.rec.Runs)-1]
	entry.Finished = time.Now().UTC()
	switch {
	case err == nil:
		entry.Status = results.StudyRunDone
		s.spent += time.Since(began)
		s.planned += sl.workload.Estimate
	case errors.Is(err, session.ErrInterrupted) || ctx.Err() != nil:
		entry.Status = results.StudyRunInterrupted
	default:
		entry.Status, entry.Error = results.StudyRunFailed, session.OneLine(err.Error())
	}
	if werr := s.save(); werr != nil {
		return errors.Join(err, werr)
	}
	return err
}

// setAside moves the file (and capture) an interrupted or failed earlier attempt
// of sl left to NAME-attempt-K, so nothing measured is lost and the rerun writes
// files of its own; that attempt's log goes on. A file at sl's names that no
// attempt in the record explains (its result file, capture or log) is not the
// study's, and is refused, never moved or written to.
func (s *study) setAside(sl slot, path string) error {
	base := strings.TrimSuffix(path, ".json")
	captured := base + "-capture"
	exists := func(p string) bool { _, err := os.Lstat(p); return err == nil }
	if !exists(path) && !exists(captured) && !exists(base+".log") {
		return nil
	}
	i := slices.IndexFunc(s.rec.Runs, func(r results.StudyRun) bool { return sl.is(r) && !r.Done() && r.File == sl.file() })
	if i < 0 {
		return session.Usagef("%s (or its capture or log) is in the study folder but no run in its record made it: not the study's, so it is left alone; move it away first", path)
	}
	attempts := 0
	for _, r := range s.rec.Runs {
		if sl.is(r) {
			attempts++
		}
	}
	kept := filepath.Join(s.p.Dir, fmt.Sprintf("%s-%s-r%d-attempt-%d", sl.system.Name, sl.workload.Name, sl.repeat, attempts))
	if exists(path) {
		if err := os.Rename(path, kept+".json"); err != nil {
			return err
		}
		s.rec.Runs[i].File = filepath.Base(kept) + ".json"
	}
	if exists(captured) {
		return os.Rename(captured, kept+"-capture")
	}
	return nil
}

// runOne runs sl's workload on its system, its result file at path. What the run
// prints as its results (its step table, its report) goes to its log beside the
// file, NAME.log: the study's own output is the plan, the progress and the
// study's report, and the run's live line and progress still show on stderr.
func (s *study) runOne(ctx context.Context, sl slot, path string) error {
	log, err := os.OpenFile(strings.TrimSuffix(path, ".json")+".log", os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer log.Close()
	g := s.p.globals(s.g, sl.system)
	g.Stdout = log
	w, sys := sl.workload, sl.system
	switch w.Kind {
	case results.WorkloadRun:
		o := s.p.runOptions(w, sys, path)
		if w.capture && sys.Name == s.p.Baseline && sl.repeat == 1 {
			o.CaptureIO = s.p.captureDir(w)
		}
		return run.Run(ctx, g, o)
	case results.WorkloadDisk:
		o := s.p.diskOptions(w, sys, path)
		o.Tool = s.g.Tool
		return disk.Run(ctx, g.Console, o)
	default:
		o := s.p.replayOptions(w, sys, path)
		o.Tool = s.g.Tool
		return replay.Run(ctx, g.Console, o, w.trace)
	}
}

// loadSystem loads the system's database before its first OLTP run, when the
// study file has a load section and the record has no finished load of it; a
// load an earlier attempt began is continued (--resume), never started over.
func (s *study) loadSystem(ctx context.Context, sys System) error {
	if s.p.load == nil {
		return nil
	}
	rs := s.recSystem(sys.Name)
	if rs.Loaded {
		return nil
	}
	lo := *s.p.load
	lo.Resume = rs.Loading
	if lo.Resume {
		lo.ScaleSet, lo.SeedSet = false, false
	}
	logPath := filepath.Join(s.p.Dir, sys.Name+"-load.log")
	flags := os.O_CREATE | os.O_APPEND | os.O_WRONLY
	if !lo.Resume {
		flags |= os.O_EXCL // a log no load of this study began is not the study's to write to
	}
	log, err := os.OpenFile(logPath, flags, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return session.Usagef("%s is in the study folder but no load of the study made it: not the study's, so it is left alone; move it away first", logPath)
	}
	if err != nil {
		return err
	}
	defer log.Close()
	rs.Loading = true
	if err := s.save(); err != nil {
		return err
	}
	s.g.Logf("study %s: loading the database of %s before its first run (its summary in %s)", s.p.Name, sys.Name, logPath)
	g := s.p.globals(s.g, sys)
	g.Stdout = log
	if err := load.Run(ctx, g, &lo); err != nil {
		if !lo.Resume && (errors.Is(err, loader.ErrSchemaExists) || errors.Is(err, loader.ErrUnfinished)) {
			// Not this study's load (its record has none): never dropped for it, and
			// never continued by a resumed study either.
			rs.Loading = false
			os.Remove(logPath) // made above with O_EXCL: the study's own, and empty
			if werr := s.save(); werr != nil {
				return werr
			}
			return session.Usagef("load %s: its database already holds a load this study did not make: leave out load: to run on it, or remove it yourself (brokerbench schema drop)", sys.Name)
		}
		return fmt.Errorf("load: %w", err)
	}
	rs.Loaded = true
	return s.save()
}

func (s *study) recSystem(name string) *results.StudySystem {
	for i := range s.rec.Systems {
		if s.rec.Systems[i].Name == name {
			return &s.rec.Systems[i]
		}
	}
	panic("study: system " + name + " not in the record") // the record is made from the plan
}
