// Package studyfixture writes a small study folder for the tests of compare, report
// and the command: three systems (a baseline, one clearly slower where storage binds,
// one the same as the baseline), an OLTP ramp, storage profiles and a replay, three
// repeats interleaved (A B C A B C ...), every file written by results.Write and the
// record by results.WriteStudy, as brokerbench study writes them.
package studyfixture

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
)

// The systems: Base is the baseline, Slow is throttled (worse wherever storage
// binds), Same is the baseline's twin (within noise everywhere).
const (
	Base = "h800"
	Slow = "h810"
	Same = "h800b"
)

// speeds are each system's speed per repeat: a few percent of noise around its level.
var speeds = map[string][]float64{
	Base: {1.00, 1.03, 0.98},
	Slow: {0.60, 0.62, 0.59},
	Same: {0.99, 1.02, 1.01},
}

// streamingNoise is each system's streaming figures per repeat: the throttle does not
// bind there, so every system reads the same give or take a percent or two.
var streamingNoise = map[string][]float64{
	Base: {1.00, 1.02, 0.99},
	Slow: {1.01, 0.98, 1.00},
	Same: {0.99, 1.01, 1.02},
}

// Start is when the study's first run started.
var Start = time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)

// runLength is each run's duration in the record.
const runLength = 2 * time.Minute

// Write writes the study folder into dir (which must exist) and returns its record.
func Write(dir string) (*results.Study, error) {
	s := Record()
	at := Start
	for rep := 1; rep <= 3; rep++ {
		for _, w := range s.Workloads {
			for _, sys := range []string{Base, Slow, Same} {
				file := results.StudyRunFile(sys, w.Name, rep)
				run := buildRun(w.Kind, sys, rep, at)
				run.Tags = tagsOf(s, sys)
				if err := results.Write(filepath.Join(dir, file), run); err != nil {
					return nil, err
				}
				s.Runs = append(s.Runs, results.StudyRun{System: sys, Workload: w.Name, Repeat: rep, File: file,
					Started: at, Finished: at.Add(runLength), Status: results.StudyRunDone})
				at = at.Add(runLength)
			}
		}
	}
	s.Updated = at
	if err := results.WriteStudy(dir, s); err != nil {
		return nil, err
	}
	return s, nil
}

// Record is the study's record before any run.
func Record() *results.Study {
	return &results.Study{
		Name: "controllers", Tool: "brokerbench test", Source: "controllers.yaml", Baseline: Base,
		Systems: []results.StudySystem{
			{Name: Base, Tags: map[string]string{"controller": "H800", "raid": "10"}, Where: []string{"folder /mnt/a"}},
			{Name: Slow, Tags: map[string]string{"controller": "H810", "raid": "10"}, Where: []string{"folder /mnt/b"}},
			{Name: Same, Tags: map[string]string{"controller": "H800", "raid": "10", "copy": "<b>"}, Where: []string{"folder /mnt/c"}},
		},
		Workloads: []results.StudyWorkload{
			{Name: "oltp", Kind: results.WorkloadRun, Summary: "users 4,8; 50 s steps after 10 s warm-up", EstimatedS: 120},
			{Name: "profiles", Kind: results.WorkloadDisk, Summary: "database, streaming at 1, 16 outstanding", EstimatedS: 120},
			{Name: "replay", Kind: results.WorkloadReplay, Summary: "trace oltp.trace, timed", EstimatedS: 120},
		},
		Repeats:    results.StudyRepeats{Count: 3, Decided: "3 repeats, as the plan asked"},
		Order:      "interleaved",
		EstimatedS: 3 * 3 * 3 * 120,
		Started:    Start,
	}
}

// buildRun is system sys's run of a workload kind in repeat rep, started at at.
func buildRun(kind, sys string, rep int, at time.Time) *results.Run {
	speed := speeds[sys][rep-1]
	var r *results.Run
	switch kind {
	case results.WorkloadRun:
		r = runfixture.SampleRun(sys, []int{4, 8}, speed, 1/speed, uint64(rep))
		for i := range r.Steps {
			st := &r.Steps[i]
			st.StartedAt = at.Add(time.Duration(i) * time.Minute)
			// Device counters with reads per transaction: the steps read their data
			// from storage, so the comparison judges them (compare, regime.go).
			reads, writes := st.IO.ReadIOPS/st.TPS, st.IO.WriteIOPS/st.TPS
			st.IO.ReadsPerTxn, st.IO.WritesPerTxn = &reads, &writes
		}
	case results.WorkloadDisk:
		r = diskRun(sys, speed, streamingNoise[sys][rep-1], at)
	default:
		r = replayRun(sys, speed, at)
	}
	r.Label, r.StartedAt, r.FinishedAt = sys, at, at.Add(runLength)
	return r
}

