package main

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testloop"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/results"
)

// loopCluster returns the folder of a stopped managed cluster holding a loaded
// brokerbench database, on ext4 on a loop device of its own (a sparse 2 GiB), with
// nothing of it in the page cache: the run's first reads reach the device.
func loopCluster(t *testing.T) (pgdata string, d *testloop.Disk) {
	t.Helper()
	d = testloop.New(t, 2048)
	c := testpg.PrivateClusterIn(t, d.Mount)
	testdb.LoadedTaken(t, c.URL("postgres"), "brokerbench")
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	d.Remount(t)
	return c.DataDir, d
}

// TestRunCaptureIO: a short run of the managed PostgreSQL on ext4 on a loop device
// with --capture-io. The step's trace agrees with /proc/diskstats, which the storage
// sampler read at the trace's edges (the trace starts and ends at those reads):
// requests per second, read share and request size within 2 %, every request in
// the size histogram. Replayed as fast as
// possible on another device, every request of it is replayed, with the same reads,
// writes and sizes. A second run into the same folder is refused.
func TestRunCaptureIO(t *testing.T) {
	if testing.Short() {
		t.Skip("an 8-second run on a loop device; skipped with -short")
	}
	t.Parallel()
	pgdata, d := loopCluster(t)
	dir := t.TempDir()
	capDir, out := filepath.Join(dir, "cap"), filepath.Join(dir, "run.json")
	code, stdout, stderr := runMain("run", "--pgdata", pgdata, "--users", "4", "--step", "8s", "--warmup", "2s",
		"--no-check", "--capture-io", capDir, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	r, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Steps) != 1 || r.Steps[0].IOCapture == nil || r.Steps[0].IO == nil {
		t.Fatalf("steps %+v\n%s", r.Steps, stderr)
	}
	st, sum := r.Steps[0], r.Steps[0].IOCapture
	trace := filepath.Join(capDir, "step-1", captureTraceFile)
	if sum.Trace != trace || len(sum.Devices) != 1 || sum.Devices[0] != d.Dev {
		t.Errorf("capture of %v into %s; want %s into %s", sum.Devices, sum.Trace, d.Dev, trace)
	}
	if _, err := os.Stat(filepath.Join(capDir, "step-1", captureSummaryFile)); err != nil {
		t.Errorf("no summary beside the trace: %v", err)
	}
	var dev *results.DeviceIO
	for i := range st.IO.Devices {
		if st.IO.Devices[i].Name == d.Name {
			dev = &st.IO.Devices[i]
		}
	}
	if st.IO.Source != "diskstats" || dev == nil {
		t.Fatalf("the sampler did not measure %s: %+v", d.Name, st.IO)
	}
	t.Logf("trace: %d reads, %d writes, %d flushes in %.2fs, sizes %v; diskstats: %.1f r/s %.1f w/s, %.2f / %.2f MiB/s",
		sum.Reads, sum.Writes, sum.Flushes, sum.DurationS, sum.Sizes, dev.ReadIOPS, dev.WriteIOPS, dev.ReadMBps, dev.WriteMBps)
	// Enough requests that one in flight at each edge is well under 2 %, and reads
	// as well as writes (the remount left the cache cold).
	if sum.Requests < 500 || sum.Reads == 0 || sum.Writes == 0 {
		t.Fatalf("%d requests (%d reads) in the window: too few to compare", sum.Requests, sum.Reads)
	}
	// The rates share the window's edges only as closely as the sampler's reads of
	// them: on a busy machine a read lands up to a few tenths of a second after the
	// time it is stamped with (a rate 4 % apart over a 7 s window under a load of 24),
	// so the rates may differ by that share of the window too; a size, made of the
	// same requests on both sides, may not.
	const edgeSlackS = 0.3
	rateBound := 0.02 + edgeSlackS/sum.DurationS
	within := func(what string, got, want, bound float64) {
		t.Helper()
		t.Logf("%s: trace %.2f, diskstats %.2f (%+.2f %%)", what, got, want, 100*(got-want)/want)
		if math.Abs(got-want) > bound*want {
			t.Errorf("%s: trace %.2f, diskstats %.2f (more than %.1f %% apart)", what, got, want, 100*bound)
		}
	}
	// diskstats counts a cache flush (an empty write with the preflush flag, each
	// fsync's) as a write; the trace counts it apart, in flushes.
	const mib = 1 << 20
	all := float64(sum.Requests + sum.Flushes)
	within("requests per second", all/sum.DurationS, dev.ReadIOPS+dev.WriteIOPS, rateBound)
	within("MiB per second", float64(sum.ReadBytes+sum.WriteBytes)/mib/sum.DurationS, dev.ReadMBps+dev.WriteMBps, rateBound)
	within("mean request size", float64(sum.ReadBytes+sum.WriteBytes)/all, (dev.ReadMBps+dev.WriteMBps)*mib/(dev.ReadIOPS+dev.WriteIOPS), 0.02)
	if share, got := 100*dev.ReadIOPS/(dev.ReadIOPS+dev.WriteIOPS), 100*float64(sum.Reads)/all; math.Abs(got-share) > 2 {
		t.Errorf("read share: trace %.1f %%, diskstats %.1f %%", got, share)
	}
	var inHist int64
	for _, n := range sum.Sizes {
		inHist += n
	}
	if inHist != sum.Requests || sum.LostEvents != 0 {
		t.Errorf("size histogram %v holds %d of %d requests; %d events lost", sum.Sizes, inHist, sum.Requests, sum.LostEvents)
	}

	// The step's folder replays as a capture's does: every request, the same mix.
	if _, err := exec.LookPath("fio"); err == nil {
		target := testloop.NewRaw(t, int(sum.HighestEnd>>20)+1)
		rj := filepath.Join(dir, "replay.json")
		// One request at a time: fio 3.33 counts a request's bytes when it completes,
		// so what is in flight at the end is missing from io_bytes; at the trace's own
		// depth on a busy machine that was half the writes (the 2 MiB ones at the step's
		// end), at depth 1 it is one request at most.
		code, stdout, stderr := runMain("replay", filepath.Join(capDir, "step-1"), "--target", target.Dev,
			"--allow-device-writes", target.Dev, "--asap", "--depth", "1", "--out", rj)
		if code != 0 {
			t.Fatalf("replay of the step: exit %d\n%s\n%s", code, stdout, stderr)
		}
		rr, err := results.Read(rj)
		if err != nil {
			t.Fatal(err)
		}
		rp, rs := rr.Disk.Replay, rr.Disk.Steps[0]
		if rp.Captured != sum.Requests+sum.Flushes || rp.Replayed != rp.Captured {
			t.Errorf("replayed %d of %d requests; the step's trace has %d and %d flushes", rp.Replayed, rp.Captured, sum.Requests, sum.Flushes)
		}
		if rs.Read == nil || rs.Read.IOs != sum.Reads || rs.Write == nil || rs.Write.IOs != sum.Writes {
			t.Errorf("replay did %+v reads and %+v writes; the trace has %d and %d", rs.Read, rs.Write, sum.Reads, sum.Writes)
		} else {
			// The bytes each direction moved: within 2 % or the trace's largest
			// request (the one in flight at the end), whichever is more.
			var largest int64
			for b := range sum.Sizes {
				largest = max(largest, sizeOfBucket(b))
			}
			for _, d := range []struct {
				name  string
				fio   float64
				trace int64
			}{{"read", rs.Read.AvgRequestB * float64(rs.Read.IOs), sum.ReadBytes}, {"write", rs.Write.AvgRequestB * float64(rs.Write.IOs), sum.WriteBytes}} {
				if diff := math.Abs(d.fio - float64(d.trace)); diff > max(0.02*float64(d.trace), float64(largest)) {
					t.Errorf("%s bytes: replay %.0f, trace %d", d.name, d.fio, d.trace)
				}
			}
		}
	}

	code, _, stderr = runMain("run", "--pgdata", pgdata, "--users", "1", "--step", "2s", "--warmup", "1s",
		"--no-check", "--capture-io", capDir, "--out", filepath.Join(dir, "again.json"))
	if code != exitUsage || !strings.Contains(stderr, "already holds a run's traces") {
		t.Errorf("a second run into %s: exit %d, %q", capDir, code, stderr)
	}
}
