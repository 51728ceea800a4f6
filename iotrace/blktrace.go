package iotrace

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/brokerbench/brokerbench/results"
)

// blktrace's binary files (what `blktrace -d DEV` writes, one per CPU:
// NAME.blktrace.CPU) hold records of struct blk_io_trace
// (include/uapi/linux/blktrace_api.h): magic, sequence, time (ns), sector, bytes,
// action, pid, device, cpu (u32 and u64 fields), error and pdu_len (u16), 48 bytes,
// each followed by pdu_len bytes of payload, in the byte order of the machine that
// traced.
const (
	blkMagic      = 0x65617400 // BLK_IO_TRACE_MAGIC; the low byte is the version
	blkRecordSize = 48
	blkTaIssue    = 7 // __BLK_TA_ISSUE: sent to the driver
	blkTaComplete = 8 // __BLK_TA_COMPLETE
	// Categories, the action's upper 16 bits (BLK_TC_*).
	blkTcRead    = 1 << 0
	blkTcWrite   = 1 << 1
	blkTcFlush   = 1 << 2
	blkTcSync    = 1 << 3
	blkTcNotify  = 1 << 10
	blkTcAhead   = 1 << 11
	blkTcMeta    = 1 << 12
	blkTcDiscard = 1 << 13
	blkTcFUA     = 1 << 15
)

// BlktraceError is a file that cannot be read as blktrace's: bad input, not a
// failure of the machine.
type BlktraceError struct{ File, Reason string }

func (e *BlktraceError) Error() string { return e.File + ": " + e.Reason }

// blkFile reads one blktrace file's issue and completion records in order.
type blkFile struct {
	name  string
	r     *bufio.Reader
	order binary.ByteOrder
	rec   [blkRecordSize]byte
	next  event // valid when ok
	ok    bool
}

func openBlkFile(path string) (*blkFile, *os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	b := &blkFile{name: path, r: bufio.NewReaderSize(f, 1<<20)}
	head, err := b.r.Peek(4)
	switch {
	case err == nil && binary.LittleEndian.Uint32(head)&0xffffff00 == blkMagic:
		b.order = binary.LittleEndian
	case err == nil && binary.BigEndian.Uint32(head)&0xffffff00 == blkMagic:
		b.order = binary.BigEndian
	case errors.Is(err, io.EOF):
		// An empty file: a CPU that saw no I/O.
	default:
		f.Close()
		return nil, nil, &BlktraceError{path, "not a blktrace file (no blk_io_trace magic)"}
	}
	return b, f, b.advance()
}

// advance reads up to the next issue or completion record; ok is false at the end.
func (b *blkFile) advance() error {
	b.ok = false
	if b.order == nil {
		return nil
	}
	for {
		if _, err := io.ReadFull(b.r, b.rec[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return &BlktraceError{b.name, "a truncated record"}
		}
		o := b.order
		if o.Uint32(b.rec[0:])&0xffffff00 != blkMagic {
			return &BlktraceError{b.name, "a record without the blk_io_trace magic"}
		}
		action := o.Uint32(b.rec[28:])
		if pdu := int(o.Uint16(b.rec[46:])); pdu > 0 {
			if _, err := b.r.Discard(pdu); err != nil {
				return &BlktraceError{b.name, "a truncated record"}
			}
		}
		cat := action >> 16
		kind := action & 0xffff
		if cat&blkTcNotify != 0 || kind != blkTaIssue && kind != blkTaComplete {
			continue
		}
		bytes := o.Uint32(b.rec[24:])
		b.next = event{
			complete: kind == blkTaComplete,
			tsUS:     int64(o.Uint64(b.rec[8:]) / 1000),
			dev:      uint64(o.Uint32(b.rec[36:])),
			sector:   o.Uint64(b.rec[16:]),
			sectors:  bytes / 512,
			flags: Flags{FUA: cat&blkTcFUA != 0, Sync: cat&blkTcSync != 0, Meta: cat&blkTcMeta != 0,
				ReadAhead: cat&blkTcAhead != 0, PreFlush: cat&blkTcFlush != 0 && bytes > 0},
		}
		switch {
		case cat&blkTcDiscard != 0:
			b.next.dir = Discard
		case bytes == 0 && cat&blkTcFlush != 0:
			b.next.dir = Flush
		case cat&blkTcWrite != 0:
			// A write-zeroes lands here too (its operation is odd, which the kernel's
			// blktrace files as a write, with its length): counted as diskstats counts
			// it, though not told apart (Flags.Zeroes).
			b.next.dir = Write
		case cat&blkTcRead != 0 || bytes > 0:
			b.next.dir = Read // blktrace marks a read by the absence of the write bit
		default:
			b.next.dir = Other
		}
		b.ok = true
		return nil
	}
}

// ReadBlktrace turns blktrace's files (every CPU's file of one or more devices)
// into a trace written to w, as a capture writes it, and returns its summary. The
// records of the files are merged by time, a file at a time in memory only by its
// read buffer. A device is named after its files ("sdb.blktrace.0" → /dev/sdb).
func ReadBlktrace(paths []string, w io.Writer) (*results.IOCapture, error) {
	if len(paths) == 0 {
		return nil, errors.New("no blktrace file given")
	}
	// A first pass names the devices, which the trace's header lists.
	files := map[uint64]string{}
	var devices []string
	for _, p := range paths {
		b, f, err := openBlkFile(p)
		if err != nil {
			return nil, err
		}
		dev := "/dev/" + strings.SplitN(filepath.Base(p), ".blktrace.", 2)[0]
		for ; b.ok && err == nil; err = b.advance() {
			if _, seen := files[b.next.dev]; !seen {
				files[b.next.dev] = dev
				if !slices.Contains(devices, dev) {
					devices = append(devices, dev)
				}
			}
		}
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	if len(devices) == 0 {
		return nil, &BlktraceError{strings.Join(paths, ", "), "no issued request in the blktrace files"}
	}
	var ins []*blkFile
	for _, p := range paths {
		b, f, err := openBlkFile(p)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		ins = append(ins, b)
	}
	iw, err := newIologWriter(w, devices)
	if err != nil {
		return nil, err
	}
	s := &segment{iw: iw, sum: newSummarizer(devices)}
	var last int64
	for {
		first := -1
		for i, b := range ins {
			if b.ok && (first < 0 || b.next.tsUS < ins[first].next.tsUS) {
				first = i
			}
		}
		if first < 0 {
			break
		}
		b := ins[first]
		ev := b.next
		last = max(last, ev.tsUS)
		if err := s.add(ev, ev.tsUS, files[ev.dev]); err != nil {
			return nil, fmt.Errorf("write the trace: %w", err)
		}
		if err := b.advance(); err != nil {
			return nil, err
		}
	}
	if err := iw.close(last); err != nil {
		return nil, fmt.Errorf("write the trace: %w", err)
	}
	return s.sum.finish(last), nil
}
