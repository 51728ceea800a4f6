package iostat

import (
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// exporterPair serves the fixture, then the same host 5.01 s later by its own clock
// (node_time_seconds) with the §1.7 vda counters on sda and sdb's 32-bit time fields
// wrapped.
func exporterPair(t *testing.T) (first, second string) {
	t.Helper()
	b, err := os.ReadFile("testdata/node_exporter.txt")
	if err != nil {
		t.Fatal(err)
	}
	first = string(b)
	r := strings.NewReplacer(
		`node_time_seconds 1.7644608e+09`, `node_time_seconds 1.76446080501e+09`,
		`reads_completed_total{device="sda"} 534623`, `reads_completed_total{device="sda"} 537151`,
		`read_bytes_total{device="sda"} 3.641279488e+09`, fmt.Sprintf(`read_bytes_total{device="sda"} %d`, 7221882*512),
		`read_time_seconds_total{device="sda"} 104.965`, `read_time_seconds_total{device="sda"} 106.811`,
		`writes_completed_total{device="sda"} 606209`, `writes_completed_total{device="sda"} 606308`,
		`written_bytes_total{device="sda"} 4.937777152e+09`, fmt.Sprintf(`written_bytes_total{device="sda"} %d`, 9663648*512),
		`write_time_seconds_total{device="sda"} 134.327`, `write_time_seconds_total{device="sda"} 134.389`,
		`io_time_seconds_total{device="sda"} 21.108`, `io_time_seconds_total{device="sda"} 21.312`,
		`io_time_weighted_seconds_total{device="sda"} 241.257`, `io_time_weighted_seconds_total{device="sda"} 243.17`,
		`writes_completed_total{device="sdb"} 1000`, `writes_completed_total{device="sdb"} 1100`,
		`write_time_seconds_total{device="sdb"} 4294967.29`, `write_time_seconds_total{device="sdb"} 0.194`,
		`io_time_weighted_seconds_total{device="sdb"} 4294967.29`, `io_time_weighted_seconds_total{device="sdb"} 0.194`,
	)
	return first, r.Replace(first)
}

func TestExporterFixtureParse(t *testing.T) {
	f, err := os.Open("testdata/node_exporter.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fams, err := parseExposition(f)
	if err != nil {
		t.Fatal(err)
	}
	have := exporterDevices(fams)
	if len(have) != 3 || !have["dm-0"] || !have["sda"] {
		t.Fatalf("devices = %v", have)
	}
	s := exporterSnapshot(fams, []Device{{Name: "sda"}, {Name: "sdb"}})
	if s.RemoteAt.Unix() != 1764460800 {
		t.Fatalf("remote clock = %v", s.RemoteAt)
	}
	sda := s.Devices["sda"]
	if sda.ReadOps != 534623 || sda.ReadTime != 104_965_000 || sda.ReadBytes != 3641279488 || sda.Has != HasReadTime|HasWriteTime|HasBusyTime|HasQueueTime {
		t.Fatalf("sda = %v has %b", sda, sda.Has)
	}
	if _, ok := s.Devices["dm-0"]; ok {
		t.Fatal("an unselected device was read")
	}
}

func TestExporterSamplerUsesRemoteClockAndWraps(t *testing.T) {
	first, second := exporterPair(t)
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if got := r.URL.Query()["collect[]"]; len(got) != 3+len(hostCollectors) {
			t.Errorf("collect[] = %v", got)
		}
		body := first
		if calls.Add(1) > 2 { // open + mark a see the first text
			body = second
		}
		fmt.Fprint(w, body)
	}))
	defer srv.Close()
	s, err := Open(t.Context(), Options{NodeExporterURL: srv.URL, Devices: []string{"sda=data", "sdb=wal"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a := s.Mark()
	b := s.Mark() // milliseconds later by our clock, 5.01 s by the exporter's
	io := s.Window(a, b, 0, 0)
	if io.Source != SourceNodeExporter || len(io.Devices) != 2 {
		t.Fatalf("io = %+v", io)
	}
	sda := io.Devices[0]
	if math.Abs(sda.ReadAwaitMS-0.73) > 0.005 || math.Abs(sda.WriteAwaitMS-0.63) > 0.005 ||
		math.Abs(sda.QueueDepth-0.38) > 0.005 || math.Abs(sda.ReadIOPS-504.6) > 0.1 {
		t.Fatalf("sda = %+v", sda)
	}
	// sdb's write time went from 2³² ms − 0.006 s... to 0.194 s: 0.2 s for 100 writes.
	sdb := io.Devices[1]
	if math.Abs(sdb.WriteAwaitMS-2.0) > 0.01 || sdb.Role != RoleWAL {
		t.Fatalf("sdb = %+v", sdb)
	}
}

func TestExporterDefaultDevicesSkipStacksAndPartitions(t *testing.T) {
	first, _ := exporterPair(t)
	body := first + "node_disk_reads_completed_total{device=\"sda1\"} 5\nnode_disk_reads_completed_total{device=\"md0\"} 5\n"
	body = strings.Replace(body, "# TYPE node_time_seconds gauge\n", "", 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, body) }))
	defer srv.Close()
	src, err := openNodeExporter(t.Context(), srv.URL, nil, time.Second, "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range src.Devices() {
		names = append(names, d.Name)
	}
	if strings.Join(names, ",") != "sda,sdb" {
		t.Fatalf("default devices = %v", names)
	}
	if _, err := openNodeExporter(t.Context(), srv.URL, []string{"sdq"}, time.Second, ""); err == nil {
		t.Fatal("an unknown remote device was accepted")
	}
}

