package iotrace

import (
	"bufio"
	"bytes"
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/brokerbench/brokerbench/internal/testkit/testloop"
	"github.com/brokerbench/brokerbench/results"
)

// diskStat is a device's completed reads and writes and their sectors
// (/sys/block/NAME/stat, Documentation/block/stat.rst).
type diskStat struct{ reads, readSectors, writes, writeSectors int64 }

func readStat(t *testing.T, name string) diskStat {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("/sys/block", name, "stat"))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(data))
	n := func(i int) int64 { v, _ := strconv.ParseInt(f[i], 10, 64); return v }
	return diskStat{reads: n(0), readSectors: n(2), writes: n(4), writeSectors: n(6)}
}

func needFio(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio is not installed")
	}
	return p
}

// captureWhile captures d while fn runs, and returns the summary and the trace's path.
func captureWhile(t *testing.T, d *testloop.Disk, fn func()) (*results.IOCapture, string) {
	t.Helper()
	trace := filepath.Join(t.TempDir(), "trace.iolog")
	f, err := os.Create(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{})
	type res struct {
		s   *results.IOCapture
		err error
	}
	done := make(chan res, 1)
	go func() {
		s, err := Capture(ctx, []Device{{Path: d.Dev, Major: d.Major, Minor: d.Minor}}, f, func() { close(ready) })
		done <- res{s, err}
	}()
	select {
	case <-ready:
	case r := <-done:
		cancel()
		t.Fatalf("capture did not start: %v", r.err)
	}
	fn()
	cancel()
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	return r.s, trace
}

// runFio runs fio to a fixed amount of I/O (not a time) on the device.
func runFio(t *testing.T, fio string, args ...string) {
	t.Helper()
	if out, err := exec.Command(fio, args...).CombinedOutput(); err != nil {
		t.Fatalf("fio: %v: %s", err, out)
	}
}

// The trace holds what the device counted over the same window: requests, read
// share and bytes (hence sizes) within 2 %, every issued request in the iolog, and
// no trace instance left behind.
func TestCaptureAgreesWithDiskstats(t *testing.T) {
	fio := needFio(t)
	d := testloop.NewRaw(t, 64)
	var before, after diskStat
	sum, trace := captureWhile(t, d, func() {
		before = readStat(t, d.Name)
		runFio(t, fio, "--name=mix", "--filename="+d.Dev, "--direct=1", "--ioengine=libaio", "--iodepth=4",
			"--rw=randrw", "--rwmixread=70", "--bssplit=4k/50:16k/30:64k/20", "--size=48m", "--io_size=12m", "--randseed=7")
		after = readStat(t, d.Name)
	})
	reads, writes := after.reads-before.reads, after.writes-before.writes
	if reads+writes < 300 {
		t.Fatalf("the device counted only %d requests: fio did not run on it", reads+writes)
	}
	within := func(what string, got, want int64) {
		t.Helper()
		if diff := float64(got - want); diff > 0.02*float64(want) || -diff > 0.02*float64(want) {
			t.Errorf("%s: trace %d, diskstats %d (more than 2 %% apart)", what, got, want)
		}
	}
	within("reads", sum.Reads, reads)
	within("writes", sum.Writes, writes)
	within("read bytes", sum.ReadBytes, 512*(after.readSectors-before.readSectors))
	within("write bytes", sum.WriteBytes, 512*(after.writeSectors-before.writeSectors))
	wantShare := 100 * float64(reads) / float64(reads+writes)
	if sum.ReadPercent < wantShare-2 || sum.ReadPercent > wantShare+2 {
		t.Errorf("read share: trace %.1f %%, diskstats %.1f %%", sum.ReadPercent, wantShare)
	}
	// fio's sizes are all there; the block layer may merge neighbours, but
	// nothing reaches past fio's largest size times its depth.
	var inHist int64
	for b, n := range sum.Sizes {
		inHist += n
		if b == "512k" || strings.HasSuffix(b, "m") {
			t.Errorf("%d requests of %s: fio issued at most 64k, 4 at a time", n, b)
		}
	}
	for _, b := range []string{"4k", "16k", "64k"} {
		if sum.Sizes[b] == 0 {
			t.Errorf("no %s requests in the size histogram %v", b, sum.Sizes)
		}
	}
	if inHist != sum.Requests {
		t.Errorf("size histogram %v holds %d of %d requests", sum.Sizes, inHist, sum.Requests)
	}
	if sum.HighestEnd > 48<<20 || sum.ReadLatency == nil || sum.ReadLatency.P99MS <= 0 || sum.OutstandingMax < 1 {
		t.Errorf("summary: highest end %d, read latency %+v, outstanding max %d", sum.HighestEnd, sum.ReadLatency, sum.OutstandingMax)
	}
	if sum.LostEvents != 0 {
		t.Errorf("%d events lost at a few hundred requests", sum.LostEvents)
	}
	// The trace: fio's header, then one line per request.
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan()
	if sc.Text() != iologHeader {
		t.Fatalf("trace starts %q", sc.Text())
	}
	var n int64
	for sc.Scan() {
		if len(strings.Fields(sc.Text())) == 5 {
			n++
		}
	}
	if n != sum.Requests+sum.Flushes {
		t.Errorf("trace has %d requests, summary %d", n, sum.Requests+sum.Flushes)
	}
	root, _ := findTracefs()
	if root != "" {
		if _, err := os.Stat(filepath.Join(root, "instances", instancePrefix+strconv.Itoa(os.Getpid()))); err == nil {
			t.Error("the trace instance is still there after the capture")
		}
	}
}

