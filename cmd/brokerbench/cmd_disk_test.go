package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/testloop"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session/device"
)

// TestDiskRefusals: every refusal is one line and the right exit code, and nothing
// is written where it must not be.
func TestDiskRefusals(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no fio", []string{"disk", "--dir", dir, "--size", "1MiB", "--fio", "/nonexistent/fio", "--out", out}, 1, "apt-get install fio"},
		{"no target", []string{"disk", "--size", "1MiB", "--out", out}, 2, "give one target"},
		{"two targets", []string{"disk", "--dir", dir, "--device", "/dev/null", "--out", out}, 2, "give one target"},
		{"not enough space", []string{"disk", "--dir", dir, "--size", "900TB", "--out", out}, 1, "does not fit"},
		{"bad depths", []string{"disk", "--dir", dir, "--depths", "1,0", "--out", out}, 2, "--depths"},
		{"unknown profile", []string{"disk", "--dir", dir, "--profile", "nosuch", "--out", out}, 2, "unknown profile"},
		{"from-run-users alone", []string{"disk", "--dir", dir, "--from-run-users", "8", "--out", out}, 2, "--from-run-users"},
		{"json without list", []string{"disk", "--dir", dir, "--json", "--out", out}, 2, "--json goes with --list"},
		{"not a block device", []string{"disk", "--device", "/dev/null", "--profile", "streaming", "--out", out}, 2, "not a block device"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runMain(tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("exit %d, stderr %q; want exit %d and one line with %q", code, stderr, tc.code, tc.want)
			}
			if _, err := os.Stat(filepath.Join(dir, device.TestFileName)); err == nil {
				t.Errorf("a test file was left in %s", dir)
			}
		})
	}
}

// TestDiskDeviceRefusals: a writing profile on a raw device needs the flag naming
// it, and a mounted device is refused even with the flag.
func TestDiskDeviceRefusals(t *testing.T) {
	needFioBinary(t)
	raw := testloop.NewRaw(t, 16)
	out := filepath.Join(t.TempDir(), "r.json")
	code, _, stderr := runMain("disk", "--device", raw.Dev, "--profile", "database", "--out", out)
	if code != exitUsage || !strings.Contains(stderr, "--allow-device-writes "+raw.Dev) {
		t.Errorf("writes without the flag: exit %d, %q", code, stderr)
	}
	code, _, stderr = runMain("disk", "--device", raw.Dev, "--allow-device-writes", "/dev/null", "--profile", "database", "--out", out)
	if code != exitUsage {
		t.Errorf("a flag naming another device: exit %d, %q", code, stderr)
	}
	mounted := testloop.New(t, 32)
	code, _, stderr = runMain("disk", "--device", mounted.Dev, "--allow-device-writes", mounted.Dev, "--profile", "database", "--out", out)
	if code != exitRuntime || !strings.Contains(stderr, "mounted") {
		t.Errorf("a mounted device: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused run wrote a result file")
	}
}

