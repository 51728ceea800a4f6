package iostat

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestHostUserTimeOfABusyLoopInACgroup runs a busy loop in a CPU-accounting
// cgroup of its own and reads this host through the sampler over the window: the
// kernel's count of the cgroup's user time is an independent witness, apart from
// procfs's per-CPU totals, and the host's user time must cover at least most of
// it (other load on the machine only adds to the host's). The window ends when
// the loop has spent a CPU-second, so a busy machine makes it longer, not wrong.
func TestHostUserTimeOfABusyLoopInACgroup(t *testing.T) {
	cg := newCPUGroup(t)
	s := openThisHost(t)
	burner := exec.Command("sh", "-c", "while :; do :; done")
	if err := burner.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = burner.Process.Kill(); _ = burner.Wait() }()
	if err := os.WriteFile(filepath.Join(cg.dir, "cgroup.procs"), []byte(strconv.Itoa(burner.Process.Pid)), 0o644); err != nil {
		t.Fatal(err)
	}
	a := s.Mark()
	u0 := cg.userSeconds(t)
	for cg.userSeconds(t)-u0 < 1.0 {
		time.Sleep(20 * time.Millisecond)
	}
	b := s.Mark()
	u1 := cg.userSeconds(t)
	host, _ := s.HostWindow(a, b)
	if host.Source != "procfs" || host.Cores < 1 {
		t.Fatalf("host = %+v", host)
	}
	secs := b.At.Sub(a.At).Seconds()
	hostUser := userSeconds(host, secs)
	t.Logf("cgroup user %.2f s; host user %.2f s (%.1f %% of %d cores over %.2f s)", u1-u0, hostUser, host.UserPct, host.Cores, secs)
	// Both count in ticks (10 ms per tick per CPU), and the cgroup is read a moment
	// after the mark: allow 20 %.
	if hostUser < 0.8*(u1-u0) {
		t.Errorf("the host's user time %.2f s is under 80 %% of the busy loop's %.2f s in its cgroup", hostUser, u1-u0)
	}
}

// cpuGroup is a cgroup of the test's own that accounts its processes' CPU time:
// v1's cpuacct controller (cpuacct.usage_user, ns) or a v2 group (cpu.stat's
// user_usec, which every v2 group keeps).
type cpuGroup struct {
	dir string
	v1  bool
}

func newCPUGroup(t *testing.T) *cpuGroup {
	t.Helper()
	name := fmt.Sprintf("brokerbench-hosttest-%d", os.Getpid())
	var cg *cpuGroup
	switch {
	case exists("/sys/fs/cgroup/cpuacct/cpuacct.usage_user"):
		cg = &cpuGroup{dir: filepath.Join("/sys/fs/cgroup/cpuacct", name), v1: true}
	case exists("/sys/fs/cgroup/cgroup.controllers"):
		cg = &cpuGroup{dir: filepath.Join("/sys/fs/cgroup", name)}
	default:
		t.Skip("no cgroup hierarchy that accounts CPU time (v1 cpuacct or v2) is mounted")
	}
	if err := os.Mkdir(cg.dir, 0o755); err != nil {
		t.Skipf("cannot make a cgroup (needs root or a delegated one): %v", err)
	}
	t.Cleanup(func() {
		// The burner has been killed and reaped by now; a group is removed once empty.
		for i := 0; ; i++ {
			err := os.Remove(cg.dir)
			if err == nil || errors.Is(err, os.ErrNotExist) || i == 50 {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
	return cg
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func (cg *cpuGroup) userSeconds(t *testing.T) float64 {
	t.Helper()
	if cg.v1 {
		b, err := os.ReadFile(filepath.Join(cg.dir, "cpuacct.usage_user"))
		if err != nil {
			t.Fatal(err)
		}
		ns, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
		if err != nil {
			t.Fatal(err)
		}
		return ns / 1e9
	}
	b, err := os.ReadFile(filepath.Join(cg.dir, "cpu.stat"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "user_usec "); ok {
			us, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return us / 1e6
		}
	}
	t.Fatalf("no user_usec in %s/cpu.stat", cg.dir)
	return 0
}
