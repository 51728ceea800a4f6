package iotrace

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// blkRec is one blk_io_trace record to write.
type blkRec struct {
	tsNS        uint64
	sector      uint64
	bytes       uint32
	kind, cat   uint32
	dev         uint32
	pdu         []byte
	magicBroken bool
}

func writeBlk(t *testing.T, path string, order binary.ByteOrder, recs []blkRec) {
	t.Helper()
	var b bytes.Buffer
	for i, r := range recs {
		var rec [blkRecordSize]byte
		magic := uint32(blkMagic | 7)
		if r.magicBroken {
			magic = 0xdeadbeef
		}
		order.PutUint32(rec[0:], magic)
		order.PutUint32(rec[4:], uint32(i))
		order.PutUint64(rec[8:], r.tsNS)
		order.PutUint64(rec[16:], r.sector)
		order.PutUint32(rec[24:], r.bytes)
		order.PutUint32(rec[28:], r.cat<<16|r.kind)
		order.PutUint32(rec[36:], r.dev)
		order.PutUint16(rec[46:], uint16(len(r.pdu)))
		b.Write(rec[:])
		b.Write(r.pdu)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadBlktrace: blktrace's per-CPU files, one little-endian and one big-endian,
// merge by time into the trace a capture writes: issued reads, writes (FUA),
// flushes and discards as iolog requests at their issue times, queue and notify
// records (with payload) skipped, completions only in the summary's latencies.
func TestReadBlktrace(t *testing.T) {
	dir := t.TempDir()
	dev := uint32(8<<20 | 16) // sdb
	const q, issue, done = 1, blkTaIssue, blkTaComplete
	cpu0 := []blkRec{
		{tsNS: 500, kind: 1, cat: blkTcNotify, pdu: []byte("kworker")}, // a process notice
		{tsNS: 1_000, sector: 2048, bytes: 4096, kind: q, cat: blkTcQueueForTest | blkTcRead},
		{tsNS: 2_000, sector: 2048, bytes: 4096, kind: issue, cat: blkTcRead | blkTcSync},
		{tsNS: 502_000, sector: 2048, bytes: 4096, kind: done, cat: blkTcRead | blkTcSync},
		{tsNS: 900_000, bytes: 0, kind: issue, cat: blkTcFlush | blkTcWrite},
		{tsNS: 950_000, bytes: 0, kind: done, cat: blkTcFlush | blkTcWrite},
	}
	cpu1 := []blkRec{
		{tsNS: 100_000, sector: 8, bytes: 16384, kind: issue, cat: blkTcWrite | blkTcFUA},
		{tsNS: 2_100_000, sector: 8, bytes: 16384, kind: done, cat: blkTcWrite | blkTcFUA},
		{tsNS: 3_000_000, sector: 64, bytes: 1 << 20, kind: issue, cat: blkTcDiscard | blkTcWrite},
	}
	for i := range cpu0 {
		cpu0[i].dev = dev
	}
	for i := range cpu1 {
		cpu1[i].dev = dev
	}
	p0, p1 := filepath.Join(dir, "sdb.blktrace.0"), filepath.Join(dir, "sdb.blktrace.1")
	writeBlk(t, p0, binary.LittleEndian, cpu0)
	writeBlk(t, p1, binary.BigEndian, cpu1)
	var out bytes.Buffer
	sum, err := ReadBlktrace([]string{p0, p1}, &out)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		iologHeader, "0 /dev/sdb add", "0 /dev/sdb open",
		"2 /dev/sdb read 1048576 4096",
		"100 /dev/sdb write 4096 16384",
		"900 /dev/sdb sync 0 0",
		"3000 /dev/sdb trim 32768 1048576",
		"3000 /dev/sdb close", "",
	}, "\n")
	if out.String() != want {
		t.Errorf("trace:\n%s\nwant:\n%s", out.String(), want)
	}
	if sum.Reads != 1 || sum.Writes != 1 || sum.Discards != 1 || sum.Flushes != 1 || sum.FUA != 1 || sum.Unfinished != 1 ||
		sum.ReadLatency == nil || sum.ReadLatency.P50MS != 0.5 || sum.WriteLatency == nil || sum.WriteLatency.P50MS != 2 {
		t.Errorf("summary %+v, read %+v, write %+v", sum, sum.ReadLatency, sum.WriteLatency)
	}
	// Not blktrace's: refused by name.
	bad := filepath.Join(dir, "bad.blktrace.0")
	writeBlk(t, bad, binary.LittleEndian, []blkRec{{magicBroken: true}})
	if _, err := ReadBlktrace([]string{bad}, &out); err == nil || !strings.Contains(err.Error(), "not a blktrace file") {
		t.Errorf("a file without the magic: %v", err)
	}
}

// blkTcQueueForTest is BLK_TC_QUEUE, which ReadBlktrace never needs.
const blkTcQueueForTest = 1 << 4
