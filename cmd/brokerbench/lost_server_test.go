package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/internal/pgmanaged"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/results"
)

// lostServerRun runs three 4 s steps on a private managed server (its
// --pgdata) and, once the result file holds the first step, kills the postmaster
// (SIGKILL). It returns the run's exit code, output and result file.
func lostServerRun(t *testing.T, grace string) (int, string, string, *results.Run) {
	c := testpg.PrivateCluster(t)
	testdb.LoadedTaken(t, c.URL("postgres"), "brokerbench")
	out := filepath.Join(t.TempDir(), "lost.json")
	args := []string{"run", "--pgdata", c.DataDir, "--users", "2,2,2", "--step", "4s", "--warmup", "1s", "--rate", "20",
		"--io-device", "none", "--reconnect-grace", grace, "--out", out}
	killed := make(chan struct{})
	go func() {
		defer close(killed)
		// The first step is in the file once it finished (the run rewrites the file
		// after every step).
		for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if r, err := results.Read(out); err == nil && len(r.Steps) >= 1 {
				break
			}
		}
		killPostmaster(t, c.DataDir)
	}()
	code, stdout, stderr := runMain(args...)
	<-killed
	r, err := results.Read(out)
	if err != nil {
		t.Fatalf("result file: %v\n%s\n%s", err, stdout, stderr)
	}
	return code, stdout, stderr, r
}

// killPostmaster kills the server's postmaster and waits until it is reaped: until
// then pg_ctl takes it for running.
func killPostmaster(t *testing.T, dataDir string) {
	pm, err := pgmanaged.PostmasterPIDIn(dataDir)
	if err != nil {
		t.Errorf("postmaster: %v", err)
		return
	}
	if err := syscall.Kill(pm, syscall.SIGKILL); err != nil {
		t.Errorf("kill the postmaster: %v", err)
		return
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat("/proc/" + strconv.Itoa(pm)); err != nil {
			return
		}
	}
	t.Errorf("the killed postmaster %d was not reaped within a minute", pm)
}

// TestFaultServerLost: the postmaster is killed after the first step and stays
// down. The run says it lost the server and when, keeps the finished step, skips
// the check with that reason, and exits 1; it does not run on into later steps.
func TestFaultServerLost(t *testing.T) {
	t.Parallel()
	code, stdout, stderr, r := lostServerRun(t, "2s")
	if code != exitRuntime {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, exitRuntime, stdout, stderr)
	}
	for _, want := range []string{"lost the database server at ", "connections refused", "the consistency check was skipped"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "check after the run") {
		t.Errorf("the check ran against a dead server:\n%s", stderr)
	}
	if len(r.Steps) == 0 || len(r.Steps) > 2 {
		t.Fatalf("%d steps in the file, want the finished one and at most the cut one", len(r.Steps))
	}
	if first := r.Steps[0]; first.Partial || first.TPS <= 0 {
		t.Errorf("step 1 %+v: the finished step was not kept whole", first)
	}
	// A step the loss cut is marked; one that ended before the grace period ran
	// out (the next was cut in its warm-up) is whole, with its errors.
	if len(r.Steps) == 2 && r.Steps[1].Partial && !slices.Contains(r.Steps[1].Flags, results.FlagServerLost) {
		t.Errorf("step 2 flags %v: the cut step is not marked server-lost", r.Steps[1].Flags)
	}
}

// TestFaultServerRestarted: the postmaster is killed after the first step and
// started again (as `pg start` would) within the grace period. The server comes
// back on its port, the run reconnects and measures again, the step with the
// outage is flagged, and the database passes the check. The run is long (its steps
// outlast any restart on a busy machine) and is interrupted once a step measured
// after the restart is in its file.
func TestFaultServerRestarted(t *testing.T) {
	t.Parallel()
	c := testpg.PrivateCluster(t)
	testdb.LoadedTaken(t, c.URL("postgres"), "brokerbench")
	out := filepath.Join(t.TempDir(), "restarted.json")
	users := strings.TrimSuffix(strings.Repeat("2,", 20), ",")
	ch := startChild(t, "run", "--pgdata", c.DataDir, "--users", users, "--step", "3s", "--warmup", "1s", "--rate", "20",
		"--io-device", "none", "--reconnect-grace", "5m", "--out", out)
	waitRunFile(t, ch, out, func(r *results.Run) bool { return len(r.Steps) >= 1 })
	killPostmaster(t, c.DataDir)
	restarted, err := pgmanaged.Start(context.Background(), pgmanaged.Options{DataDir: c.DataDir})
	if err != nil {
		t.Fatalf("restart: %v", err)
	}
	if restarted.Port != c.Port {
		t.Errorf("restarted on port %d, was %d", restarted.Port, c.Port)
	}
	back := time.Now()
	// The outage is recorded in the step it ended in: wait for that step, and for
	// a step measured after the restart.
	r := waitRunFile(t, ch, out, func(r *results.Run) bool {
		last := r.Steps[len(r.Steps)-1]
		return last.StartedAt.After(back) && last.TPS > 0 &&
			slices.ContainsFunc(r.Steps, func(st results.Step) bool { return st.Faults != nil && st.Faults.ServerOutages > 0 })
	})
	ch.signal(t, syscall.SIGINT)
	if code := ch.wait(t); code != exitInterrupted {
		t.Errorf("exit %d after the interrupt\n%s", code, ch.output())
	}
	var outages int
	for _, st := range r.Steps {
		if st.Faults != nil && st.Faults.ServerOutages > 0 {
			outages += st.Faults.ServerOutages
			if !slices.Contains(st.Flags, results.FlagServerOutage) {
				t.Errorf("a step with an outage lacks the flag: %v", st.Flags)
			}
		}
		if st.Faults != nil && st.Faults.ServerLost {
			t.Errorf("a step marked lost: %+v", st.Faults)
		}
	}
	if outages != 1 {
		t.Errorf("%d outages recorded, want 1\n%s", outages, ch.output())
	}
	if code, stdout, stderr := runMain("check", "--pgdata", c.DataDir); code != 0 {
		t.Errorf("check after the restart: exit %d\n%s\n%s", code, stdout, stderr)
	}
}