// A trace instance whose capture was killed is removed at the next start; a live
// process's instance is left alone.
func TestRemoveStale(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("tracefs needs root")
	}
	root, unmount, err := tracefsRoot()
	if err != nil {
		t.Skip(err)
	}
	if unmount != "" {
		t.Cleanup(func() { exec.Command("umount", "-l", unmount).Run(); os.Remove(unmount) })
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(root, "instances", instancePrefix+strconv.Itoa(dead.Process.Pid))
	live := filepath.Join(root, "instances", instancePrefix+"1") // init never exits
	for _, dir := range []string{stale, live} {
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Skipf("cannot create a trace instance: %v", err)
		}
	}
	t.Cleanup(func() { os.Remove(stale); os.Remove(live) })
	os.WriteFile(filepath.Join(stale, "events/block/block_rq_issue/enable"), []byte("1"), 0)
	removed, err := RemoveStale(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil || len(removed) != 1 {
		t.Errorf("stale instance still there (removed %v)", removed)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("a live process's instance was removed: %v", err)
	}
}

// TestRecorderSegments: one trace instance records two segments, with I/O between
// them that is in neither (recording is off): each segment's trace holds the
// requests the device counted over its own window, within 2 %, with timestamps from
// its own start, and no trace instance is left after Close.
func TestRecorderSegments(t *testing.T) {
	fio := needFio(t)
	d := testloop.NewRaw(t, 64)
	rec, err := Open([]Device{{Path: d.Dev, Major: d.Major, Minor: d.Minor}})
	if err != nil {
		t.Fatal(err)
	}
	job := func(ioSize string) {
		runFio(t, fio, "--name=seg", "--filename="+d.Dev, "--direct=1", "--ioengine=libaio", "--iodepth=2",
			"--rw=randrw", "--rwmixread=50", "--bs=4k", "--size=48m", "--io_size="+ioSize, "--randseed=3")
	}
	segment := func(ioSize string) (*results.IOCapture, string, int64) {
		var trace bytes.Buffer
		before := readStat(t, d.Name)
		if err := rec.Start(&trace); err != nil {
			t.Fatal(err)
		}
		job(ioSize)
		sum, err := rec.Stop()
		if err != nil {
			t.Fatal(err)
		}
		after := readStat(t, d.Name)
		return sum, trace.String(), after.reads + after.writes - before.reads - before.writes
	}
	s1, trace1, n1 := segment("2m")
	job("8m") // recorded by no segment
	s2, trace2, n2 := segment("4m")
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	for i, s := range []struct {
		sum   *results.IOCapture
		trace string
		n     int64
	}{{s1, trace1, n1}, {s2, trace2, n2}} {
		if diff := float64(s.sum.Requests - s.n); s.n < 300 || diff > 0.02*float64(s.n) || -diff > 0.02*float64(s.n) {
			t.Errorf("segment %d: trace %d requests, the device counted %d", i+1, s.sum.Requests, s.n)
		}
		lines := strings.Split(strings.TrimSpace(s.trace), "\n")
		var requests int64
		for _, l := range lines {
			if f := strings.Fields(l); len(f) == 5 {
				requests++
				if ts, _ := strconv.ParseFloat(f[0], 64); ts/1e6 > s.sum.DurationS {
					t.Errorf("segment %d: request at %s µs, after its %.2fs", i+1, f[0], s.sum.DurationS)
					break
				}
			}
		}
		if lines[0] != iologHeader || requests != s.sum.Requests+s.sum.Flushes || !strings.HasSuffix(lines[len(lines)-1], " close") {
			t.Errorf("segment %d: trace of %d requests for %d in the summary, from %q to %q", i+1, requests, s.sum.Requests, lines[0], lines[len(lines)-1])
		}
	}
	if root, _ := findTracefs(); root != "" {
		if _, err := os.Stat(filepath.Join(root, "instances", instancePrefix+strconv.Itoa(os.Getpid()))); err == nil {
			t.Error("the trace instance is still there after Close")
		}
	}
}