// TestDiskRunAndReport runs two profiles on a small test file on a loop device,
// then reads the result file back through report and compare.
func TestDiskRunAndReport(t *testing.T) {
	t.Parallel()
	needFioBinary(t)
	d := testloop.New(t, 96)
	out := filepath.Join(t.TempDir(), "disk.json")
	code, stdout, stderr := runMain("disk", "--dir", d.Mount, "--size", "32MiB", "--profile", "database,wal",
		"--depths", "1,4", "--ramp", "200ms", "--measure", "1s", "--label", "loop", "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(d.Mount, device.TestFileName)); err == nil {
		t.Error("the test file was not removed")
	}
	r, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Kind != results.KindDisk || r.Disk == nil || len(r.Disk.Steps) != 3 || r.Disk.Precondition == nil || r.Disk.Precondition.Bytes != 32<<20 {
		t.Fatalf("result file: kind %q, disk %+v", r.Kind, r.Disk)
	}
	for _, st := range r.Disk.Steps {
		if st.IOPS <= 0 || st.IO == nil || st.IO.Source != "diskstats" || r.Disk.Target.Device != d.Name || strings.Contains(st.IO.Note, "WAL") {
			t.Errorf("%s at %d: IOPS %.0f, device figures %+v on %q", st.Profile, st.Depth, st.IOPS, st.IO, r.Disk.Target.Device)
		}
	}
	if !strings.Contains(stdout, "IOPS / MB/s / average latency ms, by outstanding I/Os") || !strings.Contains(stdout, "database") {
		t.Errorf("the run's table is missing:\n%s", stdout)
	}
	html := filepath.Join(t.TempDir(), "r.html")
	if code, _, stderr := runMain("report", out, "--html", html, "--csv", html+".csv"); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(html); !bytes.Contains(b, []byte("database: IOPS against outstanding I/Os")) {
		t.Error("the HTML report has no IOPS chart for the database profile")
	}
	// The file against itself: one label twice, so compare names the runs by place.
	code, stdout, _ = runMain("compare", out, out, "--fail-if", "disk.iops<-10%", "--fail-if", "disk.latency>1us")
	if code != exitGate || !strings.Contains(stdout, "database, 4 outstanding: IOPS +0 %") || !strings.Contains(stdout, "TRIPPED run loop [2] at database, 1 outstanding: disk.latency") {
		t.Errorf("compare: exit %d:\n%s", code, stdout)
	}
}

func needFioBinary(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("fio"); err != nil {
		t.Skip("fio is not installed")
	}
}

// TestDiskList: --list shows each profile with the exact fio options it becomes,
// and --json prints them in the form a profile file takes.
func TestDiskList(t *testing.T) {
	code, stdout, _ := runMain("disk", "--list")
	for _, want := range []string{"database (default): random, 67 % reads", "    wal: rw=write bs=8k ioengine=sync iodepth=1 fdatasync=1",
		"checkpoint: rw=randwrite bs=8k ioengine=libaio iodepth={depth} iodepth_batch_submit={depth}"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("--list (exit %d) lacks %q:\n%s", code, want, stdout)
		}
	}
	code, stdout, _ = runMain("disk", "--list", "--json")
	if code != 0 || !strings.Contains(stdout, `"bssplit": "512/10:1k/5`) || !strings.Contains(stdout, `"read_percent": 80`) {
		t.Errorf("--list --json (exit %d):\n%s", code, stdout)
	}
}

// TestCompareBothHalves: OLTP runs and storage-profile files given together are
// compared each with their own kind, and --csv puts the profiles' rows beside the
// runs' file.
func TestCompareBothHalves(t *testing.T) {
	dir := t.TempDir()
	oltp := []string{writeRun(t, dir, "h800.json", "H800", 1, 1), writeRun(t, dir, "h810.json", "H810", 1.38, 0.67)}
	profile := func(name string, iops float64) string {
		r := &results.Run{Format: 1, Kind: results.KindDisk, Label: name, Seed: 1, Steps: []results.Step{},
			Disk: &results.DiskRun{Target: results.DiskTarget{Path: "/x", SizeBytes: 1 << 30}, Direct: true,
				Steps: []results.DiskStep{{Profile: "database", Depth: 4, IOPS: iops, MBps: iops / 128,
					Read: &results.DiskDir{IOs: 100, IOPS: iops, AvgMS: 1}}}}}
		p := filepath.Join(dir, name+".json")
		if err := results.Write(p, r); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := profile("a-disk", 1000), profile("b-disk", 1550)
	csvPath := filepath.Join(dir, "cmp.csv")
	code, stdout, stderr := runMain("compare", oltp[0], oltp[1], a, b, "--csv", csvPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "H810 vs H800 at 4 users: tps +38 %") || !strings.Contains(stdout, "database, 4 outstanding: IOPS +55 %") {
		t.Errorf("both halves are not shown:\n%s", stdout)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "cmp-disk.csv")); err != nil || !strings.HasPrefix(string(b), "file,label,profile,depth") {
		t.Errorf("the profiles' CSV: %v %q", err, b)
	}
	if code, _, stderr := runMain("compare", a, oltp[0]); code != exitUsage || !strings.Contains(stderr, "two or more storage-profile files") {
		t.Errorf("one profile file and one run: exit %d, %q", code, stderr)
	}
}
