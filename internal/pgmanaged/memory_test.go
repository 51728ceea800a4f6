package pgmanaged

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/internal/memcap"
)

func TestSharedBuffersFor(t *testing.T) {
	for capBytes, want := range map[int64]string{256 << 20: "'65536kB'", 120 << 20: "'30720kB'", 32 << 20: "'16384kB'"} {
		if got := SharedBuffersFor(capBytes); got != want {
			t.Errorf("SharedBuffersFor(%d) = %s, want %s", capBytes, got, want)
		}
	}
	if err := CheckMemoryCap(64 << 20); err == nil || !strings.Contains(err.Error(), "64 MiB is below") {
		t.Errorf("a 64 MB cap: %v", err)
	}
	if CheckMemoryCap(0) != nil || CheckMemoryCap(MinMemoryCap) != nil {
		t.Error("0 or the minimum refused")
	}
	s := withMemorySettings(map[string]string{"shared_buffers": "'1GB'"}, 256<<20)
	if s["shared_buffers"] != "'1GB'" {
		t.Errorf("a given shared_buffers was replaced: %v", s)
	}
	if s["maintenance_work_mem"] != "'32MB'" || MaintenanceWorkMemFor(32<<20) != "'8MB'" {
		t.Errorf("maintenance_work_mem under a 256 MB cap: %v, want an eighth of it", s)
	}
	if s := withMemorySettings(map[string]string{"maintenance_work_mem": "'1GB'"}, 256<<20); s["maintenance_work_mem"] != "'1GB'" {
		t.Errorf("a given maintenance_work_mem was replaced: %v", s)
	}
}

// needCgroup skips with one line where no memory cgroup can be made.
func needCgroup(t *testing.T) {
	t.Helper()
	if _, err := FindBinaries(); err != nil {
		t.Skip("no PostgreSQL server binaries: ", err)
	}
	if _, err := memcap.Find(); err != nil {
		t.Skipf("no usable memory cgroup on this machine: %v", err)
	}
}

// TestCappedServerLifecycle starts a capped server: every server process runs in
// the group, shared_buffers follows the cap, and Stop removes the group.
func TestCappedServerLifecycle(t *testing.T) {
	needCgroup(t)
	c, err := Start(context.Background(), Options{MemoryCap: 192 << 20})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			c.Stop()
		}
	}()
	dir := c.MemoryGroup()
	if dir == "" || c.MemoryCap != 192<<20 {
		t.Fatalf("group %q cap %d", dir, c.MemoryCap)
	}
	pid, err := c.PostmasterPID()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := memcap.GroupOf(pid); err != nil {
		t.Fatal(err)
	} else if !strings.HasSuffix(dir, got) || got == "/" {
		t.Errorf("postmaster in cgroup %s, want %s", got, dir)
	}
	if got, err := memcap.GroupOf(os.Getpid()); err != nil {
		t.Fatal(err)
	} else if strings.HasSuffix(dir, got) {
		t.Errorf("this process stayed in the server's group %s", got)
	}
	g := memcap.OpenExisting(dir)
	pids, _ := g.Procs()
	if len(pids) < 3 { // postmaster, checkpointer, background writer, ...
		t.Errorf("group holds %v, want the postmaster and its children", pids)
	}
	if psql, err := exec.LookPath("psql"); err == nil {
		out, err := exec.Command(psql, c.URL(""), "-Atc", "show shared_buffers").CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "48MB" {
			t.Errorf("shared_buffers: %v %q, want a quarter of the cap", err, out)
		}
	}
	// A later process (pg stop) finds the group from the state file.
	b, _ := os.ReadFile(filepath.Join(c.Dir, stateFile))
	if !strings.Contains(string(b), dir) {
		t.Errorf("state file %s lacks the group", b)
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	stopped = true
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("group %s still there after Stop: %v", dir, err)
	}
}

// TestCappedServerAfterCrash kills a capped kept cluster's every process, as a
// crash of the machine's processes would, and starts it again: the stale group of
// its data directory is reused and removed by the next Stop.
func TestCappedServerAfterCrash(t *testing.T) {
	needCgroup(t)
	// The server's user must reach the folder: t.TempDir's parents are private.
	base, err := os.MkdirTemp("", "bb-capped-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	os.Chmod(base, 0o755)
	dataDir := filepath.Join(base, "kept")
	c, err := Start(context.Background(), Options{DataDir: dataDir, MemoryCap: 192 << 20})
	if err != nil {
		t.Fatal(err)
	}
	dir := c.MemoryGroup()
	g := memcap.OpenExisting(dir)
	postmaster, err := c.PostmasterPID()
	if err != nil {
		t.Fatal(err)
	}
	pids, _ := g.Procs()
	for _, p := range pids {
		syscall.Kill(p, syscall.SIGKILL)
	}
	// Gone means reaped too: pg_ctl takes a zombie postmaster for a running one.
	for i := 0; ; i++ {
		left, _ := g.Procs()
		if len(left) == 0 && syscall.Kill(postmaster, 0) == syscall.ESRCH {
			break
		}
		if i > 1200 {
			t.Fatalf("server processes %v (postmaster %d) still there 60 s after SIGKILL", left, postmaster)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the crash left no group: %v", err)
	}
	c2, err := Start(context.Background(), Options{DataDir: dataDir, MemoryCap: 224 << 20})
	if err != nil {
		t.Fatalf("start after the crash: %v", err)
	}
	if c2.MemoryGroup() != dir {
		t.Errorf("new group %s, want the stale %s reused", c2.MemoryGroup(), dir)
	}
	if lim, _ := memcap.OpenExisting(dir).Limit(); lim != 224<<20 {
		t.Errorf("reused group's limit %d", lim)
	}
	// pg stop in another process: Attach reads the group from the state file.
	a, err := Attach(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	if a.MemoryCap != 224<<20 || a.MemoryGroup() != dir {
		t.Errorf("attached cap %d group %s", a.MemoryCap, a.MemoryGroup())
	}
	if err := a.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("group %s still there after pg stop: %v", dir, err)
	}
}

// TestCapTooSmallRefused: a cap that cannot hold the server's own shared memory is
// refused before the start, with what is needed, instead of a run whose postmaster
// the OOM killer ends.
func TestCapTooSmallRefused(t *testing.T) {
	needCgroup(t)
	c, err := Start(context.Background(), Options{MemoryCap: 120 << 20})
	if err == nil {
		c.Stop()
		if bin, _ := FindBinaries(); versionOf(bin) > 0 && versionOf(bin) < 15 {
			t.Skip("PostgreSQL before 15 cannot report its shared memory (shared_memory_size), so the cap is not checked")
		}
		t.Fatal("a 120 MB cap with 500 connections started")
	}
	var small *capTooSmallError
	if !errors.As(err, &small) {
		t.Fatalf("error %v, want the cap refused as too small", err)
	}
	for _, want := range []string{"too small", "shared memory alone takes", "give at least"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
}
