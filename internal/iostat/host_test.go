package iostat

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/results"
)

// hostFixture writes a /proc and /sys with the given stat lines (cpu totals, then
// per-CPU lines), meminfo and net/dev, and an eth0 of 1000 Mbit/s.
func hostFixture(t *testing.T, root, cpu string, eth0, lo [4]uint64) {
	t.Helper()
	proc, sys := filepath.Join(root, "proc"), filepath.Join(root, "sys", "class", "net")
	for _, d := range []string{filepath.Join(proc, "net"), filepath.Join(sys, "eth0"), filepath.Join(sys, "lo")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	stat := cpu + "\nintr 0\nctxt 100\nbtime 1764460000\nprocesses 10\nprocs_running 3\nprocs_blocked 1\n"
	meminfo := "MemTotal:        8000000 kB\nMemFree:         1000000 kB\nMemAvailable:    5000000 kB\n" +
		"Buffers:          200000 kB\nCached:          3000000 kB\nSReclaimable:     300000 kB\n"
	netdev := "Inter-|   Receive                                                |  Transmit\n" +
		" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n" +
		"    lo: " + netLine(lo) + "\n  eth0: " + netLine(eth0) + "\n"
	for p, c := range map[string]string{
		filepath.Join(proc, "stat"): stat, filepath.Join(proc, "meminfo"): meminfo, filepath.Join(proc, "net", "dev"): netdev,
		filepath.Join(sys, "eth0", "speed"): "1000\n", filepath.Join(sys, "lo", "mtu"): "65536\n",
	} {
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// netLine is a /proc/net/dev line's 16 counters from rx bytes, rx packets, tx
// bytes, tx packets.
func netLine(v [4]uint64) string {
	return fmt.Sprintf("%d %d 0 0 0 0 0 0 %d %d 0 0 0 0 0 0", v[0], v[1], v[2], v[3])
}

// TestProcHostFixture reads two fixture procfs states 10 s apart on a 2-CPU host
// and checks every figure against the fixture's arithmetic: USER_HZ ticks to
// seconds, user with nice, system with irq and softirq, idle taking the rest,
// memory as free(1) splits it, per-interface rates with the link's load, and
// loopback listed but kept out of the totals.
func TestProcHostFixture(t *testing.T) {
	root := t.TempDir()
	// Fields: user nice system idle iowait irq softirq steal guest guest_nice (ticks of 10 ms).
	a := "cpu  1000 100 500 8000 200 50 50 100 0 0\ncpu0 500 50 250 4000 100 25 25 50 0 0\ncpu1 500 50 250 4000 100 25 25 50 0 0"
	// +2000 ticks in all (10 s × 2 CPUs × 100 Hz): user 1000+nice 100, system 300+irq 50+softirq 50,
	// iowait 100, steal 100, idle 300; guest grows too but is already inside user.
	b := "cpu  2000 200 800 8300 300 100 100 200 400 0\ncpu0 1000 100 400 4150 150 50 50 100 200 0\ncpu1 1000 100 400 4150 150 50 50 100 200 0"
	hostFixture(t, root, a, [4]uint64{1_000_000, 1000, 2_000_000, 2000}, [4]uint64{5000, 50, 5000, 50})
	h, err := newProcHost(filepath.Join(root, "proc"), filepath.Join(root, "sys"))
	if err != nil {
		t.Fatal(err)
	}
	ra, err := h.read()
	if err != nil {
		t.Fatal(err)
	}
	// eth0 receives 62.5 MB/s (half its 1 Gbit/s link) and sends 1 MB/s.
	hostFixture(t, root, b, [4]uint64{1_000_000 + 625_000_000, 1000 + 500_000, 2_000_000 + 10_000_000, 2000 + 20_000}, [4]uint64{105_000, 150, 105_000, 150})
	rb, err := h.read()
	if err != nil {
		t.Fatal(err)
	}
	if ra.Cores != 2 || ra.Boot != 1764460000 || ra.ProcsRunning != 3 {
		t.Fatalf("reading = %+v", ra)
	}
	if ra.MemTotal != 8000000*1024 || ra.MemFree != 1000000*1024 || ra.MemCache != 3500000*1024 {
		t.Fatalf("memory = total %d free %d cache %d", ra.MemTotal, ra.MemFree, ra.MemCache)
	}
	f, ifs, err := hostFigures(ra, rb, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]float64{"user": {f.UserPct, 55}, "system": {f.SystemPct, 20}, "iowait": {f.IOWaitPct, 5}, "steal": {f.StealPct, 5}, "idle": {f.IdlePct, 15}}
	for name, v := range want {
		if v[0] != v[1] {
			t.Errorf("%s = %v %%, want %v %%", name, v[0], v[1])
		}
	}
	if f.NetRxBytes != 62_500_000 || f.NetTxBytes != 1_000_000 || f.NetRxPackets != 50_000 || f.NetTxPackets != 2000 {
		t.Errorf("network totals = %+v (loopback must be left out)", f)
	}
	if f.NetLinkPct == nil || *f.NetLinkPct != 50 {
		t.Errorf("link load = %v, want 50 %%", f.NetLinkPct)
	}
	if len(ifs) != 2 || ifs[0].Name != "eth0" || ifs[0].SpeedMbit != 1000 || ifs[1].Name != "lo" || !ifs[1].Loopback || ifs[1].LinkPct != nil || ifs[1].RxBytes != 10_000 {
		t.Errorf("interfaces = %+v", ifs)
	}
	st := hostWindow("procfs", &Snapshot{At: time.Unix(0, 0), Host: ra}, &Snapshot{At: time.Unix(10, 0), Host: rb}, []*HostCounters{ra, rb})
	if st.MemTotalBytes != 8000000*1024 || st.MemUsedBytes != 3500000*1024 || st.RunQueue != 3 || st.Cores != 2 {
		t.Errorf("step host = %+v", st)
	}
}

// TestHostCounterResets: a changed boot time voids the window; idle or iowait that
// went back a little (as tickless kernels report) counts as no time in that state
// rather than voiding it; an interface whose counters went back is left out.
func TestHostCounterResets(t *testing.T) {
	a := &HostCounters{Boot: 100, Cores: 1, CPU: CPUTimes{User: 1e6, Idle: 5e6, IOWait: 2e6},
		Net: map[string]NetCounters{"eth0": {RxBytes: 1000}, "eth1": {RxBytes: 500}}}
	b := &HostCounters{Boot: 100, Cores: 1, CPU: CPUTimes{User: 2e6, Idle: 6e6, IOWait: 1.9e6},
		Net: map[string]NetCounters{"eth0": {RxBytes: 3000}, "eth1": {RxBytes: 100}}}
	f, ifs, err := hostFigures(a, b, 2)
	if err != nil {
		t.Fatal(err)
	}
	if f.UserPct != 50 || f.IdlePct != 50 || f.IOWaitPct != 0 {
		t.Errorf("split = %+v, want user 50 idle 50 iowait 0", f)
	}
	if len(ifs) != 1 || ifs[0].Name != "eth0" || ifs[0].RxBytes != 1000 {
		t.Errorf("interfaces = %+v, want eth0 only", ifs)
	}
	b.Boot = 200
	if _, _, err := hostFigures(a, b, 2); err == nil {
		t.Error("a restarted host gave figures")
	}
}

// TestHostOnThisMachine reads this machine's procfs through the sampler around a
// busy loop: the CPU split sums to 100, and the host's user time covers at least
// most of the user time this process spent (the kernel counts the loop as user
// time; other load on the machine only adds to it).
func TestHostOnThisMachine(t *testing.T) {
	s := openThisHost(t)
	var ru0, ru1 syscall.Rusage
	a := s.Mark()
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru0); err != nil {
		t.Fatal(err)
	}
	burnUntil(t, 2, 1.0)
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru1); err != nil {
		t.Fatal(err)
	}
	b := s.Mark()
	host, drv := s.HostWindow(a, b)
	if drv != nil {
		t.Errorf("the database is on this host, yet a driver host was recorded: %+v", drv)
	}
	if host.Source != "procfs" || host.Cores < 1 || host.MemTotalBytes <= 0 {
		t.Fatalf("host = %+v", host)
	}
	sum := host.UserPct + host.SystemPct + host.IOWaitPct + host.StealPct + host.IdlePct
	if math.Abs(sum-100) > 0.05 {
		t.Errorf("CPU split sums to %v: %+v", sum, host.HostFigures)
	}
	secs := b.At.Sub(a.At).Seconds()
	hostUser := userSeconds(host, secs)
	ownUser := tv(ru1.Utime) - tv(ru0.Utime)
	// Tick sampling makes the host's count coarse (10 ms per tick per CPU): allow 20 %.
	if hostUser < 0.8*ownUser {
		t.Errorf("host user time %.2f s < 80 %% of this process's %.2f s (user %.1f %% over %.2f s on %d cores)",
			hostUser, ownUser, host.HostFigures.UserPct, secs, host.Cores)
	}
}

// openThisHost is a sampler of this machine, its host figures from procfs.
func openThisHost(t *testing.T) *Sampler {
	t.Helper()
	dir := t.TempDir()
	s, err := Open(t.Context(), Options{DataDir: dir, WALDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if s.hostIdx < 0 {
		t.Fatalf("no host source: %s", s.hostNote)
	}
	return s
}

// userSeconds is the CPU time a host's user share stands for over secs.
func userSeconds(h *results.StepHost, secs float64) float64 {
	return h.UserPct / 100 * float64(h.Cores) * secs
}

func tv(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }

// burnUntil keeps n goroutines spinning until this process has spent cpuSeconds
// more user time: a busy machine makes that take longer, not count less.
func burnUntil(t *testing.T, n int, cpuSeconds float64) {
	t.Helper()
	var ru syscall.Rusage
	user := func() float64 {
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			t.Fatal(err)
		}
		return tv(ru.Utime)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			x := 1.0
			for {
				select {
				case <-stop:
					_ = x
					return
				default:
				}
				for range 100_000 {
					x = x*1.0000001 + 1e-9
				}
			}
		})
	}
	start := user()
	for user()-start < cpuSeconds {
		time.Sleep(20 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
}

// TestHostOfRemoteDatabaseWithoutExporter: with no way to see the database's host
// (no data directory here, no exporter), the steps say so and this machine is
// recorded apart as the driver's host, read even though no disk source is.
func TestHostOfRemoteDatabaseWithoutExporter(t *testing.T) {
	s, err := Open(t.Context(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Source() != SourceNone {
		t.Fatalf("source %s", s.Source())
	}
	a := s.Mark()
	burnUntil(t, 1, 0.05)
	b := s.Mark()
	host, drv := s.HostWindow(a, b)
	if host.Source != "none" || !strings.Contains(host.Note, "--io-node-exporter") {
		t.Errorf("database host = %+v", host)
	}
	if drv == nil || drv.Source != "procfs" || drv.Cores < 1 || drv.UserPct+drv.SystemPct+drv.IdlePct+drv.IOWaitPct+drv.StealPct < 99.9 {
		t.Errorf("driver host = %+v", drv)
	}
}
