package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// TestRunCPUBoundWithBurners runs a real step on a database of this host while
// busy loops keep every core runnable: the step's host figures must show the CPUs
// saturated and the step flagged cpu-bound, in the file, the step rows and the
// report. One burner per core (at least two) keeps the CPUs from ever idling
// whatever else the machine runs, so the flag holds on a busy machine too: other
// load only adds to the busy time. Not parallel: the burners would slow the
// package's other tests for nothing.
func TestRunCPUBoundWithBurners(t *testing.T) {
	dsn := testdb.Loaded(t)
	for range max(2, runtime.NumCPU()) {
		burner := exec.Command("sh", "-c", "while :; do :; done")
		if err := burner.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = burner.Process.Kill(); _ = burner.Wait() })
	}
	out := filepath.Join(t.TempDir(), "burn.json")
	code, stdout, stderr := runMain("run", "--db", dsn, "--users", "2", "--step", "4s", "--warmup", "1s", "--rate", "20",
		"--io-interval", "1s", "--no-check", "--out", out)
	if code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	r, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Steps) != 1 {
		t.Fatalf("%d steps", len(r.Steps))
	}
	st := r.Steps[0]
	h := st.Host
	if h == nil || h.Source != results.HostSourceProcfs || st.DriverHost != nil {
		t.Fatalf("host %+v, driver host %+v: want this host's procfs and no driver host apart", h, st.DriverHost)
	}
	t.Logf("host: %d cores, usr/sys/iow/st/idle %s, run queue %.1f; flags %v", h.Cores, figures.CPUSplit(h.HostFigures), h.RunQueue, st.Flags)
	if !results.HasFlag(&st, figures.FlagCPUBound) || results.HasFlag(&st, figures.FlagIOBound) {
		t.Errorf("flags %v, want cpu-bound and not io-bound (idle %.1f %%, iowait %.1f %%)", st.Flags, h.IdlePct, h.IOWaitPct)
	}
	if h.RunQueue < float64(max(2, runtime.NumCPU())) {
		t.Errorf("run queue %.1f below the burners' count", h.RunQueue)
	}
	if st.Bottleneck != figures.BottleneckCPU {
		t.Errorf("bottleneck %q, want cpu", st.Bottleneck)
	}
	for _, want := range []string{"CPU usr/sys/iow/st/id", "bottleneck cpu", "C: cpu-bound (at 2 users)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "CPU ") {
		t.Errorf("no host figures on the live line:\n%s", stderr)
	}
}
