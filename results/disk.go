package results

import (
	"fmt"
	"slices"
	"time"
)

// A result file's kind: what its figures are of. Files written before kinds
// existed have none and are OLTP runs.
const (
	// KindRun is an OLTP run (brokerbench run, quickstart, merge); its figures are in
	// steps.
	KindRun = "run"
	// KindDisk is a storage-profile run (brokerbench disk); its figures are in disk.
	KindDisk = "disk"
)

// KindOf returns r's kind, KindRun for a file that names none.
func KindOf(r *Run) string {
	if r == nil || r.Kind == "" {
		return KindRun
	}
	return r.Kind
}

// DiskRun is what a storage-profile run measured: standard access patterns at
// rising numbers of outstanding I/Os, on fio, against one target.
type DiskRun struct {
	Target DiskTarget `json:"target"`
	// FIO is the fio version that ran the jobs ("3.33").
	FIO string `json:"fio"`
	// Direct is true when the jobs bypassed the page cache (O_DIRECT).
	Direct bool `json:"direct"`
	// Precondition is the writing of the whole test file before the first step.
	Precondition *Precondition `json:"precondition,omitempty"`
	// Profiles are the profiles the steps ran, each with the fio options it became.
	Profiles []DiskProfile `json:"profiles"`
	Steps    []DiskStep    `json:"steps"`
	// Replay is set when the run replayed a captured trace (brokerbench replay): its
	// one step is the replay, and this says how faithful it was.
	Replay *Replay `json:"replay,omitempty"`
}

// DiskTarget is where the jobs did their I/O.
type DiskTarget struct {
	// Path is the test file (on a file system) or the block device.
	Path string `json:"path"`
	// Device is the block device under it ("loop0", "sdb"), when known.
	Device string `json:"device,omitempty"`
	// Raw is true for a block device written or read directly.
	Raw bool `json:"raw,omitempty"`
	// SizeBytes is the region the jobs address: the test file's size, or the part
	// of the device used.
	SizeBytes int64 `json:"size_bytes"`
	// Filesystem is the file system type holding the test file ("ext4").
	Filesystem string `json:"filesystem,omitempty"`
	// Kept is true when the test file was left in place after the run.
	Kept bool `json:"kept,omitempty"`
}

// Precondition is how the test file was laid out and written in full before the
// first step, so reads hit allocated blocks and writes overwrite them.
type Precondition struct {
	Bytes    int64   `json:"bytes"`
	Seconds  float64 `json:"seconds"`
	MBps     float64 `json:"mbps"`
	Skipped  bool    `json:"skipped,omitempty"`
	SkipNote string  `json:"note,omitempty"`
}

// DiskProfile is one profile as it ran.
type DiskProfile struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Source is where the definition came from: "builtin", a profile file's path, or
	// "from-run FILE".
	Source string `json:"source,omitempty"`
	// FIO lists each fio job of the profile, as "job: key=value key=value ...", with
	// {depth} standing for the step's outstanding I/Os.
	FIO []string `json:"fio"`
	// ReadPercent is the share of reads the profile asks for, 0..100.
	ReadPercent float64 `json:"read_percent"`
}

