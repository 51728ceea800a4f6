package diskprofile

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/internal/fio"
	"github.com/brokerbench/brokerbench/internal/testkit/testloop"
	"github.com/brokerbench/brokerbench/results"
)

// These tests run the real fio (Debian's package; .ci/run installs it) on a small
// test file on an ext4 loop device of their own, so /proc/diskstats of that device
// counts only their I/O.

func needFio(t *testing.T) *fio.Binary {
	t.Helper()
	b, err := fio.Check(context.Background(), "fio")
	if err != nil {
		t.Skipf("fio is not installed: %v", err)
	}
	return b
}

// testSetup lays out and writes a 64 MB test file on a fresh loop device.
func testSetup(t *testing.T, b *fio.Binary) (Setup, *testloop.Disk) {
	t.Helper()
	d := testloop.New(t, 160)
	s := Setup{Path: filepath.Join(d.Mount, "test.dat"), SizeBytes: 64 << 20, Direct: true,
		Ramp: 250 * time.Millisecond, Measure: 1500 * time.Millisecond, Seed: 7}
	if _, err := b.Run(context.Background(), PreconditionJob(s)); err != nil {
		t.Fatal(err)
	}
	return s, d
}

// diskstats returns the device's completed reads, sectors read, writes, sectors
// written (/proc/diskstats fields 4, 6, 8, 10).
func diskstats(t *testing.T, name string) [4]int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/diskstats")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) > 10 && f[2] == name {
			var out [4]int64
			for i, idx := range []int{3, 5, 7, 9} {
				out[i], _ = strconv.ParseInt(f[idx], 10, 64)
			}
			return out
		}
	}
	t.Fatalf("%s not in /proc/diskstats", name)
	return [4]int64{}
}

// meanSplit is the I/O-weighted mean request size of a bssplit.
func meanSplit(t *testing.T, split string) float64 {
	var sum, pct float64
	for _, part := range strings.Split(split, ":") {
		size, share, _ := strings.Cut(part, "/")
		mult := 1.0
		switch {
		case strings.HasSuffix(size, "k"):
			mult, size = 1024, strings.TrimSuffix(size, "k")
		}
		v, err1 := strconv.ParseFloat(size, 64)
		p, err2 := strconv.ParseFloat(share, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bssplit %q", split)
		}
		sum += v * mult * p
		pct += p
	}
	return sum / pct
}

