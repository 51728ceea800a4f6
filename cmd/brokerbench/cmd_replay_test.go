package main

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/testloop"
	"github.com/brokerbench/brokerbench/results"
)

// traceMix is what writeTrace wrote: its reads, and the bytes each direction asks.
type traceMix struct {
	reads                 int
	readBytes, writeBytes int64
}

// writeTrace writes an iolog v3 trace of n requests, one every 500 µs, two reads in
// three, 4k and 16k, spread over the first 8 MB.
func writeTrace(t *testing.T, n int) (path string, mix traceMix) {
	t.Helper()
	var b strings.Builder
	b.WriteString("fio version 3 iolog\n0 /dev/captured add\n0 /dev/captured open\n")
	for i := range n {
		act, size := "write", 4096
		if i%4 == 0 {
			size = 16384
		}
		if i%3 != 0 {
			act = "read"
			mix.reads++
			mix.readBytes += int64(size)
		} else {
			mix.writeBytes += int64(size)
		}
		fmt.Fprintf(&b, "%d /dev/captured %s %d %d\n", 1000+i*500, act, (i*7919%2000)*4096, size)
	}
	fmt.Fprintf(&b, "%d /dev/captured close\n", 1000+n*500)
	dir := t.TempDir()
	path = filepath.Join(dir, "trace.iolog")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, mix
}

// TestReplayRefusals: bad options, an existing file the trace would write, a target
// too small for the trace's offsets, a raw device without the flag naming it, and a
// mounted device are each refused in one line, before fio runs.
func TestReplayRefusals(t *testing.T) {
	t.Parallel()
	trace, _ := writeTrace(t, 30)
	dir := t.TempDir()
	small := filepath.Join(dir, "small.dat")
	if err := os.WriteFile(small, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.json")
	type refusal struct {
		name string
		args []string
		code int
		want string
	}
	cases := []refusal{
		{"no target", []string{"replay", trace, "--out", out}, 2, "--target"},
		{"speed and asap", []string{"replay", trace, "--target", small, "--speed", "2", "--asap", "--out", out}, 2, "exclude each other"},
		{"bad span", []string{"replay", trace, "--target", small, "--span", "12", "--out", out}, 2, "--span"},
		{"bad align", []string{"replay", trace, "--target", small, "--align", "3000", "--out", out}, 2, "power of 2"},
		{"not a trace", []string{"replay", small, "--target", filepath.Join(dir, "new.dat"), "--out", out}, 2, "not a fio iolog version 3 trace"},
		{"an existing file", []string{"replay", trace, "--target", small, "--out", out}, 2, "already exists and the trace writes"},
		{"beyond the target", []string{"replay", trace, "--target", small, "--skip-writes", "--out", out}, 2, "holds 1 MiB but the trace reaches offset"},
	}
	if raw := tryRaw(t); raw != nil {
		cases = append(cases, refusal{"raw device without the flag", []string{"replay", trace, "--target", raw.Dev, "--out", out}, 2, "--allow-device-writes " + raw.Dev})
	}
	if fs := tryMounted(t); fs != nil {
		cases = append(cases, refusal{"mounted device", []string{"replay", trace, "--target", fs.Dev, "--skip-writes", "--out", out}, 1, "is in use"})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runMain(tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("exit %d, stderr %q; want exit %d and one line with %q", code, stderr, tc.code, tc.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("a result file was written")
			}
		})
	}
}

func tryRaw(t *testing.T) (d *testloop.Disk) {
	if os.Geteuid() != 0 {
		return nil
	}
	return testloop.NewRaw(t, 16)
}

func tryMounted(t *testing.T) (d *testloop.Disk) {
	if os.Geteuid() != 0 {
		return nil
	}
	return testloop.New(t, 16)
}