// TestExporterTimeoutIsAGap: an exporter that stops answering makes gaps in the
// series, never a crash or a hang beyond the read timeout.
func TestExporterTimeoutIsAGap(t *testing.T) {
	first, second := exporterPair(t)
	var calls atomic.Int64
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch calls.Add(1) {
		case 1, 2:
			fmt.Fprint(w, first)
		case 3: // hangs past the timeout
			select {
			case <-release:
			case <-r.Context().Done():
			}
		default:
			fmt.Fprint(w, second)
		}
	}))
	defer srv.Close()
	defer close(release)
	var notices atomic.Int64
	s, err := Open(t.Context(), Options{NodeExporterURL: srv.URL, Devices: []string{"sda"}, Interval: 250 * time.Millisecond,
		Log: func(f string, _ ...any) {
			if strings.Contains(f, "read failed") {
				notices.Add(1)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a := s.Mark()
	start := time.Now()
	s.take(t.Context()) // times out
	// The read timeout is 200 ms; without it the scrape would hang until the test
	// ends, so a bound far above a busy machine's stalls still tells the two apart.
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("a hung scrape took %v", d)
	}
	b := s.Mark()
	io := s.Window(a, b, 0, 0)
	if math.Abs(io.ReadIOPS-504.6) > 0.1 {
		t.Fatalf("figures across the gap = %+v", io.IOFigures)
	}
	if len(io.Series) != 0 {
		t.Fatalf("a series point spans the gap: %+v", io.Series)
	}
	if notices.Load() != 1 {
		t.Fatalf("notices = %d, want 1", notices.Load())
	}
}

func TestScrapeURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://db1:9100":                       "http://db1:9100/metrics?collect%5B%5D=diskstats&collect%5B%5D=filesystem&collect%5B%5D=time",
		"http://db1:9100/metrics?collect[]=cpu": "http://db1:9100/metrics?collect%5B%5D=cpu",
		"https://db1/node/metrics":              "https://db1/node/metrics?collect%5B%5D=diskstats&collect%5B%5D=filesystem&collect%5B%5D=time",
	} {
		got, err := scrapeURL(in, false)
		if err != nil || got != want {
			t.Errorf("scrapeURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	host, err := scrapeURL("http://db1:9100", true)
	if want := "http://db1:9100/metrics?collect%5B%5D=diskstats&collect%5B%5D=filesystem&collect%5B%5D=time&collect%5B%5D=cpu&collect%5B%5D=meminfo&collect%5B%5D=netdev&collect%5B%5D=netclass&collect%5B%5D=stat"; err != nil || host != want {
		t.Errorf("with the host collectors: %q, %v; want %q", host, err, want)
	}
	if _, err := scrapeURL("db1:9100", false); err == nil {
		t.Error("a URL without scheme was accepted")
	}
}

func TestExporterDeviceOfDataDir(t *testing.T) {
	f, err := os.Open("testdata/node_exporter.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fams, err := parseExposition(f)
	if err != nil {
		t.Fatal(err)
	}
	have := exporterDevices(fams) // dm-0, sda, sdb: partitions left out, as by default
	for path, want := range map[string]string{
		"/var/lib/postgresql/15/main": "dm-0", // /dev/mapper/vg-pg → dm-0
		"/srv/pgdata":                 "sda",  // / is /dev/sda1 → its disk sda
		"/run/pg":                     "",     // tmpfs: no device
	} {
		if got := exporterDeviceOf(fams, path, have); got != want {
			t.Errorf("%s: device %q, want %q", path, got, want)
		}
	}
	for in, want := range map[string]string{"sdb1": "sdb", "nvme0n1p2": "nvme0n1", "mmcblk0p1": "mmcblk0", "xvda3": "xvda", "dm-3": "dm-3", "nvme0n1": "nvme0n1"} {
		if got := diskOfPartition(in); got != want {
			t.Errorf("diskOfPartition(%s) = %s, want %s", in, got, want)
		}
	}
}