// TestProfilesDoWhatTheySay runs every builtin profile once and checks fio's
// account and the device's against the definition: the read share within 1 point,
// the request size, and the depth reached.
func TestProfilesDoWhatTheySay(t *testing.T) {
	b := needFio(t)
	s, d := testSetup(t, b)
	const depth = 4
	for _, p := range Builtin {
		t.Run(p.Name, func(t *testing.T) {
			before := diskstats(t, d.Name)
			out, err := b.Run(context.Background(), StepJob(p, depth, s))
			if err != nil {
				t.Fatal(err)
			}
			after := diskstats(t, d.Name)
			var st results.DiskStep
			Figures(&st, out)
			if st.IOPS == 0 {
				t.Fatal("no I/O measured")
			}
			// fio draws each I/O's direction, so the share is binomial: within 1
			// point, or three standard errors when the step completed too few I/Os
			// for 1 point to be a fair bound (a very busy machine).
			ios := 0.0
			for _, dir := range []*results.DiskDir{st.Read, st.Write} {
				if dir != nil {
					ios += float64(dir.IOs)
				}
			}
			want := p.ReadPercent()
			bound := math.Max(1, 3*100*math.Sqrt(want/100*(1-want/100)/ios))
			if got := st.ReadPercent; math.Abs(got-want) > bound {
				t.Errorf("read share %.2f %% over %.0f I/Os, the profile asks for %.0f %% (bound %.2f points)", got, ios, want, bound)
			}
			want = 0
			if p.BSSplit != "" {
				want = meanSplit(t, p.BSSplit)
			} else {
				n, _ := strconv.ParseFloat(strings.TrimSuffix(p.BlockSize, "k"), 64)
				want = n * 1024
			}
			for _, dir := range []*results.DiskDir{st.Read, st.Write} {
				if dir == nil {
					continue
				}
				// A fixed size is exact (fio's byte and I/O counts can part by the
				// last requests in flight); a mix is drawn, so its mean varies.
				tol := 0.005
				if p.BSSplit != "" {
					tol = 0.08
				}
				if math.Abs(dir.AvgRequestB-want)/want > tol {
					t.Errorf("average request %.0f bytes, the profile's is %.0f", dir.AvgRequestB, want)
				}
			}
			// The device's own count: random fixed-size requests reach it unmerged.
			if p.RW == "randrw" && p.BlockSize == "8k" && p.RandomPercent == 0 {
				ios := (after[0] - before[0]) + (after[2] - before[2])
				sectors := (after[1] - before[1]) + (after[3] - before[3])
				if ios == 0 {
					t.Fatal("the device counted no I/O")
				}
				if got := float64(sectors*512) / float64(ios); math.Abs(got-want)/want > 0.05 {
					t.Errorf("the device's average request was %.0f bytes, the profile's %.0f", got, want)
				}
				if reads := float64(after[0]-before[0]) / float64(ios) * 100; math.Abs(reads-p.ReadPercent()) > 3 {
					t.Errorf("the device's read share %.1f %%, the profile's %.0f %% (ramp included)", reads, p.ReadPercent())
				}
			}
			// The depth reached: fio's distribution puts most of the time in the
			// bucket of the depth held (a fixed-depth stream holds its own).
			held := StepDepth(p, depth)
			bucket := strconv.Itoa(held)
			if st.DepthLevels[bucket] < 50 {
				t.Errorf("depth %d held %.1f %% of the time (%v)", held, st.DepthLevels[bucket], st.DepthLevels)
			}
			if p.Name == "wal" {
				if st.Sync == nil || st.Write == nil || st.Sync.Count < st.Write.IOs-1 || st.Sync.Count > st.Write.IOs+1 {
					t.Errorf("WAL: %+v syncs for %+v writes; want one fdatasync per write", st.Sync, st.Write)
				}
			}
		})
	}
}

// TestDepthLevelsReached: the step's outstanding I/Os are what fio held.
func TestDepthLevelsReached(t *testing.T) {
	b := needFio(t)
	s, _ := testSetup(t, b)
	s.Measure = time.Second
	p, _ := Lookup(Builtin, []string{"database"})
	for _, depth := range []int{1, 16} {
		out, err := b.Run(context.Background(), StepJob(p[0], depth, s))
		if err != nil {
			t.Fatal(err)
		}
		var st results.DiskStep
		Figures(&st, out)
		if got := st.DepthLevels[strconv.Itoa(depth)]; got < 80 {
			t.Errorf("depth %d: held %.1f %% of the time (%v)", depth, got, st.DepthLevels)
		}
	}
}

// TestThrottledLoopIsSlower: a loop device capped at 200 reads and 200 writes per
// second by a blkio group measures about that, and far below the same device
// uncapped.
func TestThrottledLoopIsSlower(t *testing.T) {
	b := needFio(t)
	s, d := testSetup(t, b)
	p, _ := Lookup(Builtin, []string{"database"})
	run := func(bin *fio.Binary) float64 {
		out, err := bin.Run(context.Background(), StepJob(p[0], 8, s))
		if err != nil {
			t.Fatal(err)
		}
		var st results.DiskStep
		Figures(&st, out)
		return st.IOPS
	}
	free := run(b)
	wrapper := testloop.Throttle(t, d, 200, b.Path)
	slow, err := fio.Check(context.Background(), wrapper)
	if err != nil {
		t.Fatal(err)
	}
	capped := run(slow)
	t.Logf("unthrottled %.0f IOPS, throttled at 200 r + 200 w: %.0f IOPS", free, capped)
	// 67 % reads: the read cap binds first, at 200 / 0.67 ≈ 300 I/Os per second.
	want := 200 / 0.67
	if capped < want*0.8 || capped > want*1.15 {
		t.Errorf("throttled: %.0f IOPS, want about %.0f", capped, want)
	}
	if free < 2*capped {
		t.Errorf("unthrottled %.0f IOPS is not well above throttled %.0f", free, capped)
	}
}
