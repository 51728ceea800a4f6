package diskprofile

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/brokerbench/brokerbench/internal/fio"
)

// Setup is what every step of a run shares: where, how long, which seed.
type Setup struct {
	// Path is the test file or block device; SizeBytes the region addressed.
	Path      string
	SizeBytes int64
	// Direct bypasses the page cache (O_DIRECT), the default: the cache would hide
	// the storage.
	Direct bool
	// Ramp runs before each step's measured time and is not counted.
	Ramp, Measure time.Duration
	// Seed fixes fio's random offsets and sizes, so two systems get the same I/Os.
	Seed uint64
}

// global options of every step: the target, timing, seed and the reporting.
func (s Setup) global() []fio.Option {
	direct := "0"
	if s.Direct {
		direct = "1"
	}
	return []fio.Option{
		{Key: "filename", Value: s.Path},
		{Key: "size", Value: strconv.FormatInt(s.SizeBytes, 10)},
		{Key: "direct", Value: direct},
		{Key: "time_based"},
		{Key: "ramp_time", Value: seconds(s.Ramp)},
		{Key: "runtime", Value: seconds(s.Measure)},
		{Key: "randseed", Value: strconv.FormatUint(s.Seed, 10)},
		// Without a random map fio picks every offset afresh, as a database does,
		// rather than touching each block once per pass of the file.
		{Key: "norandommap"},
		{Key: "group_reporting"},
		{Key: "percentile_list", Value: fio.PercentileList},
	}
}

// seconds renders a duration for fio, whose plain numbers are seconds; fractions
// are given in milliseconds.
func seconds(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10)
	}
	return strconv.FormatInt(int64(math.Ceil(float64(d)/float64(time.Millisecond))), 10) + "ms"
}

// StepJob is the fio job file of profile p at depth outstanding I/Os.
func StepJob(p Profile, depth int, s Setup) fio.JobFile {
	f := fio.JobFile{Global: s.global()}
	for i, st := range p.Streams() {
		f.Jobs = append(f.Jobs, fio.Job{Name: jobName(p, i), Options: st.fioOptions(depth)})
	}
	return f
}

// PreconditionJob writes the whole test file once, sequentially in 1 MB requests,
// so every later read finds allocated, written blocks and every write overwrites.
func PreconditionJob(s Setup) fio.JobFile {
	direct := "0"
	if s.Direct {
		direct = "1"
	}
	return fio.JobFile{
		Global: []fio.Option{{Key: "filename", Value: s.Path}, {Key: "size", Value: strconv.FormatInt(s.SizeBytes, 10)}},
		Jobs: []fio.Job{{Name: "precondition", Options: []fio.Option{
			{Key: "rw", Value: "write"}, {Key: "bs", Value: "1m"}, {Key: "ioengine", Value: "libaio"},
			{Key: "iodepth", Value: "4"}, {Key: "direct", Value: direct}, {Key: "end_fsync", Value: "1"},
			// Random data: a compressing or deduplicating array must not get away with
			// zeros.
			{Key: "refill_buffers"},
		}}},
	}
}

// StepDepth is the outstanding I/Os a step of p at depth holds: the streams that
// follow the step's depth hold it each, the fixed ones their own.
func StepDepth(p Profile, depth int) int {
	n := 0
	for _, st := range p.Streams() {
		if st.Depth > 0 {
			n += st.Depth
		} else {
			n += depth
		}
	}
	return n
}

// Depths returns the depth levels p runs at from the run's levels: a profile whose
// every stream has a fixed depth runs once; a run-derived profile adds its own.
func Depths(p Profile, levels []int) []int {
	fixed := true
	for _, st := range p.Streams() {
		fixed = fixed && st.Depth > 0
	}
	if fixed {
		return []int{p.Depth}
	}
	out := append([]int(nil), levels...)
	if p.ExtraDepth > 0 {
		seen := false
		for _, d := range out {
			seen = seen || d == p.ExtraDepth
		}
		if !seen {
			out = append(out, p.ExtraDepth)
		}
	}
	slices.Sort(out)
	return out
}

// Lookup finds profiles by name among all (builtin and added).
func Lookup(all []Profile, names []string) ([]Profile, error) {
	var out []Profile
	for _, n := range names {
		found := false
		for _, p := range all {
			if p.Name == n {
				out = append(out, p)
				found = true
				break
			}
		}
		if !found {
			known := make([]string, len(all))
			for i, p := range all {
				known[i] = p.Name
			}
			return nil, fmt.Errorf("unknown profile %q (have %v; see --list)", n, known)
		}
	}
	return out, nil
}
