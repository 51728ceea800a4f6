package study

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session/replay"
)

// A replay workload may replay a capture the study takes itself ("capture: oltp"):
// the baseline's first repeat of that run workload records every block request of
// its database's disks in each step's measured window (run --capture-io), and
// every system's replay sends the last step's requests (the most users) to its own
// storage. The same production-like I/O then meets every layout, and the trace is
// of this study's database at this study's load.

// captureFor makes replay workload w replay the capture of the run workload named
// from, which must come before it in the plan, run a ramp (a --find-max search has
// no fixed last step) and run on a managed server of the baseline's, on this host;
// capturing needs root (tracefs).
func (p *Plan) captureFor(w *Planned, from string) error {
	var src *Planned
	for i := range p.Workloads {
		if p.Workloads[i].Name == from && p.Workloads[i].Kind == results.WorkloadRun {
			src = &p.Workloads[i]
		}
	}
	switch {
	case src == nil:
		return fmt.Errorf("capture %q: want the name of a run workload listed before this replay", from)
	case src.run.LimitOpts.FindMax:
		return fmt.Errorf("capture %q: a --find-max search has no fixed last step to capture; capture a ramp", from)
	case p.system(p.Baseline).DB != "":
		return fmt.Errorf("capture %q: the baseline %s runs on a database of yours (db); capture needs its data folder on this host (pgdata or dir)", from, p.Baseline)
	case len(p.system(p.Baseline).IODevices) > 0:
		return fmt.Errorf("capture %q: the capture records the disks under the baseline's data folder; leave out its io-device", from)
	case os.Geteuid() != 0:
		return errors.New("capture: recording block I/O needs root (tracefs); run the study as root, or replay a trace captured before (trace:)")
	}
	src.capture = true
	w.captureFrom = from
	w.trace = filepath.Join(p.captureDir(src), fmt.Sprintf("step-%d", src.levels))
	return nil
}

// captureDir is where the baseline's first repeat of run workload w captures.
func (p *Plan) captureDir(w *Planned) string {
	return filepath.Join(p.Dir, capturedName(p.Baseline, w.Name, 1))
}

// capturedName is the capture folder beside a run's result file.
func capturedName(system, workload string, repeat int) string {
	return fmt.Sprintf("%s-%s-r%d-capture", system, workload, repeat)
}

// capturedReplay checks a replay of a capture the study has not taken yet: its
// options now, the trace when it runs. Its time is about the captured window's.
func (p *Plan) capturedReplay(w *Planned, o replay.Options) (time.Duration, string, error) {
	if err := replay.CheckOptions(o); err != nil {
		return 0, "", err
	}
	var window time.Duration
	for _, q := range p.Workloads {
		if q.Name == w.captureFrom {
			window = q.run.Step - q.run.Warmup
		}
	}
	if !o.ASAP {
		window = time.Duration(float64(window) / o.Speed)
	}
	return window + replayOverhead, fmt.Sprintf("the capture of %s's last step on %s, repeat 1", w.captureFrom, p.Baseline), nil
}

func (p *Plan) system(name string) System {
	for _, s := range p.Systems {
		if s.Name == name {
			return s
		}
	}
	return System{}
}

// capturesFirst tells whether a replay replays the study's own capture: then the
// baseline runs first in the first repeat, so the trace exists before any replay.
func (p *Plan) capturesFirst() bool {
	for _, w := range p.Workloads {
		if w.captureFrom != "" {
			return true
		}
	}
	return false
}
