package compare

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/brokerbench/brokerbench/results"
)

// A study folder (brokerbench study) compared: each workload of its plan is one
// comparison of the systems, every system one side whose repeats are its done runs,
// the baseline first. The verdicts are the comparisons' own (estimate.go): a study is
// only a way of getting repeats that interleave, not a new statistic.

// Study is a study folder's record with a comparison per workload.
type Study struct {
	Record *results.Study
	Dir    string
	// Systems are the systems by name, the baseline first, then the record's order.
	Systems []string
	// Workloads are the plan's workloads, in its order.
	Workloads []StudyWorkload
}

// StudyWorkload is one workload of the plan compared across the systems that ran it.
type StudyWorkload struct {
	results.StudyWorkload
	// Runs compares an OLTP workload: one side per system with a done run, the
	// baseline first, each side's repeats its done runs in repeat order, each named
	// by its system. Nil for another kind, or when fewer than two systems (or not
	// the baseline) have a done run.
	Runs *Comparison
	// Disks compares storage profiles or a replay the same way; nil otherwise.
	Disks *DiskComparison
	// Missing says, one line per system, which systems have no done run of the
	// workload and so are not in its comparison.
	Missing []string
}

// Inputs are the workload's sides, whichever kind it is; nil without a comparison.
func (w StudyWorkload) Inputs() []results.Input {
	switch {
	case w.Runs != nil:
		return w.Runs.Inputs
	case w.Disks != nil:
		return w.Disks.Inputs
	}
	return nil
}

// Side is the index of system's side in the workload's comparison.
func (w StudyWorkload) Side(system string) (int, bool) {
	for r, in := range w.Inputs() {
		if in.Shown == system {
			return r, true
		}
	}
	return 0, false
}

// CompareStudy reads the study folder dir: its record and every done run's file. A
// file the record names as done but that is missing, corrupt or of another kind than
// its workload is an error naming it: a report that silently left a repeat out
// would judge on fewer runs than the record says.
func CompareStudy(dir string) (*Study, error) {
	rec, err := results.ReadStudy(dir)
	if err != nil {
		return nil, err
	}
	s := &Study{Record: rec, Dir: dir}
	if s.Systems, err = studySystems(rec); err != nil {
		return nil, fmt.Errorf("study %s: %w", dir, err)
	}
	for _, w := range rec.Workloads {
		sw, err := s.compareWorkload(w)
		if err != nil {
			return nil, err
		}
		s.Workloads = append(s.Workloads, sw)
	}
	return s, nil
}

// studySystems are the record's systems, the baseline first.
func studySystems(rec *results.Study) ([]string, error) {
	var names []string
	for _, sys := range rec.Systems {
		if slices.Contains(names, sys.Name) {
			return nil, fmt.Errorf("the record names system %q twice", results.Printable(sys.Name))
		}
		names = append(names, sys.Name)
	}
	i := slices.Index(names, rec.Baseline)
	if i < 0 {
		return nil, fmt.Errorf("the baseline %q is not one of the record's systems", results.Printable(rec.Baseline))
	}
	return append([]string{rec.Baseline}, slices.Delete(slices.Clone(names), i, i+1)...), nil
}

// compareWorkload reads every system's done runs of w and compares them.
func (s *Study) compareWorkload(w results.StudyWorkload) (StudyWorkload, error) {
	sw := StudyWorkload{StudyWorkload: w}
	var sides []results.Input
	for _, sys := range s.Systems {
		side, ok, err := s.readSide(sys, w)
		if err != nil {
			return sw, err
		}
		if !ok {
			sw.Missing = append(sw.Missing, fmt.Sprintf("%s has no finished run of %s", results.Printable(sys), results.Printable(w.Name)))
			continue
		}
		sides = append(sides, side)
	}
	if len(sides) < 2 || sides[0].Shown != s.Record.Baseline {
		return sw, nil // nothing to compare: Missing says why
	}
	var err error
	if w.Kind == results.WorkloadRun {
		sw.Runs, err = Compare(sides)
	} else {
		sw.Disks, err = CompareDisk(sides)
	}
	if err != nil {
		return sw, fmt.Errorf("study %s, workload %s: %w", s.Dir, results.Printable(w.Name), err)
	}
	return sw, nil
}

// readSide reads system sys's done runs of w, in repeat order, as one side named
// by the system; ok is false when it has none.
func (s *Study) readSide(sys string, w results.StudyWorkload) (side results.Input, ok bool, err error) {
	runs := s.Record.DoneRuns(sys, w.Name)
	slices.SortStableFunc(runs, func(a, b results.StudyRun) int { return a.Repeat - b.Repeat })
	for k, sr := range runs {
		path := filepath.Join(s.Dir, sr.File)
		run, err := results.Read(path)
		if err != nil {
			return side, false, fmt.Errorf("study %s: %s's run %d of %s: %w", s.Dir, results.Printable(sys), sr.Repeat, results.Printable(w.Name), err)
		}
		if why := kindMismatch(w.Kind, run); why != "" {
			return side, false, fmt.Errorf("study %s: %s is %s, but workload %s is of kind %s", s.Dir, path, why, results.Printable(w.Name), w.Kind)
		}
		in := results.Input{Path: path, Run: run, Shown: sys}
		if k == 0 {
			side = in
		} else {
			side.Repeats = append(side.Repeats, in)
		}
	}
	return side, len(runs) > 0, nil
}

// kindMismatch says what run is when it is not what a workload of kind writes, or "".
func kindMismatch(kind string, run *results.Run) string {
	disk := results.KindOf(run) == results.KindDisk && run.Disk != nil
	switch {
	case kind == results.WorkloadRun && disk:
		return "a storage-profile file"
	case kind != results.WorkloadRun && !disk:
		return "an OLTP result file"
	case kind == results.WorkloadDisk && run.Disk.Replay != nil:
		return "a replay"
	case kind == results.WorkloadReplay && run.Disk.Replay == nil:
		return "a storage-profile file, not a replay"
	}
	return ""
}
