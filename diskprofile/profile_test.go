package diskprofile

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/fio"
	"github.com/brokerbench/brokerbench/results"
)

// TestFromRunFixture derives the profile of a fixture run whose data and WAL had
// devices of their own: 900 reads and 300 writes per second of 8 KB and 12 KB on
// the data device at 5.6 in flight, 120 WAL writes per second of 12 KB.
func TestFromRunFixture(t *testing.T) {
	path := filepath.Join("testdata", "run-with-wal.json")
	r, err := results.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := FromRun(path, r, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p.RW != "randrw" || p.ReadPercent() != 75 || p.BlockSize != "8k,12k" || p.ExtraDepth != 6 {
		t.Errorf("data stream %+v, extra depth %d; want randrw 75 %% reads, bs 8k,12k, 6 outstanding", p.Stream, p.ExtraDepth)
	}
	if len(p.Also) != 1 {
		t.Fatalf("want a WAL stream beside the data, got %+v", p.Also)
	}
	w := p.Also[0]
	if w.RW != "write" || w.BlockSize != "12k" || w.Depth != 1 || w.Engine != "sync" ||
		!slices.Contains(w.Options, "fdatasync=1") || !slices.Contains(w.Options, "rate_iops=120") {
		t.Errorf("WAL stream %+v; want sequential 12k writes with fdatasync at 120/s, one outstanding", w)
	}
	if got := Depths(p, []int{1, 4, 16}); !slices.Equal(got, []int{1, 4, 6, 16}) {
		t.Errorf("depths %v; want the run's own 6 among the levels", got)
	}
	// The step asked for by users, and one that does not exist.
	p4, err := FromRun(path, r, 4)
	if err != nil || len(p4.Also) != 0 || p4.ReadPercent() != 50 {
		t.Errorf("users 4: %+v, %v; want one stream (data and WAL on one device) at 50 %% reads", p4, err)
	}
	if _, err := FromRun(path, r, 5); err == nil || !strings.Contains(err.Error(), "5 users") {
		t.Errorf("users 5: %v; want an error naming the step", err)
	}
}

// TestStepJobOptions pins what a profile becomes: the global options every step
// shares and the stream's own, with the depth filled in.
func TestStepJobOptions(t *testing.T) {
	ps, _ := Lookup(Builtin, []string{"checkpoint", "wal"})
	s := Setup{Path: "/mnt/x/f", SizeBytes: 1 << 30, Direct: true, Ramp: 2e9, Measure: 1500e6, Seed: 9}
	f := StepJob(ps[0], 16, s)
	text, err := f.Render()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"filename=/mnt/x/f", "size=1073741824", "direct=1", "ramp_time=2", "runtime=1500ms",
		"randseed=9", "rw=randwrite", "bs=8k", "iodepth=16", "iodepth_batch_submit=16", "fsync=256"} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("job file lacks %s:\n%s", want, text)
		}
	}
	wal := StepJob(ps[1], 64, s)
	if v, _ := fio.Get(wal.Jobs[0].Options, "iodepth"); v != "1" {
		t.Errorf("WAL at step depth 64 runs at iodepth %s; its depth is fixed at 1", v)
	}
	if got := Depths(ps[1], []int{1, 4, 64}); !slices.Equal(got, []int{1}) {
		t.Errorf("WAL depths %v; want one step", got)
	}
	bs := ps[0].WithBlockSize("64k")
	if bs.Name != "checkpoint@64k" || bs.BlockSize != "64k" {
		t.Errorf("block-size sweep: %+v", bs)
	}
}

// TestLoadFile: a profile file adds profiles, and what could write outside the test
// file or redefine a builtin is refused.
func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("ok.json", `[{"name": "oltp-70-30", "description": "vdbench OLTP", "rw": "randrw", "read_percent": 70, "bs": "8k",
		"options": ["thinktime=10", "thinktime_blocks=64"]}]`)
	ps, err := LoadFile(ok)
	if err != nil || len(ps) != 1 || ps[0].ReadPercent() != 70 || ps[0].Source != ok {
		t.Fatalf("LoadFile: %+v, %v", ps, err)
	}
	for name, body := range map[string]string{
		"filename.json": `{"name": "x", "rw": "randrw", "bs": "8k", "options": ["filename=/dev/sda"]}`,
		"exec.json":     `{"name": "x", "rw": "read", "bs": "8k", "options": ["exec_prerun=rm -rf /"]}`,
		"builtin.json":  `{"name": "database", "rw": "read", "bs": "8k"}`,
		"badrw.json":    `{"name": "x", "rw": "trim", "bs": "8k"}`,
		"nobs.json":     `{"name": "x", "rw": "read"}`,
		"unknown.json":  `{"name": "x", "rw": "read", "bs": "8k", "size": "1g"}`,
	} {
		if _, err := LoadFile(write(name, body)); err == nil {
			t.Errorf("%s: accepted %s", name, body)
		}
	}
}

// TestCheckDevice: the device's reading agrees within 10 % on IOPS or MB/s, and a
// difference is explained.
func TestCheckDevice(t *testing.T) {
	step := func(iops, mbps, devIOPS, devMBps float64, sync bool) *results.DiskStep {
		st := &results.DiskStep{IOPS: iops, MBps: mbps,
			IO: &results.StepIO{Source: "diskstats", IOFigures: results.IOFigures{ReadIOPS: devIOPS, ReadMBps: devMBps}}}
		if sync {
			st.Sync = &results.DiskSync{Count: 1}
		}
		CheckDevice(st)
		return st
	}
	for _, tc := range []struct {
		name   string
		st     *results.DiskStep
		agrees bool
		note   string
	}{
		{"same", step(1000, 8, 1050, 8.2, false), true, ""},
		{"merged", step(1000, 62.5, 250, 62, false), true, "merged or split"},
		{"flushes", step(300, 2.3, 600, 2.3, true), true, "flush requests"},
		{"more", step(1000, 8, 3000, 40, false), false, "journal"},
		{"less", step(1000, 8, 500, 4, false), false, "throttle"},
	} {
		if tc.st.DeviceAgrees == nil || *tc.st.DeviceAgrees != tc.agrees || !strings.Contains(tc.st.DeviceNote, tc.note) {
			t.Errorf("%s: agrees %v, note %q; want %v and %q", tc.name, tc.st.DeviceAgrees, tc.st.DeviceNote, tc.agrees, tc.note)
		}
	}
	none := &results.DiskStep{IOPS: 10}
	if CheckDevice(none); none.DeviceAgrees != nil {
		t.Error("a step without device figures was judged")
	}
}
