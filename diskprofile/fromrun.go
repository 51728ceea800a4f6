package diskprofile

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"github.com/brokerbench/brokerbench/results"
)

// FromRunName is the name of the profile derived from a run.
const FromRunName = "from-run"

// FromRun derives a profile from a run's measured I/O at the step with `users`
// users (0: the step with the most users that has storage figures), so the raw
// storage can be measured with the run's own shape:
//   - the data stream: random I/O with the data devices' read share, and their
//     average read and write sizes (fio's bs=READ,WRITE), at the step's depths plus
//     the run's own outstanding I/Os (the data devices' average queue depth);
//   - when the WAL had a device of its own, a WAL stream beside it: sequential
//     writes of the WAL device's average size, each followed by fdatasync, one at a
//     time, paced to the run's WAL write rate (fio's rate_iops).
//
// The result says what it derived in its description.
func FromRun(path string, r *results.Run, users int) (Profile, error) {
	st, err := pickStep(r, users)
	if err != nil {
		return Profile{}, fmt.Errorf("--from-run %s: %w", path, err)
	}
	data, wal, split := byRole(st.IO)
	total := data.ReadIOPS + data.WriteIOPS
	if total <= 0 {
		return Profile{}, fmt.Errorf("--from-run %s: the step with %d users did no data I/O", path, st.Users)
	}
	readPct := int(math.Round(data.ReadIOPS / total * 100))
	s := Stream{RW: "randrw", ReadPercent: readPct}
	rs, ws := reqSize(data.ReadMBps, data.ReadIOPS), reqSize(data.WriteMBps, data.WriteIOPS)
	switch {
	case readPct >= 100:
		s.RW, s.BlockSize = "randread", sizeText(rs)
	case readPct <= 0:
		s.RW, s.BlockSize = "randwrite", sizeText(ws)
	default:
		s.BlockSize = sizeText(rs) + "," + sizeText(ws)
	}
	p := Profile{Name: FromRunName, Stream: s, Source: "from-run " + path}
	p.ExtraDepth = max(1, int(math.Round(data.QueueDepth)))
	desc := fmt.Sprintf("from %s at %d users: random, %d %% reads, %s reads / %s writes, %d outstanding",
		filepath.Base(path), st.Users, readPct, sizeText(rs), sizeText(ws), p.ExtraDepth)
	if split && wal.WriteIOPS > 0 {
		w := Stream{RW: "write", BlockSize: sizeText(reqSize(wal.WriteMBps, wal.WriteIOPS)), Depth: 1, Engine: "sync",
			Options: []string{"fdatasync=1", "rate_iops=" + strconv.Itoa(max(1, int(math.Round(wal.WriteIOPS))))}}
		p.Also = []Stream{w}
		desc += fmt.Sprintf("; WAL beside it: %s writes with fdatasync at %.0f/s", w.BlockSize, wal.WriteIOPS)
	} else {
		desc += "; data and WAL on one device, measured together"
	}
	p.Description = desc
	return p, p.Validate()
}

func pickStep(r *results.Run, users int) (*results.Step, error) {
	if results.KindOf(r) != results.KindRun {
		return nil, errors.New("not an OLTP run's result file")
	}
	var best *results.Step
	for i := range r.Steps {
		st := &r.Steps[i]
		if st.IO == nil || st.IO.Source == "" || st.IO.Source == "none" {
			continue
		}
		if users > 0 && st.Users == users {
			return st, nil
		}
		if users == 0 && (best == nil || st.Users > best.Users) {
			best = st
		}
	}
	if best == nil {
		if users > 0 {
			return nil, fmt.Errorf("no step with %d users and storage figures", users)
		}
		return nil, errors.New("no step has storage figures (io)")
	}
	return best, nil
}

// byRole adds up the data devices and the WAL devices; split is false when the WAL
// had no device of its own (then data holds everything).
func byRole(io *results.StepIO) (data, wal results.IOFigures, split bool) {
	for _, d := range io.Devices {
		if d.Layer != "" {
			continue
		}
		if d.Role == "wal" || d.Role == "log" {
			wal, split = add(wal, d.IOFigures), true
		} else {
			data = add(data, d.IOFigures)
		}
	}
	if !split {
		return io.IOFigures, results.IOFigures{}, false
	}
	return data, wal, true
}

// add sums two devices' figures; await and queue depth are weighted by IOPS.
func add(a, b results.IOFigures) results.IOFigures {
	out := results.IOFigures{ReadIOPS: a.ReadIOPS + b.ReadIOPS, WriteIOPS: a.WriteIOPS + b.WriteIOPS,
		ReadMBps: a.ReadMBps + b.ReadMBps, WriteMBps: a.WriteMBps + b.WriteMBps, QueueDepth: a.QueueDepth + b.QueueDepth}
	if out.ReadIOPS > 0 {
		out.ReadAwaitMS = (a.ReadAwaitMS*a.ReadIOPS + b.ReadAwaitMS*b.ReadIOPS) / out.ReadIOPS
	}
	if out.WriteIOPS > 0 {
		out.WriteAwaitMS = (a.WriteAwaitMS*a.WriteIOPS + b.WriteAwaitMS*b.WriteIOPS) / out.WriteIOPS
	}
	return out
}

// reqSize is the average request size in bytes, rounded to a 512-byte sector (at
// least one): what direct I/O can issue. 8 KB when the direction did no I/O.
func reqSize(mbps, iops float64) int64 {
	if iops <= 0 {
		return 8192
	}
	b := mbps * mib / iops
	return max(512, int64(math.Round(b/512))*512)
}

// sizeText writes bytes as fio reads them: "8k" for whole KiB, else bytes.
func sizeText(b int64) string {
	if b%1024 == 0 {
		return strconv.FormatInt(b/1024, 10) + "k"
	}
	return strconv.FormatInt(b, 10)
}
