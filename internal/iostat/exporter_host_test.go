package iostat

import (
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// exporterHostPair is the disks' fixture pair with the host's metrics added: the
// second scrape, 5.01 s later by the host's clock, has the CPUs of a 2-CPU host
// busy (user 40 %, system 20 %, iowait 30 %, idle 10 %) and eth0 receiving
// 100 Mbit/s of its 10 Gbit/s (node_exporter's speed is in bytes per second).
func exporterHostPair(t *testing.T) (first, second string) {
	t.Helper()
	b, err := os.ReadFile("testdata/node_exporter_host.txt")
	if err != nil {
		t.Fatal(err)
	}
	d1, d2 := exporterPair(t)
	// 5.01 s × 2 CPUs = 10.02 CPU-seconds.
	r := strings.NewReplacer(
		`cpu="0",mode="user"} 500`, `cpu="0",mode="user"} 502.004`,
		`cpu="1",mode="user"} 500`, `cpu="1",mode="user"} 502.004`,
		`cpu="0",mode="system"} 250`, `cpu="0",mode="system"} 251.002`,
		`cpu="1",mode="system"} 250`, `cpu="1",mode="system"} 251.002`,
		`cpu="0",mode="iowait"} 100`, `cpu="0",mode="iowait"} 101.503`,
		`cpu="1",mode="iowait"} 100`, `cpu="1",mode="iowait"} 101.503`,
		`cpu="0",mode="idle"} 4000`, `cpu="0",mode="idle"} 4000.501`,
		`cpu="1",mode="idle"} 4000`, `cpu="1",mode="idle"} 4000.501`,
		`receive_bytes_total{device="eth0"} 1e+06`, fmt.Sprintf(`receive_bytes_total{device="eth0"} %d`, 1_000_000+62_625_000),
		`node_procs_running 7`, `node_procs_running 9`,
	)
	return d1 + string(b), d2 + r.Replace(string(b))
}

// TestExporterHostFixture parses the host's metrics out of one scrape.
func TestExporterHostFixture(t *testing.T) {
	first, _ := exporterHostPair(t)
	fams, err := parseExposition(strings.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	h := exporterHost(fams)
	if h == nil {
		t.Fatal("no host counters")
	}
	want := CPUTimes{User: 1000e6, Nice: 100e6, System: 500e6, Idle: 8000e6, IOWait: 200e6, IRQ: 50e6, SoftIRQ: 50e6, Steal: 100e6}
	if h.CPU != want || h.Cores != 2 || h.Boot != 1764460000 || h.ProcsRunning != 7 {
		t.Fatalf("host = %+v", h)
	}
	if !h.HasMem || h.MemTotal != 8_192_000_000 || h.MemFree != 1_024_000_000 || h.MemCache != 204_800_000+3_072_000_000+307_200_000 {
		t.Fatalf("memory = %+v", h)
	}
	eth0, lo := h.Net["eth0"], h.Net["lo"]
	if eth0.SpeedMbit != 10_000 || eth0.RxBytes != 1_000_000 || eth0.TxPackets != 2000 || eth0.Loopback || !lo.Loopback || lo.SpeedMbit != 0 {
		t.Fatalf("interfaces = %+v", h.Net)
	}
	d1, _ := exporterPair(t)
	if f, _ := parseExposition(strings.NewReader(d1)); exporterHost(f) != nil {
		t.Fatal("host counters from a scrape without the cpu collector")
	}
}

// TestExporterHostWindow reads a remote host through the sampler: its figures come
// from the same scrapes as its disks and over the exporter's own clock, and this
// machine is recorded apart as the driver's host.
func TestExporterHostWindow(t *testing.T) {
	first, second := exporterHostPair(t)
	srv := serveScrapes(first, second, func(w http.ResponseWriter, r *http.Request) bool {
		if got := r.URL.Query()["collect[]"]; !slices.Contains(got, "cpu") || !slices.Contains(got, "netclass") {
			t.Errorf("collect[] = %v", got)
		}
		return true
	})
	defer srv.Close()
	s, err := Open(t.Context(), Options{NodeExporterURL: srv.URL, Devices: []string{"sda=data"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a, b := s.Mark(), s.Mark()
	host, drv := s.HostWindow(a, b)
	if host.Source != "node_exporter" || host.Cores != 2 || host.Note != "" {
		t.Fatalf("host = %+v", host)
	}
	for name, v := range map[string][2]float64{"user": {host.UserPct, 40}, "system": {host.SystemPct, 20}, "iowait": {host.IOWaitPct, 30}, "idle": {host.IdlePct, 10}} {
		if math.Abs(v[0]-v[1]) > 0.01 {
			t.Errorf("%s = %v %%, want %v %%", name, v[0], v[1])
		}
	}
	// 62.625 MB over 5.01 s is 12.5 MB/s: 100 Mbit/s, 1 % of the link.
	if math.Abs(host.NetRxBytes-12_500_000) > 1 || host.NetLinkPct == nil || math.Abs(*host.NetLinkPct-1) > 0.001 {
		t.Errorf("network = rx %v B/s, link %v", host.NetRxBytes, host.NetLinkPct)
	}
	if host.RunQueue != 8 || host.MemUsedBytes != 8_192_000_000-1_024_000_000-3_584_000_000 {
		t.Errorf("gauges = run queue %v, used %d", host.RunQueue, host.MemUsedBytes)
	}
	if drv == nil || drv.Source != "procfs" || drv.Cores < 1 {
		t.Errorf("driver host = %+v", drv)
	}
	// The live line shows the database host between the last two readings, with the
	// run queue of the last.
	if live, ok := s.LiveHost(); !ok || math.Abs(live.IOWaitPct-30) > 0.01 || live.RunQueue != 9 {
		t.Errorf("live = %+v, %v", live, ok)
	}
}

// TestExporterWithoutHostCollectors: an exporter that refuses the host collectors
// (node_exporter answers 400 to a collect[] naming a disabled one) still gives its
// disks; the step says why its host figures are missing.
func TestExporterWithoutHostCollectors(t *testing.T) {
	first, second := exporterPair(t)
	srv := serveScrapes(first, second, func(w http.ResponseWriter, r *http.Request) bool {
		if slices.Contains(r.URL.Query()["collect[]"], "netclass") {
			http.Error(w, "couldn't create filtered metrics handler: disabled collector: netclass", http.StatusBadRequest)
			return false
		}
		return true
	})
	defer srv.Close()
	s, err := Open(t.Context(), Options{NodeExporterURL: srv.URL, Devices: []string{"sda"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a, b := s.Mark(), s.Mark()
	if io := s.Window(a, b, 0, 0); io.Source != SourceNodeExporter || len(io.Devices) != 1 {
		t.Fatalf("io = %+v", io)
	}
	host, drv := s.HostWindow(a, b)
	if host.Source != "none" || !strings.Contains(host.Note, "refused the host collectors") || drv == nil {
		t.Fatalf("host = %+v, driver = %+v", host, drv)
	}
}

// serveScrapes answers first to the first two scrapes it serves (the open and the
// first mark) and second after; check sees every request first and may answer it
// itself (false).
func serveScrapes(first, second string, check func(http.ResponseWriter, *http.Request) bool) *httptest.Server {
	var calls atomic.Int64
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !check(w, r) {
			return
		}
		body := first
		if calls.Add(1) > 2 {
			body = second
		}
		fmt.Fprint(w, body)
	}))
}
