package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/testloop"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// TestDiskBlockSizeSweep sweeps the streaming profile's request size on a loop
// device at a fixed number of outstanding I/Os: each size is a step with the host's
// CPU beside its MB/s, and MB/s rises with the size (a 1 MB read moves 256 times a
// 4 KB read's bytes for far less than 256 times its cost). The report has the
// sweep's table and its MB/s and CPU charts against block size.
func TestDiskBlockSizeSweep(t *testing.T) {
	t.Parallel()
	needFioBinary(t)
	d := testloop.New(t, 96)
	out := filepath.Join(t.TempDir(), "sweep.json")
	code, stdout, stderr := runMain("disk", "--dir", d.Mount, "--size", "32MB", "--profile", "streaming",
		"--block-sizes", "4k,1m", "--depths", "4", "--ramp", "200ms", "--measure", "1s", "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	steps := r.Disk.Steps
	if len(steps) != 2 {
		t.Fatalf("%d steps, want one per block size", len(steps))
	}
	for i, bs := range []string{"4k", "1m"} {
		st := steps[i]
		if st.Profile != "streaming@"+bs || st.BlockSize != bs || st.Depth != 4 {
			t.Errorf("step %d: %s, %s, depth %d", i, st.Profile, st.BlockSize, st.Depth)
		}
		if st.Host == nil || st.Host.Source != results.HostSourceProcfs || st.Host.Cores < 1 {
			t.Errorf("%s: host figures %+v", bs, st.Host)
		}
		t.Logf("%s: %.1f MB/s, %.0f IOPS, host %s", bs, st.MBps, st.IOPS, figures.CPUSplit(st.Host.HostFigures))
	}
	if !(steps[0].MBps < steps[1].MBps) {
		t.Errorf("MB/s did not rise with block size: 4k %.1f, 1m %.1f", steps[0].MBps, steps[1].MBps)
	}
	for _, want := range []string{"Block-size sweep: streaming at 4 outstanding", "usr/sys/iow/steal/idle %"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the report lacks %q:\n%s", want, stdout)
		}
	}
	html := filepath.Join(t.TempDir(), "sweep.html")
	if code, _, stderr := runMain("report", out, "--html", html); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(html)
	for _, want := range []string{"MB/s against block size", "host CPU against block size"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("the HTML report lacks the chart %q", want)
		}
	}
	// The block-size axis is labelled as the sweep names its sizes.
	if !bytes.Contains(b, []byte(">1m<")) || bytes.Contains(b, []byte(">1048576<")) {
		t.Error("the block-size axis is not labelled 4k, 1m")
	}
	if code, _, stderr := runMain("disk", "--dir", d.Mount, "--block-sizes", "4k,huge", "--out", out); code != 2 || !strings.Contains(stderr, "--block-sizes") {
		t.Errorf("a bad size: exit %d, %s", code, stderr)
	}
}
