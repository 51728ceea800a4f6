package iostat

import (
	"errors"
	"math"
	"testing"

	"github.com/prometheus/procfs/blockdevice"
)

func TestSubWrapsAndResets(t *testing.T) {
	const mod = uint64(1 << 32)
	cases := []struct {
		name       string
		prev, cur  uint64
		modulus    uint64
		want       uint64
		wantResets bool
	}{
		{"forward", 10, 25, mod, 15, false},
		{"unchanged", 7, 7, mod, 0, false},
		{"32-bit wrap", mod - 100, 50, mod, 150, false},
		{"small decrease is a reset", 5000, 4000, mod, 0, true},
		{"decrease without modulus is a reset", 100, 1, 0, 0, true},
		{"previous above the modulus cannot wrap", mod + 10, 3, mod, 0, true},
	}
	for _, c := range cases {
		got, err := sub(c.prev, c.cur, c.modulus)
		if c.wantResets {
			if !errors.Is(err, errReset) {
				t.Errorf("%s: err = %v, want errReset", c.name, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: sub(%d, %d) = %d, %v; want %d", c.name, c.prev, c.cur, got, err, c.want)
		}
	}
}

func TestDeltaKernelTimeWrap(t *testing.T) {
	// The ms fields are printed as 32-bit: 4294967290 ms then 10 ms is 16 ms later.
	prev := kernelCounters(blockdevice.IOStats{ReadIOs: 100, WriteIOs: 5, WriteTicks: 4294967290, WeightedIOTicks: 4294967000})
	cur := kernelCounters(blockdevice.IOStats{ReadIOs: 110, WriteIOs: 9, WriteTicks: 10, WeightedIOTicks: 300})
	d, err := Delta(prev, cur)
	if err != nil {
		t.Fatal(err)
	}
	if d.WriteTime != 16_000 || d.QueueTime != 596_000 || d.ReadOps != 10 || d.WriteOps != 4 {
		t.Fatalf("delta = %v", d)
	}
}

func TestDeltaResetIsAnError(t *testing.T) {
	// A device re-created mid-run: every counter starts again near zero.
	prev := kernelCounters(blockdevice.IOStats{ReadIOs: 90000, WriteIOs: 70000, ReadSectors: 1e6, WriteTicks: 5000})
	cur := kernelCounters(blockdevice.IOStats{ReadIOs: 12, WriteIOs: 3, ReadSectors: 96, WriteTicks: 4})
	if _, err := Delta(prev, cur); !errors.Is(err, errReset) {
		t.Fatalf("err = %v, want errReset", err)
	}
}

// TestFiguresIostatPair is the golden pair of docs/storage.md §5.3: two readings of vda 5.01 s
// apart must give iostat's r_await 0.73 ms, w_await 0.63 ms, aqu-sz 0.38, %util 4.1.
func TestFiguresIostatPair(t *testing.T) {
	a := kernelCounters(blockdevice.IOStats{ReadIOs: 534623, ReadMerges: 9828, ReadSectors: 7111874, ReadTicks: 104965,
		WriteIOs: 606209, WriteMerges: 40493, WriteSectors: 9644096, WriteTicks: 134327, IOsTotalTicks: 21108, WeightedIOTicks: 241257})
	b := kernelCounters(blockdevice.IOStats{ReadIOs: 537151, ReadMerges: 10370, ReadSectors: 7221882, ReadTicks: 106811,
		WriteIOs: 606308, WriteMerges: 40530, WriteSectors: 9663648, WriteTicks: 134389, IOsTotalTicks: 21312, WeightedIOTicks: 243170})
	d, err := Delta(a, b)
	if err != nil {
		t.Fatal(err)
	}
	f := Figures(d, 5.01)
	check := func(name string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.4f, want %.4f", name, got, want)
		}
	}
	check("r/s", f.ReadIOPS, 504.6, 0.1)
	check("w/s", f.WriteIOPS, 19.76, 0.01)
	check("rMiB/s", f.ReadMBps, 110008.0/2/1024/5.01, 1e-6)
	check("wMiB/s", f.WriteMBps, 19552.0/2/1024/5.01, 1e-6)
	check("r_await", f.ReadAwaitMS, 0.73, 0.005)
	check("w_await", f.WriteAwaitMS, 0.63, 0.005)
	check("aqu-sz", f.QueueDepth, 0.38, 0.005)
	check("util", f.UtilPercent, 4.1, 0.05)
}

func TestFiguresWithoutTimes(t *testing.T) {
	// A source without latency sums (pg_stat's data writes) leaves await and queue at 0
	// instead of inventing them.
	f := Figures(Counters{WriteOps: 100, WriteBytes: 100 * 8192}, 2)
	if f.WriteIOPS != 50 || f.WriteAwaitMS != 0 || f.QueueDepth != 0 {
		t.Fatalf("figures = %+v", f)
	}
	// With both latency sums but no weighted time: Little's law.
	f = Figures(Counters{Has: HasReadTime | HasWriteTime, ReadOps: 10, ReadTime: 20_000, WriteOps: 10, WriteTime: 30_000}, 1)
	if math.Abs(f.QueueDepth-0.05) > 1e-9 || f.ReadAwaitMS != 2 || f.WriteAwaitMS != 3 {
		t.Fatalf("figures = %+v", f)
	}
	if f := Figures(Counters{ReadOps: 5}, 0); f.ReadIOPS != 0 {
		t.Fatalf("zero interval gave %+v", f)
	}
}

func TestSumIsRatioOfSums(t *testing.T) {
	// Two devices: 1000 reads at 1 ms and 10 reads at 100 ms. The ratio of sums is
	// 1.98 ms; averaging the two averages would say 50.5 ms.
	a := Counters{Has: HasReadTime, ReadOps: 1000, ReadTime: 1000 * 1000}
	b := Counters{Has: HasReadTime | HasWriteTime, ReadOps: 10, ReadTime: 10 * 100_000}
	s := Sum(a, b)
	if s.Has != HasReadTime {
		t.Fatalf("Has = %b, want only the fields both have", s.Has)
	}
	if got := Figures(s, 1).ReadAwaitMS; math.Abs(got-2000.0/1010) > 1e-9 {
		t.Fatalf("await = %v", got)
	}
}
