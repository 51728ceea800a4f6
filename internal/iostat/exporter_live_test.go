package iostat

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// TestRealNodeExporterAgreesWithDiskstats starts a real node_exporter (when one is
// installed) and reads the same device through it and through /proc/diskstats over
// the same window of steady writes: the two sources must agree, which checks the
// metric names, the unit conversions and the use of the exporter's clock.
func TestRealNodeExporterAgreesWithDiskstats(t *testing.T) {
	bin := nodeExporterBinary(t)
	dir := t.TempDir()
	local, err := Open(t.Context(), Options{DataDir: dir, WALDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	if local.Source() != SourceDiskstats {
		t.Skipf("the temp directory has no block device")
	}
	devName := local.Devices()[0].Name

	url := startNodeExporter(t, bin, "--collector.diskstats", "--collector.filesystem", "--collector.time",
		"--collector.diskstats.device-exclude=^$")
	remote, err := Open(t.Context(), Options{NodeExporterURL: url, Devices: []string{devName}})
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()

	stop := make(chan struct{})
	wg := steadyWriter(t, dir, stop)
	defer func() { close(stop); wg.Wait() }()
	time.Sleep(300 * time.Millisecond)
	ra, la := remote.Mark(), local.Mark()
	time.Sleep(3 * time.Second)
	lb, rb := local.Mark(), remote.Mark()
	lw, rw := local.Window(la, lb, 0, 0), remote.Window(ra, rb, 0, 0)
	if len(lw.Devices) == 0 || len(rw.Devices) == 0 {
		t.Fatalf("no device figures: local %+v remote %+v", lw, rw)
	}
	l0, r0 := lw.Devices[0], rw.Devices[0]
	t.Logf("%s: diskstats w/s %.1f wMiB/s %.2f w_await %.3f ms aqu %.2f | node_exporter w/s %.1f wMiB/s %.2f w_await %.3f ms aqu %.2f",
		devName, l0.WriteIOPS, l0.WriteMBps, l0.WriteAwaitMS, l0.QueueDepth, r0.WriteIOPS, r0.WriteMBps, r0.WriteAwaitMS, r0.QueueDepth)
	if !closeTo(r0.WriteIOPS, l0.WriteIOPS, 0.05) || !closeTo(r0.WriteAwaitMS, l0.WriteAwaitMS, 0.10) {
		t.Fatalf("node_exporter and diskstats disagree")
	}
}

func nodeExporterBinary(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"node_exporter", "prometheus-node-exporter"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	// .ci/run installs it: in CI a missing exporter is a broken setup, not a
	// machine without one, and would leave the exporter path untested unnoticed.
	if os.Getenv("CI") == "true" {
		t.Fatal("CI=true but no node_exporter is installed (.ci/run installs Debian's prometheus-node-exporter)")
	}
	t.Skip("no node_exporter installed (Debian: prometheus-node-exporter)")
	return ""
}

// startNodeExporter runs bin on a free loopback port with only the collectors
// given, until the test ends, and returns its metrics URL once it answers.
func startNodeExporter(t *testing.T, bin string, collectors ...string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, append([]string{"--web.listen-address=" + addr, "--collector.disable-defaults"}, collectors...)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	url := fmt.Sprintf("http://%s/metrics", addr)
	for i := 0; ; i++ {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			return url
		}
		if i > 50 {
			t.Fatalf("node_exporter did not answer: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestRealNodeExporterHostAgreesWithProcfs reads this machine twice over the same
// window of a busy loop: as a remote database host through a real node_exporter
// (its cpu, meminfo, netdev, netclass and stat collectors) and as the driver's host
// through procfs. Both read the same kernel counters, so their figures must agree,
// which checks the metric names, the modes and the units of the exporter path.
func TestRealNodeExporterHostAgreesWithProcfs(t *testing.T) {
	bin := nodeExporterBinary(t)
	url := startNodeExporter(t, bin, "--collector.diskstats", "--collector.time", "--collector.cpu", "--collector.meminfo",
		"--collector.netdev", "--collector.netclass", "--collector.stat", "--collector.filesystem")
	s, err := Open(t.Context(), Options{NodeExporterURL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a := s.Mark()
	burnUntil(t, 2, 1.0)
	b := s.Mark()
	remote, local := s.HostWindow(a, b)
	if remote.Source != "node_exporter" || local == nil || local.Source != "procfs" {
		t.Fatalf("sources: %+v / %+v", remote, local)
	}
	t.Logf("node_exporter %s runq %.0f | procfs %s runq %.0f", remoteSplit(remote), remote.RunQueue, remoteSplit(local), local.RunQueue)
	if remote.Cores != local.Cores || remote.MemTotalBytes != local.MemTotalBytes {
		t.Errorf("cores %d vs %d, memory %d vs %d", remote.Cores, local.Cores, remote.MemTotalBytes, local.MemTotalBytes)
	}
	// The two read at instants a few milliseconds apart over a window of seconds.
	for name, v := range map[string][2]float64{"user": {remote.UserPct, local.UserPct}, "system": {remote.SystemPct, local.SystemPct},
		"idle": {remote.IdlePct, local.IdlePct}, "iowait": {remote.IOWaitPct, local.IOWaitPct}} {
		if math.Abs(v[0]-v[1]) > 5 {
			t.Errorf("%s: node_exporter %.1f %%, procfs %.1f %%", name, v[0], v[1])
		}
	}
	if remote.UserPct < 10 {
		t.Errorf("a busy loop on this host shows as %.1f %% user time", remote.UserPct)
	}
}

func remoteSplit(h *results.StepHost) string { return figures.CPUSplit(h.HostFigures) }
