package disk

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/diskprofile"
	"github.com/brokerbench/brokerbench/internal/testkit/testloop"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/device"
)

func needFio(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("fio"); err != nil {
		t.Skip("fio is not installed")
	}
}

// TestRunKeepsItsTestFile drives a session through its options alone: one profile
// on a test file it creates on a loop device, kept with Keep, its result file read
// back with the tool, the tags and the kept file said.
func TestRunKeepsItsTestFile(t *testing.T) {
	t.Parallel()
	needFio(t)
	d := testloop.New(t, 64)
	out := filepath.Join(t.TempDir(), "disk.json")
	var stdout, stderr bytes.Buffer
	o := Options{Dir: d.Mount, Size: "8MiB", Profiles: []string{"database"}, Depths: "2", Ramp: 0, Measure: time.Second,
		Seed: 1, Keep: true, Out: out, Label: "loop", Tags: []string{"raid=none"}, FIO: "fio", Tool: "v0-test"}
	if err := Run(context.Background(), session.Console{Stdout: &stdout, Stderr: &stderr}, o); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	r, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Tool != "v0-test" || r.Label != "loop" || r.Tags["raid"] != "none" || !r.Disk.Target.Kept || r.Disk.Target.Filesystem != "ext4" {
		t.Errorf("result: tool %q, label %q, tags %v, target %+v", r.Tool, r.Label, r.Tags, r.Disk.Target)
	}
	if len(r.Disk.Steps) != 1 || r.Disk.Steps[0].Profile != "database" || r.Disk.Steps[0].Depth != 2 || r.Disk.Steps[0].IOPS <= 0 {
		t.Errorf("steps %+v", r.Disk.Steps)
	}
	if fi, err := os.Stat(filepath.Join(d.Mount, device.TestFileName)); err != nil || fi.Size() != 8<<20 {
		t.Errorf("the kept test file: %v", err)
	}
	if !strings.Contains(stdout.String(), "database") || !strings.Contains(stderr.String(), "database at 2 outstanding:") {
		t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}
}

// TestRunRefusesAFileItDidNotCreate: a test file already in --dir is refused before
// any I/O, left as it was, and no result file is written.
func TestRunRefusesAFileItDidNotCreate(t *testing.T) {
	needFio(t)
	dir := t.TempDir()
	theirs := filepath.Join(dir, device.TestFileName)
	if err := os.WriteFile(theirs, []byte("kept from last week"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "disk.json")
	o := Options{Dir: dir, Size: "1MiB", Depths: "1", Measure: time.Second, Out: out, FIO: "fio"}
	err := Run(context.Background(), session.Console{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}, o)
	if err == nil || !strings.Contains(err.Error(), theirs+" already exists") {
		t.Errorf("err %v", err)
	}
	if b, _ := os.ReadFile(theirs); string(b) != "kept from last week" {
		t.Errorf("the file it did not create now holds %q", b)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused session wrote a result file")
	}
}

// TestPlanRefusals: every option is checked, as a usage mistake, before the
// target is touched.
func TestPlanRefusals(t *testing.T) {
	all := diskprofile.Builtin
	base := Options{Dir: "/nonexistent", Depths: "1,4", Measure: time.Second}
	for _, tc := range []struct {
		change func(*Options)
		want   string
	}{
		{func(o *Options) { o.Device = "/dev/null" }, "give one target"},
		{func(o *Options) { o.AllowWrites = "/dev/null" }, "--allow-device-writes goes with --device"},
		{func(o *Options) { o.Depths = "4,4" }, `--depths "4,4": 4 repeats`},
		{func(o *Options) { o.Depths = "5000" }, "from 1 to 4096"},
		{func(o *Options) { o.BlockSizes = "4k,4g" }, "--block-sizes"},
		{func(o *Options) { o.Size = "512KiB" }, "at least 1MiB"},
		{func(o *Options) { o.Measure = 0 }, "--measure must be positive"},
		{func(o *Options) { o.Profiles = []string{"nosuch"} }, "unknown profile"},
		{func(o *Options) { o.Tags = []string{"novalue"} }, "want key=value"},
	} {
		o := base
		tc.change(&o)
		_, err := o.plan(all, nil)
		var u session.UsageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v; want a usage error with %q", o, err, tc.want)
		}
	}
	p, err := base.plan(all, nil)
	if err != nil || len(p.profiles) != len(diskprofile.DefaultProfiles) || p.size != 8e9 || len(p.levels) != 2 {
		t.Errorf("defaults: %+v, %v", p, err)
	}
}

// cancelOnWrite cancels a context when a line containing mark is written: the
// session's progress line after a finished step.
type cancelOnWrite struct {
	mark   string
	cancel context.CancelFunc
	buf    bytes.Buffer
}

func (c *cancelOnWrite) Write(p []byte) (int, error) {
	c.buf.Write(p)
	if strings.Contains(c.buf.String(), c.mark) {
		c.cancel()
	}
	return len(p), nil
}

// TestDiskInterruptKeepsFinishedSteps: an interrupt after the first step stops fio,
// keeps that step in the result file, marks the run interrupted and says so (exit 130).
func TestDiskInterruptKeepsFinishedSteps(t *testing.T) {
	t.Parallel()
	needFio(t)
	d := testloop.New(t, 64)
	out := filepath.Join(t.TempDir(), "disk.json")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &cancelOnWrite{mark: "outstanding:", cancel: cancel}
	con := session.Console{Stdout: &bytes.Buffer{}, Stderr: stderr}
	// The first step finishes; the context ends as its progress line is written, so
	// the second never runs.
	o := Options{Dir: d.Mount, Size: "16MB", Profiles: []string{"database", "streaming"}, Depths: "1,4,16",
		Measure: time.Second, Seed: 1, Out: out, FIO: "fio"}
	err := Run(ctx, con, o)
	if !errors.Is(err, session.ErrInterrupted) {
		t.Fatalf("err %v; want the session interrupted (exit 130)", err)
	}
	r, rerr := results.Read(out)
	if rerr != nil {
		t.Fatal(rerr)
	}
	if !r.Interrupted || len(r.Disk.Steps) != 1 || r.Disk.Steps[0].Profile != "database" || r.Disk.Steps[0].Depth != 1 {
		t.Errorf("interrupted %v, steps %+v; want the one finished step kept", r.Interrupted, r.Disk.Steps)
	}
	if _, err := os.Stat(filepath.Join(d.Mount, device.TestFileName)); err == nil {
		t.Error("the test file was left behind")
	}
}
