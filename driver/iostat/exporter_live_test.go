package iostat

import (
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"testing"
	"time"
)

// TestRealNodeExporterAgreesWithDiskstats starts a real node_exporter (when one is
// installed) and reads the same device through it and through /proc/diskstats over
// the same window of steady writes: the two sources must agree, which checks the
// metric names, the unit conversions and the use of the exporter's clock.
func TestRealNodeExporterAgreesWithDiskstats(t *testing.T) {
	bin := ""
	for _, name := range []string{"node_exporter", "prometheus-node-exporter"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		t.Skip("no node_exporter installed (Debian: prometheus-node-exporter)")
	}
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

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, "--web.listen-address="+addr, "--collector.disable-defaults",
		"--collector.diskstats", "--collector.filesystem", "--collector.time",
		"--collector.diskstats.device-exclude=^$")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	url := fmt.Sprintf("http://%s/metrics", addr)
	for i := 0; ; i++ {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			break
		}
		if i > 50 {
			t.Fatalf("node_exporter did not answer: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
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
