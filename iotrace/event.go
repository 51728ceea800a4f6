package iotrace

import (
	"fmt"
	"strconv"
	"strings"
)

// Direction is a request's kind as the trace and fio's iolog name it.
type Direction uint8

const (
	Read Direction = iota
	Write
	Discard
	Flush // a cache flush with no data (rwbs "F" or "FN")
	Other
)

func (d Direction) String() string {
	return [...]string{"read", "write", "trim", "sync", "other"}[d]
}

// event is one block_rq_issue or block_rq_complete line of trace_pipe.
type event struct {
	complete bool
	tsUS     int64  // monotonic clock, microseconds
	dev      uint64 // kernel dev_t: major<<20 | minor
	dir      Direction
	flags    Flags
	sector   uint64
	sectors  uint32
}

// Flags are the request's modifiers from the kernel's rwbs string. Zeroes marks a
// write of zeroes the device makes itself (the kernel's write-zeroes, rwbs "N" with a
// length: ext4 zeroing an extent, BLKZEROOUT), which the event reads as a write.
type Flags struct {
	PreFlush, FUA, Sync, Meta, ReadAhead, Zeroes bool
}

// kernelDev is the kernel's internal dev_t (MKDEV: 20 bits of minor), which the
// block events' dev field and their filters use.
func kernelDev(major, minor uint32) uint64 { return uint64(major)<<20 | uint64(minor) }

// parseLine reads one trace_pipe line; ok is false for a line that is no block
// request event (a "CPU:N [LOST M EVENTS]" notice, a blank).
//
// The kernel prints (include/trace/events/block.h):
//
//	<comm>-<pid> [cpu] flags  SECS.USECS: block_rq_issue: MAJ,MIN RWBS BYTES (CMD) SECTOR + NR IOPRIO [COMM]
//	<comm>-<pid> [cpu] flags  SECS.USECS: block_rq_complete: MAJ,MIN RWBS (CMD) SECTOR + NR IOPRIO [ERROR]
func parseLine(line string) (event, bool, error) {
	var ev event
	i := strings.Index(line, ": block_rq_")
	if i < 0 {
		return ev, false, nil
	}
	head, rest := line[:i], line[i+len(": block_rq_"):]
	switch {
	case strings.HasPrefix(rest, "issue: "):
		rest = rest[len("issue: "):]
	case strings.HasPrefix(rest, "complete: "):
		ev.complete = true
		rest = rest[len("complete: "):]
	default:
		return ev, false, nil
	}
	ts := head[strings.LastIndexByte(head, ' ')+1:]
	secs, usecs, ok := strings.Cut(ts, ".")
	s, err1 := strconv.ParseInt(secs, 10, 64)
	u, err2 := strconv.ParseInt(usecs, 10, 64)
	if !ok || err1 != nil || err2 != nil || len(usecs) != 6 {
		return ev, false, fmt.Errorf("trace line without a timestamp: %q", line)
	}
	ev.tsUS = s*1_000_000 + u
	// The command field "(...)" may be empty or hold words: split around it.
	open, close := strings.IndexByte(rest, '('), strings.IndexByte(rest, ')')
	if open < 0 || close < open {
		return ev, false, fmt.Errorf("trace line without a command field: %q", line)
	}
	before, after := strings.Fields(rest[:open]), strings.Fields(rest[close+1:])
	if len(before) < 2 || len(after) < 3 || after[1] != "+" {
		return ev, false, fmt.Errorf("trace line of an unknown layout: %q", line)
	}
	maj, min, ok := strings.Cut(before[0], ",")
	ma, err1 := strconv.ParseUint(maj, 10, 32)
	mi, err2 := strconv.ParseUint(min, 10, 32)
	sec, err3 := strconv.ParseUint(after[0], 10, 64)
	nr, err4 := strconv.ParseUint(after[2], 10, 32)
	if !ok || err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		return ev, false, fmt.Errorf("trace line of an unknown layout: %q", line)
	}
	ev.dev = kernelDev(uint32(ma), uint32(mi))
	ev.sector, ev.sectors = sec, uint32(nr)
	ev.dir, ev.flags = parseRWBS(before[1])
	switch {
	case ev.sectors == 0 && ev.dir != Discard:
		ev.dir = Flush
	case ev.dir == Flush && !ev.flags.PreFlush:
		// "N" with a length is a write of zeroes: /proc/diskstats counts it as a write
		// of its sectors, and so does the trace.
		ev.dir, ev.flags.Zeroes = Write, true
	}
	return ev, true, nil
}

// parseRWBS decodes the kernel's blk_fill_rwbs string: an optional leading F (a
// flush before the data), the operation (R, W, D discard, E secure erase, N none),
// then F (FUA), A (read-ahead), S (sync), M (metadata).
func parseRWBS(s string) (Direction, Flags) {
	var f Flags
	d := Other
	if len(s) > 1 && s[0] == 'F' {
		f.PreFlush = true
		s = s[1:]
	}
	for i, c := range s {
		if i == 0 {
			switch c {
			case 'R':
				d = Read
			case 'W':
				d = Write
			case 'D', 'E':
				d = Discard
			case 'N':
				d = Flush
			case 'F': // "F" alone: a flush request
				d, f.PreFlush = Flush, true
			}
			continue
		}
		switch c {
		case 'F':
			f.FUA = true
		case 'A':
			f.ReadAhead = true
		case 'S':
			f.Sync = true
		case 'M':
			f.Meta = true
		}
	}
	return d, f
}