// TestRecorderWindow: a segment armed before a window and cut to it afterwards
// (From, Hold and StopAt), as run --capture-io cuts each step's trace to the storage
// sampler's reads, holds the requests of the window only: none of the I/O before
// From or after the end given to StopAt, though recording was on for both.
func TestRecorderWindow(t *testing.T) {
	fio := needFio(t)
	d := testloop.NewRaw(t, 64)
	rec, err := Open([]Device{{Path: d.Dev, Major: d.Major, Minor: d.Minor}})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	job := func(ioSize string) {
		runFio(t, fio, "--name=win", "--filename="+d.Dev, "--direct=1", "--ioengine=libaio", "--iodepth=2",
			"--rw=randrw", "--rwmixread=50", "--bs=4k", "--size=48m", "--io_size="+ioSize, "--randseed=5")
	}
	var trace bytes.Buffer
	if err := rec.Arm(&trace); err != nil {
		t.Fatal(err)
	}
	job("2m") // before the window
	from, before := time.Now(), readStat(t, d.Name)
	rec.From(from)
	job("4m") // the window
	rec.Hold()
	until, after := time.Now(), readStat(t, d.Name)
	job("8m") // after it
	sum, err := rec.StopAt(until)
	if err != nil {
		t.Fatal(err)
	}
	n := after.reads + after.writes - before.reads - before.writes
	if diff := float64(sum.Requests - n); n < 900 || diff > 0.02*float64(n) || -diff > 0.02*float64(n) {
		t.Errorf("the trace holds %d requests; the device counted %d in the window", sum.Requests, n)
	}
	if want := until.Sub(from).Seconds(); math.Abs(sum.DurationS-want) > 0.001 {
		t.Errorf("the trace lasts %.4fs; its window %.4fs", sum.DurationS, want)
	}
	if !sum.StartedAt.Equal(from) {
		t.Errorf("the trace starts at %v; its window at %v", sum.StartedAt, from)
	}
}

// TestCaptureCountsWriteZeroes: a write of zeroes the device makes itself
// (BLKZEROOUT, the kernel's write-zeroes, as ext4 issues when a file grows) is a
// write of its length in the trace, as in the device's own counters: one request of
// 8 MiB, not a flush without data.
func TestCaptureCountsWriteZeroes(t *testing.T) {
	d := testloop.NewRaw(t, 64)
	var before, after diskStat
	sum, trace := captureWhile(t, d, func() {
		before = readStat(t, d.Name)
		f, err := os.OpenFile(d.Dev, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		span := [2]uint64{0, 8 << 20} // offset, length
		if _, _, errno := unix.Syscall(unix.SYS_IOCTL, f.Fd(), unix.BLKZEROOUT, uintptr(unsafe.Pointer(&span))); errno != 0 {
			t.Fatalf("BLKZEROOUT: %v", errno)
		}
		after = readStat(t, d.Name)
	})
	writes, bytes := after.writes-before.writes, (after.writeSectors-before.writeSectors)*512
	if writes == 0 || bytes != 8<<20 {
		t.Fatalf("the device counted %d writes of %d bytes; want 8 MiB written", writes, bytes)
	}
	if sum.Writes != writes || sum.WriteBytes != bytes || sum.WriteZeroes != writes || sum.Flushes != 0 {
		t.Errorf("trace: %d writes of %d bytes, %d of zeroes, %d flushes; the device counted %d writes of %d bytes",
			sum.Writes, sum.WriteBytes, sum.WriteZeroes, sum.Flushes, writes, bytes)
	}
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), " write 0 ") {
		t.Errorf("the trace holds no write at offset 0:\n%s", data)
	}
}
