package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// StudyFile is the name of a study folder's record (brokerbench study): the
// folder holds it and every result file the study wrote.
const StudyFile = "study.json"

// KindStudy is a study record's kind.
const KindStudy = "study"

// The workloads a study runs, by kind.
const (
	WorkloadRun    = "run"    // an OLTP ramp (or --find-max search): a result file of kind run
	WorkloadDisk   = "disk"   // storage access-pattern profiles: a result file of kind disk
	WorkloadReplay = "replay" // a captured trace replayed: a result file of kind disk with a replay
)

// The states of a study's run.
const (
	StudyRunDone        = "done"
	StudyRunFailed      = "failed"
	StudyRunInterrupted = "interrupted"
)

// Study is a study folder's record: what the plan asked for, the systems it
// compared, and every run in the order it ran, with when and how it ended. The
// study writes it before its first run and after every run, so an interrupted
// study resumes where it stopped (a done run is never run again) and compare and
// report find every file from it (docs/study.md).
type Study struct {
	Format int    `json:"format"`
	Kind   string `json:"kind"` // KindStudy
	Name   string `json:"name"`
	Tool   string `json:"tool,omitempty"`
	// Source is the study file the study was started from, as given.
	Source string `json:"source,omitempty"`
	// Baseline is the system every other is compared against.
	Baseline  string          `json:"baseline"`
	Systems   []StudySystem   `json:"systems"`
	Workloads []StudyWorkload `json:"workloads"`
	Repeats   StudyRepeats    `json:"repeats"`
	// Order is "interleaved" (every system's run of a repeat before the next
	// repeat: A B A B) or "random" (each repeat's systems in an order drawn from
	// Seed).
	Order string `json:"order"`
	Seed  uint64 `json:"seed,omitempty"`
	// EstimatedS is the plan's estimated duration, seconds, as shown before it started.
	EstimatedS float64   `json:"estimated_s,omitempty"`
	Started    time.Time `json:"started"`
	Updated    time.Time `json:"updated"`
	// Runs are the runs in the order they started; resumed runs follow.
	Runs []StudyRun `json:"runs"`
	// Stopped says why the study stopped before its plan was done ("" when it
	// finished or is still running): an interruption, a failed run, a budget spent.
	Stopped string `json:"stopped,omitempty"`
}

// StudySystem is one system under test as the study ran it.
type StudySystem struct {
	Name string            `json:"name"`
	Tags map[string]string `json:"tags,omitempty"`
	// Where says where the system lives, as shown (never a password): "folder
	// /mnt/a", "device /dev/sdb", "managed PostgreSQL in /mnt/a/pgdata".
	Where []string `json:"where,omitempty"`
	// Loading is set when the study began loading the system's database, Loaded
	// once that load finished: a resumed study continues a load it began.
	Loading bool `json:"loading,omitempty"`
	Loaded  bool `json:"loaded,omitempty"`
}

// StudyWorkload is one workload of the plan.
type StudyWorkload struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // WorkloadRun, WorkloadDisk or WorkloadReplay
	// Summary is the workload in words, as the plan printed it ("at 2, 4 users; 10s
	// steps after 3s warm-up", "database, streaming at 1, 16 outstanding").
	Summary string `json:"summary,omitempty"`
	// EstimatedS is one run's estimated duration, seconds.
	EstimatedS float64 `json:"estimated_s,omitempty"`
}

// StudyRepeats is how many times the plan runs: Count times, or, with Target,
// until the detectable difference of Figures is under Target percent or Max
// repeats are done.
type StudyRepeats struct {
	Count   int      `json:"count"`
	Target  float64  `json:"target_percent,omitempty"`
	Figures []string `json:"figures,omitempty"`
	Max     int      `json:"max,omitempty"`
	// Done is the number of repeats a target settled on, once it has; Decided says
	// why ("the detectable difference ... under the target", "budget spent").
	Done    int    `json:"done,omitempty"`
	Decided string `json:"decided,omitempty"`
}

// StudyRun is one run of the study: a workload on a system, one repeat.
type StudyRun struct {
	System   string `json:"system"`
	Workload string `json:"workload"`
	Repeat   int    `json:"repeat"` // from 1
	// File is the run's result file, relative to the study folder.
	File     string    `json:"file"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished,omitempty"`
	Status   string    `json:"status"` // StudyRunDone, StudyRunFailed or StudyRunInterrupted
	Error    string    `json:"error,omitempty"`
}

// Done tells whether the run finished and its file holds its figures.
func (r StudyRun) Done() bool { return r.Status == StudyRunDone }

// StudyRunFile is where a study keeps a run's result file, relative to its
// folder: named by system, workload and repeat ("h800-oltp-r2.json").
func StudyRunFile(system, workload string, repeat int) string {
	return fmt.Sprintf("%s-%s-r%d.json", system, workload, repeat)
}

// DoneRuns are the study's finished runs of workload on system, by repeat.
func (s *Study) DoneRuns(system, workload string) []StudyRun {
	var out []StudyRun
	for _, r := range s.Runs {
		if r.System == system && r.Workload == workload && r.Done() {
			out = append(out, r)
		}
	}
	return out
}

// Workload returns the plan's workload of that name.
func (s *Study) Workload(name string) (StudyWorkload, bool) {
	for _, w := range s.Workloads {
		if w.Name == name {
			return w, true
		}
	}
	return StudyWorkload{}, false
}

// IsStudyFolder tells whether dir is a study folder (holds a study record).
func IsStudyFolder(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, StudyFile))
	return err == nil && st.Mode().IsRegular()
}

// ReadStudy loads the record of the study folder dir.
func ReadStudy(dir string) (*Study, error) {
	path := filepath.Join(dir, StudyFile)
	data, err := readBounded(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &FileError{Path: path, Err: fmt.Errorf("no study record: %w", errNoFile{})}
		}
		return nil, &FileError{Path: path, Err: err}
	}
	var s Study
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	if s.Kind != KindStudy {
		return nil, &FileError{Path: path, Err: fmt.Errorf("kind %q: not a study record", s.Kind)}
	}
	if s.Format != FormatVersion {
		return nil, &FileError{Path: path, Err: fmt.Errorf("format %d: %w", s.Format, ErrFormat)}
	}
	return &s, nil
}

// WriteStudy stores the record in the study folder dir, atomically (writeAtomic):
// an interruption mid-write leaves the previous record, never half of one.
func WriteStudy(dir string, s *Study) error {
	s.Format, s.Kind = FormatVersion, KindStudy
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("write study record: %w", err)
	}
	path := filepath.Join(dir, StudyFile)
	if err := writeAtomic(path, append(data, '\n'), 0o644, false); err != nil {
		return fmt.Errorf("write study record %s: %w", path, err)
	}
	return nil
}