// DiskStep is one profile held at one number of outstanding I/Os.
type DiskStep struct {
	Profile string `json:"profile"`
	// Depth is the outstanding I/Os asked for (fio's iodepth, summed over the
	// profile's jobs when they run at the step's depth).
	Depth int `json:"depth"`
	// BlockSize is the request size asked for ("8k"), or "mix" for a size mix.
	BlockSize string    `json:"block_size,omitempty"`
	StartedAt time.Time `json:"started_at"`
	RampS     float64   `json:"ramp_s"`
	MeasuredS float64   `json:"measured_s"`
	Partial   bool      `json:"partial,omitempty"`
	// IOPS and MBps are both directions together (MB/s in MiB/s).
	IOPS float64 `json:"iops"`
	MBps float64 `json:"mbps"`
	// ReadPercent is the share of the I/Os that were reads, as fio counted them.
	ReadPercent float64   `json:"read_percent"`
	Read        *DiskDir  `json:"read,omitempty"`
	Write       *DiskDir  `json:"write,omitempty"`
	Sync        *DiskSync `json:"sync,omitempty"`
	// DepthLevels is fio's iodepth distribution: the percent of time each number of
	// I/Os was in flight, by fio's buckets ("1", "2", "4", ..., ">=64").
	DepthLevels map[string]float64 `json:"depth_levels,omitempty"`
	// IO is what the device under the target did in the measured window, from the
	// same sampler as a run's steps (diskstats).
	IO *StepIO `json:"io,omitempty"`
	// DeviceAgrees tells whether the device's IOPS were within DeviceTolerance of
	// fio's; nil when there was no device reading. DeviceNote says how they differ.
	DeviceAgrees *bool  `json:"device_agrees,omitempty"`
	DeviceNote   string `json:"device_note,omitempty"`
	// Host is what this machine's CPUs and network spent in the same window
	// (docs/host.md): the cost of the storage path, beside what it delivered.
	Host *StepHost `json:"host,omitempty"`
}

// DiskDir is one direction's figures in a step. Latencies are fio's completion
// latency (submission to completion), in milliseconds.
type DiskDir struct {
	IOs         int64   `json:"ios"`
	IOPS        float64 `json:"iops"`
	MBps        float64 `json:"mbps"`
	AvgRequestB float64 `json:"avg_request_bytes"`
	AvgMS       float64 `json:"avg_ms"`
	P50MS       float64 `json:"p50_ms"`
	P95MS       float64 `json:"p95_ms"`
	P99MS       float64 `json:"p99_ms"`
	P999MS      float64 `json:"p99_9_ms"`
	MaxMS       float64 `json:"max_ms"`
}

// DiskSync is the fsync/fdatasync calls of a step (the WAL profile syncs after
// every write).
type DiskSync struct {
	Count int64   `json:"count"`
	AvgMS float64 `json:"avg_ms"`
	P99MS float64 `json:"p99_ms"`
}

// DeviceTolerance is how far the device's IOPS may be from fio's before a step says
// they disagree: the device window is taken by wall clock around fio's, and a
// request fio counts once can reach the device split or merged.
const DeviceTolerance = 0.10

// LatencyMS is the step's average completion latency over both directions, weighted
// by I/Os; 0 when nothing completed.
func (s *DiskStep) LatencyMS() float64 {
	var n, sum float64
	for _, d := range []*DiskDir{s.Read, s.Write} {
		if d != nil && d.IOs > 0 {
			n += float64(d.IOs)
			sum += float64(d.IOs) * d.AvgMS
		}
	}
	if n == 0 {
		return 0
	}
	return sum / n
}

// DiskKey identifies a profile step: the same profile at the same depth on two
// systems is the same test.
type DiskKey struct {
	Profile string
	Depth   int
}

func (k DiskKey) String() string { return fmt.Sprintf("%s, %d outstanding", k.Profile, k.Depth) }

// ProfileOrder is the profiles in the order the run ran them.
func ProfileOrder(d *DiskRun) []string {
	var out []string
	for _, p := range d.Profiles {
		if !slices.Contains(out, p.Name) {
			out = append(out, p.Name)
		}
	}
	for _, st := range d.Steps {
		if !slices.Contains(out, st.Profile) {
			out = append(out, st.Profile)
		}
	}
	return out
}

// DepthsOf is every depth the steps ran at, ascending.
func DepthsOf(steps []DiskStep) []int {
	var out []int
	for _, st := range steps {
		if !slices.Contains(out, st.Depth) {
			out = append(out, st.Depth)
		}
	}
	slices.Sort(out)
	return out
}

// StepAt returns the first step of profile at depth, nil when none.
func StepAt(d *DiskRun, k DiskKey) *DiskStep {
	for i := range d.Steps {
		if d.Steps[i].Profile == k.Profile && d.Steps[i].Depth == k.Depth {
			return &d.Steps[i]
		}
	}
	return nil
}