// diskRun is a storage-profile run: database (random 8k, where the throttle binds:
// its IOPS scale with speed) and streaming (sequential 1m, where it does not: the
// same for every system, give or take the repeat's noise) at depths 1 and 16.
func diskRun(sys string, speed, noise float64, at time.Time) *results.Run {
	d := &results.DiskRun{Target: results.DiskTarget{Path: "/mnt/" + sys + "/brokerbench-disk.dat", SizeBytes: 1 << 30, Filesystem: "ext4", Device: "loop0"},
		FIO: "3.33", Direct: true, Profiles: []results.DiskProfile{{Name: "database"}, {Name: "streaming"}}}
	for _, p := range []struct {
		name, bs string
		iops     float64
	}{{"database", "8k", 1000 * speed}, {"streaming", "1m", 200 * noise}} {
		for k, depth := range []int{1, 16} {
			iops := p.iops * float64(depth) / (1 + float64(depth)/8)
			lat := float64(depth) / iops * 1000
			d.Steps = append(d.Steps, results.DiskStep{Profile: p.name, Depth: depth, BlockSize: p.bs,
				StartedAt: at.Add(time.Duration(k) * 20 * time.Second), RampS: 2, MeasuredS: 10, IOPS: iops, MBps: iops / 128, ReadPercent: 70,
				Read:  &results.DiskDir{IOs: int64(iops * 7), IOPS: iops * 0.7, AvgMS: lat, P99MS: 3 * lat},
				Write: &results.DiskDir{IOs: int64(iops * 3), IOPS: iops * 0.3, AvgMS: lat, P99MS: 4 * lat}})
		}
	}
	return &results.Run{Format: results.FormatVersion, Kind: results.KindDisk, Seed: 1, Steps: []results.Step{}, Disk: d}
}

// replayRun is a replay of one captured trace: the slow system falls behind it.
func replayRun(sys string, speed float64, at time.Time) *results.Run {
	replayedS := 60 / min(speed, 1.02)
	iops := 500 * min(speed, 1.02)
	d := &results.DiskRun{Target: results.DiskTarget{Path: "/mnt/" + sys + "/replay.dat", SizeBytes: 1 << 30, Filesystem: "ext4", Device: "loop0"},
		FIO: "3.33", Direct: true,
		Replay: &results.Replay{Trace: "oltp.trace", Mode: "timed", Depth: 8, Captured: 30000, Replayed: 30000,
			CapturedS: 60, ReplayedS: replayedS, LagP50MS: 1 / speed, LagP99MS: 20 / speed / speed, LagMaxMS: 90 / speed / speed},
		Steps: []results.DiskStep{{Profile: "replay", Depth: 8, StartedAt: at, MeasuredS: replayedS, IOPS: iops, MBps: iops / 128, ReadPercent: 70,
			Read:  &results.DiskDir{IOs: 21000, IOPS: iops * 0.7, AvgMS: 2 / speed, P99MS: 9 / speed},
			Write: &results.DiskDir{IOs: 9000, IOPS: iops * 0.3, AvgMS: 3 / speed, P99MS: 12 / speed}}}}
	return &results.Run{Format: results.FormatVersion, Kind: results.KindDisk, Seed: 1, Steps: []results.Step{}, Disk: d}
}

// tagsOf is system sys's tags in the record, which its result files carry too.
func tagsOf(s *results.Study, sys string) map[string]string {
	for _, x := range s.Systems {
		if x.Name == sys {
			return x.Tags
		}
	}
	return nil
}

// FileOf is the file of system sys's run of workload w in repeat rep.
func FileOf(sys, w string, rep int) string { return results.StudyRunFile(sys, w, rep) }

// Describe names the fixture in a test's failure message.
func Describe() string {
	return fmt.Sprintf("study of %s (baseline), %s (slow) and %s (the same), 3 repeats", Base, Slow, Same)
}