// TestReplayOnFile: a timed replay on a file target replays every request, with the
// trace's reads, writes and sizes, and says so in a disk result that report reads; a replay
// confined to a span stays inside it.
func TestReplayOnFile(t *testing.T) {
	t.Parallel()
	needFioBinary(t)
	trace, mix := writeTrace(t, 300)
	reads := mix.reads
	dir := t.TempDir()
	target := filepath.Join(dir, "replay.dat")
	out := filepath.Join(dir, "r.json")
	code, stdout, stderr := runMain("replay", trace, "--target", target, "--depth", "4", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if results.KindOf(r) != results.KindDisk || r.Disk == nil || r.Disk.Replay == nil || len(r.Disk.Steps) != 1 {
		t.Fatalf("result: %+v", r)
	}
	rp, st := r.Disk.Replay, r.Disk.Steps[0]
	if rp.Captured != 300 || rp.Replayed != 300 || rp.Fidelity() != 100 {
		t.Errorf("replayed %d of %d (captured 300)", rp.Replayed, rp.Captured)
	}
	if st.Read == nil || st.Read.IOs != int64(reads) || st.Write == nil || st.Write.IOs != int64(300-reads) {
		t.Fatalf("fio did %+v reads and %+v writes; the trace has %d and %d", st.Read, st.Write, reads, 300-reads)
	}
	// The sizes: each direction's mean request is the trace's, within 2 % (fio
	// 3.33's io_bytes falls a request or two short of what it replayed: 8 KiB of
	// the reads' 1.4 MB here).
	if want := float64(mix.readBytes) / float64(reads); math.Abs(st.Read.AvgRequestB-want) > 0.02*want {
		t.Errorf("mean read %.0f bytes, the trace's %.0f", st.Read.AvgRequestB, want)
	}
	if want := float64(mix.writeBytes) / float64(300-reads); math.Abs(st.Write.AvgRequestB-want) > 0.02*want {
		t.Errorf("mean write %.0f bytes, the trace's %.0f", st.Write.AvgRequestB, want)
	}
	if rp.CapturedS <= 0 || rp.ReplayedS <= 0 || rp.Mode != "timed" || rp.LagMaxMS < rp.LagP50MS {
		t.Errorf("fidelity figures: %+v", rp)
	}
	if !strings.Contains(stdout, "300 of 300 requests (100.0 %)") {
		t.Errorf("stdout %q", stdout)
	}
	if code, _, stderr := runMain("report", out); code != 0 {
		t.Errorf("report of the replay: exit %d: %s", code, stderr)
	}
	// The same trace at --asap, only its reads, confined to 1 MB at 4 MB.
	out2 := filepath.Join(dir, "r2.json")
	code, _, stderr = runMain("replay", trace, "--target", target, "--asap", "--skip-writes", "--span", "4MiB:1MiB", "--out", out2)
	if code != 0 {
		t.Fatalf("span replay: exit %d: %s", code, stderr)
	}
	r2, err := results.Read(out2)
	if err != nil {
		t.Fatal(err)
	}
	if rp := r2.Disk.Replay; rp.Replayed != int64(reads) || rp.Captured != int64(reads) || rp.Mapping != "span 4MiB:1MiB" || r2.Disk.Steps[0].Write != nil && r2.Disk.Steps[0].Write.IOs != 0 {
		t.Errorf("span replay: %+v, writes %+v", rp, r2.Disk.Steps[0].Write)
	}
}

// TestReplayThrottled: on a device capped at 50 IOPS per direction, a trace issued
// at 2,000 requests a second cannot keep its pace: every request is still replayed,
// but the replay takes seconds for a trace of 0.15 s and falls behind its
// timestamps by about as much, so it achieves a few percent of the captured IOPS,
// less than the same device unthrottled; compare of the two says so. The cap sets a
// floor on the throttled figures, so a busy machine only makes them larger (and the
// unthrottled replay, which a busy machine slows too, still finishes well inside
// the throttled one's four seconds).
func TestReplayThrottled(t *testing.T) {
	t.Parallel()
	needFioBinary(t)
	fio, _ := exec.LookPath("fio")
	raw := testloop.NewRaw(t, 16)
	wrapper := testloop.Throttle(t, raw, 50, fio)
	trace, mix := writeTrace(t, 300)
	reads := mix.reads
	dir := t.TempDir()
	fast, slow := filepath.Join(dir, "fast.json"), filepath.Join(dir, "th.json")
	for _, run := range []struct{ out, fio string }{{fast, fio}, {slow, wrapper}} {
		code, _, stderr := runMain("replay", trace, "--target", raw.Dev, "--allow-device-writes", raw.Dev, "--fio", run.fio, "--depth", "4", "--out", run.out)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	r, err := results.Read(slow)
	if err != nil {
		t.Fatal(err)
	}
	rf, err := results.Read(fast)
	if err != nil {
		t.Fatal(err)
	}
	rp := r.Disk.Replay
	floor := float64(reads) / 50 // the reads alone need this long at 50 IOPS
	if rp.Replayed != 300 || rp.ReplayedS < 0.8*floor || rp.LagMaxMS < 500*floor {
		t.Errorf("throttled replay: %d of 300 requests in %.2fs (at least %.1fs expected), lag max %.0f ms", rp.Replayed, rp.ReplayedS, floor, rp.LagMaxMS)
	}
	if iops := r.Disk.Steps[0].Read.IOPS; iops > 55 {
		t.Errorf("read IOPS %.0f above the 50 IOPS cap", iops)
	}
	// 300 requests in at least floor seconds, against 300 in 0.15 s captured.
	slowPct, fastPct := rp.AchievedPercent(), rf.Disk.Replay.AchievedPercent()
	if slowPct <= 0 || slowPct > 100*0.15/(0.8*floor) || fastPct <= slowPct || rf.Disk.Replay.Replayed != 300 {
		t.Errorf("IOPS achieved of captured: throttled %.0f %%, unthrottled %.0f %% (%d replayed)", slowPct, fastPct, rf.Disk.Replay.Replayed)
	}
	code, stdout, stderr := runMain("compare", fast, slow)
	want := fmt.Sprintf("IOPS achieved %.0f %% vs %.0f %% of captured", slowPct, fastPct)
	if code != 0 || !strings.Contains(stdout, want) || !strings.Contains(stdout, "behind trace p99") {
		t.Errorf("compare of the two replays: exit %d, want %q in\n%s%s", code, want, stdout, stderr)
	}
}

// TestReplayScaledStaysAligned: --scale divides every offset, which lands most of
// them off a 4 KiB boundary (4096 × 7919 / 3); a direct-I/O replay then failed in
// fio with EINVAL. Without --align the scaled replay aligns to 4 KiB itself, every
// request is replayed, and the result file says how offsets were mapped.
func TestReplayScaledStaysAligned(t *testing.T) {
	t.Parallel()
	needFioBinary(t)
	trace, _ := writeTrace(t, 60)
	dir := t.TempDir()
	out := filepath.Join(dir, "scaled.json")
	code, _, stderr := runMain("replay", trace, "--target", filepath.Join(dir, "target.dat"), "--scale", "3", "--asap", "--depth", "2", "--out", out)
	if code != 0 {
		t.Fatalf("scaled replay: exit %d: %s", code, stderr)
	}
	r, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if rp := r.Disk.Replay; rp.Replayed != 60 || rp.Mapping != "scale 3 align 4096" {
		t.Errorf("scaled replay: %d of 60 requests, mapping %q; want all, \"scale 3 align 4096\"", rp.Replayed, rp.Mapping)
	}
}
