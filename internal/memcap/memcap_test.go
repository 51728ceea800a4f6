package memcap

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Mount tables as the two kinds of machine show them.
const (
	mountsV1 = `30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
37 30 0:34 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio
40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
`
	selfV1   = "7:blkio:/\n4:memory:/sessions/abc\n0::/\n"
	mountsV2 = `25 1 0:22 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot
`
	selfV2 = "0::/user.slice/user-1000.slice/session-2.scope\n"
)

func TestParseController(t *testing.T) {
	files := map[string]string{
		"/sys/fs/cgroup/unified/cgroup.controllers": "hugetlb\n",
		"/sys/fs/cgroup/cgroup.controllers":         "cpuset cpu io memory hugetlb pids rdma misc\n",
	}
	read := func(p string) ([]byte, error) {
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	}
	c, err := parseController(mountsV1, selfV1, read)
	if err != nil {
		t.Fatal(err)
	}
	// v2 is mounted but holds no memory controller here: v1 it is, nested under our own group.
	if c.Version != 1 || c.Mount != "/sys/fs/cgroup/memory" || c.Parent != "/sys/fs/cgroup/memory/sessions/abc" || c.self != c.Parent {
		t.Errorf("v1: %+v", c)
	}
	c, err = parseController(mountsV2, selfV2, read)
	if err != nil {
		t.Fatal(err)
	}
	if c.Version != 2 || c.Parent != "/sys/fs/cgroup" || c.self != "/sys/fs/cgroup/user.slice/user-1000.slice/session-2.scope" {
		t.Errorf("v2: %+v", c)
	}
	files["/sys/fs/cgroup/cgroup.controllers"] = "cpu io pids\n"
	_, err = parseController(mountsV2, selfV2, read)
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "no cgroup memory controller") {
		t.Errorf("no memory controller: %v", err)
	}
}

func TestNameForIsStable(t *testing.T) {
	a, b := NameFor("pg", "/srv/bb"), NameFor("pg", "/srv/bb/")
	if a != b || !strings.HasPrefix(a, Prefix+"pg-") || NameFor("pg", "/srv/other") == a {
		t.Errorf("%s %s", a, b)
	}
	// The server's kind is in the name: a MariaDB's group does not read as a PostgreSQL's.
	if m := NameFor("mariadb", "/srv/bb"); !strings.HasPrefix(m, Prefix+"mariadb-") || m == a {
		t.Errorf("MariaDB's group %s, PostgreSQL's %s", m, a)
	}
}

// controller returns the machine's memory controller, or skips the test with one
// line saying why the cgroup tests cannot run here.
func controller(t *testing.T) *Controller {
	t.Helper()
	c, err := Find()
	if err != nil {
		t.Skipf("no usable memory cgroup on this machine: %v", err)
	}
	return c
}

// cgroupOf returns pid's cgroup directory in c's hierarchy.
func cgroupOf(t *testing.T, c *Controller, pid int) string {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/cgroup", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if (c.Version == 2 && parts[0] == "0") || (c.Version == 1 && strings.Contains(","+parts[1]+",", ",memory,")) {
			return filepath.Join(c.Mount, parts[2])
		}
	}
	t.Fatalf("pid %d: no cgroup in the memory hierarchy", pid)
	return ""
}

func testName(t *testing.T) string {
	return fmt.Sprintf("%stest-%d-%d", Prefix, os.Getpid(), time.Now().UnixNano()%1e6)
}

func TestGroupLifecycle(t *testing.T) {
	c := controller(t)
	name := testName(t)
	g, err := c.Open(name, 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Remove() })
	if lim, err := g.Limit(); err != nil || lim != 64<<20 {
		t.Errorf("limit %d, %v", lim, err)
	}
	checkSwapCapped(t, g, 64<<20)
	// Raised and lowered again (a stale group reused with another cap): swap follows.
	for _, lim := range []int64{96 << 20, 48 << 20} {
		if err := g.SetLimit(lim); err != nil {
			t.Fatal(err)
		}
		checkSwapCapped(t, g, lim)
	}
	before := cgroupOf(t, c, os.Getpid())
	child := exec.Command("sleep", "60")
	if err := g.Start(child); err != nil {
		t.Fatal(err)
	}
	defer func() { child.Process.Kill(); child.Wait() }()
	if got := cgroupOf(t, c, child.Process.Pid); got != g.Dir {
		t.Errorf("child runs in %s, want %s", got, g.Dir)
	}
	if got := cgroupOf(t, c, os.Getpid()); got != before {
		t.Errorf("this process stayed in %s, want it back in %s", got, before)
	}
	if pids, _ := g.Procs(); len(pids) != 1 || pids[0] != child.Process.Pid {
		t.Errorf("procs %v, want [%d]", pids, child.Process.Pid)
	}
	// A second server of the same data directory must not join a live group.
	if _, err := c.Open(name, 64<<20); err == nil || !strings.Contains(err.Error(), "still holds processes") {
		t.Errorf("open of a busy group: %v", err)
	}
	child.Process.Kill()
	child.Wait()
	if err := g.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(g.Dir); !os.IsNotExist(err) {
		t.Errorf("group %s still there after Remove: %v", g.Dir, err)
	}
	if err := g.Remove(); err != nil {
		t.Errorf("second Remove: %v", err)
	}
}

// TestStaleGroupAfterCrash kills a process that made a group and started a child in
// it, as a crash or a second Ctrl-C would, then checks that the next start reuses
// the leftover by name and that RemoveStale clears leftovers of other names.
func TestStaleGroupAfterCrash(t *testing.T) {
	c0 := controller(t)
	fresh, err := c0.Open(testName(t)+"fresh", 32<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Remove()
	// A group just made by another start, not yet joined, is not a leftover.
	if removed, err := c0.RemoveStale("", time.Minute); err != nil || slices.Contains(removed, fresh.Dir) {
		t.Fatalf("RemoveStale with an age guard removed a fresh group: %v, %v", removed, err)
	}

	c := controller(t)
	names := []string{testName(t) + "a", testName(t) + "b"}
	for _, name := range names {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$")
		cmd.Env = append(os.Environ(), "BROKERBENCH_MEMCAP_HELPER="+name)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(out).ReadString('\n')
		if !strings.HasPrefix(line, "ready") {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			cmd.Wait()
			t.Fatalf("helper said %q", line)
		}
		// The crash: the helper and its child die without cleaning up.
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	}
	dirs := []string{filepath.Join(c.Parent, names[0]), filepath.Join(c.Parent, names[1])}
	t.Cleanup(func() {
		for _, d := range dirs {
			_ = (&Group{Dir: d}).Remove()
		}
	})
	for _, d := range dirs {
		if _, err := os.Stat(d); err != nil {
			t.Fatalf("the crash left no group %s: %v", d, err)
		}
	}
	// Killed processes leave their group asynchronously.
	waitEmpty(t, &Group{Dir: dirs[0]})
	waitEmpty(t, &Group{Dir: dirs[1]})
	// Leftovers of a crash two hours ago. The sweep below keeps its age guard: the
	// machine's other brokerbench processes (other test packages meanwhile) have
	// empty groups they have just made or reused and not yet joined.
	old := time.Now().Add(-2 * time.Hour)
	for _, d := range dirs {
		if err := os.Chtimes(d, old, old); err != nil {
			t.Fatal(err)
		}
	}
	g, err := c.Open(names[0], 32<<20)
	if err != nil {
		t.Fatalf("reuse of the stale group: %v", err)
	}
	if lim, _ := g.Limit(); lim != 32<<20 {
		t.Errorf("reused group's limit %d, want the new cap", lim)
	}
	// No name kept: the reused group, not yet joined, is spared by its age alone.
	removed, err := c.RemoveStale("", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range removed {
		found = found || r == dirs[1]
		if r == dirs[0] {
			t.Errorf("RemoveStale removed the group Open has just reused, %s", r)
		}
	}
	if !found {
		t.Errorf("RemoveStale removed %v, not the leftover %s", removed, dirs[1])
	}
	if err := g.Remove(); err != nil {
		t.Fatal(err)
	}
}

func waitEmpty(t *testing.T, g *Group) {
	t.Helper()
	for i := 0; ; i++ {
		pids, err := g.Procs()
		if err == nil && len(pids) == 0 {
			return
		}
		if i > 600 {
			t.Fatalf("group %s still holds %v", g.Dir, pids)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestCrashHelper is the process the crash test kills: it makes a group, starts a
// child in it and waits to be killed.
func TestCrashHelper(t *testing.T) {
	name := os.Getenv("BROKERBENCH_MEMCAP_HELPER")
	if name == "" {
		t.Skip("helper process of TestStaleGroupAfterCrash")
	}
	c, err := Find()
	if err != nil {
		fmt.Println("error", err)
		return
	}
	g, err := c.Open(name, 64<<20)
	if err != nil {
		fmt.Println("error", err)
		return
	}
	if err := g.Start(exec.Command("sleep", "60")); err != nil {
		fmt.Println("error", err)
		return
	}
	fmt.Println("ready")
	time.Sleep(time.Minute)
}

// TestEvict checks that a file's cached pages are gone after Evict.
func TestEvict(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "f")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, make([]byte, 8<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.ReadFile(p); err != nil {
		t.Fatal(err)
	}
	before, err := ResidentBytes(p)
	if err != nil {
		t.Fatal(err)
	}
	if before == 0 {
		t.Skip("this filesystem keeps no page cache for the file (mincore shows nothing resident)")
	}
	n, err := Evict(dir)
	if err != nil || n != 1 {
		t.Fatalf("Evict: %d files, %v", n, err)
	}
	after, _ := ResidentBytes(p)
	if after > before/8 {
		t.Errorf("resident %d bytes before Evict, %d after", before, after)
	}
}

// TestCapChargesPageCache reads a file twice the cap from inside a group: the page
// cache it faults in is charged to the group, so at most about the cap stays cached.
func TestCapChargesPageCache(t *testing.T) {
	c := controller(t)
	const capBytes = 32 << 20
	g := testGroup(t, c, capBytes)
	p := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(p, make([]byte, 2*capBytes), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Evict(filepath.Dir(p)); err != nil {
		t.Fatal(err)
	}
	cat := exec.Command("cat", p)
	if err := g.Start(cat); err != nil {
		t.Fatal(err)
	}
	if err := cat.Wait(); err != nil {
		t.Fatal(err)
	}
	resident, _ := ResidentBytes(p)
	peak, err := g.PeakBytes()
	if err != nil {
		t.Fatal(err)
	}
	if peak <= 0 || peak > capBytes {
		t.Errorf("peak %d bytes, want within the cap %d", peak, capBytes)
	}
	if resident > capBytes+capBytes/4 {
		t.Errorf("%d bytes of a %d-byte file stayed cached under a %d-byte cap", resident, 2*capBytes, capBytes)
	}
	waitEmpty(t, g)
}

// checkSwapCapped: where the kernel accounts swap, the group may not swap beyond
// its cap (v1: memory plus swap equals the cap; v2: no swap).
func checkSwapCapped(t *testing.T, g *Group, limit int64) {
	t.Helper()
	v, ok, err := g.SwapLimit()
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Logf("no swap accounting in %s: nothing to cap", g.Dir)
		return
	}
	want := limit
	if g.Version == 2 {
		want = 0
	}
	if v != want {
		t.Errorf("swap limit %d with a cap of %d, want %d", v, limit, want)
	}
}

// TestExistingGroupJoinedByALaterProcess: a group recorded by one process (pg start)
// is joined by a later one (load's restart with the load settings) through
// Controller.Existing; the bare OpenExisting cannot join it.
func TestExistingGroupJoinedByALaterProcess(t *testing.T) {
	c := controller(t)
	g := testGroup(t, c, 64<<20)
	if err := OpenExisting(g.Dir).Start(exec.Command("true")); err == nil {
		t.Error("a group without its controller was joined")
	}
	later, err := Find() // what a later process finds
	if err != nil {
		t.Fatal(err)
	}
	child := exec.Command("sleep", "60")
	if err := later.Existing(g.Dir).Start(child); err != nil {
		t.Fatal(err)
	}
	defer func() { child.Process.Kill(); child.Wait() }()
	if got := cgroupOf(t, c, child.Process.Pid); got != g.Dir {
		t.Errorf("child runs in %s, want %s", got, g.Dir)
	}
	if later.Existing(filepath.Join(g.Dir, "gone")) != nil {
		t.Error("a group that is not there was returned")
	}
}

// TestOOMKillsCounted runs a process that touches more memory than its group's cap:
// the kernel's OOM killer ends it, and the group counts the kill.
func TestOOMKillsCounted(t *testing.T) {
	c := controller(t)
	const capBytes = 32 << 20
	g := testGroup(t, c, capBytes)
	if n, err := g.OOMKills(); err != nil || n != 0 {
		t.Fatalf("a new group counts %d OOM kills (%v), want 0", n, err)
	}
	hog := exec.Command(os.Args[0], "-test.run=^TestHogHelper$")
	hog.Env = append(os.Environ(), fmt.Sprintf("BROKERBENCH_MEMCAP_HOG=%d", 8*capBytes))
	if err := g.Start(hog); err != nil {
		t.Fatal(err)
	}
	err := hog.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("a process touching 8 times its group's cap ended with %v, want killed", err)
	}
	if n, err := g.OOMKills(); err != nil || n != 1 {
		t.Errorf("the group counts %d OOM kills (%v), want 1", n, err)
	}
}

// TestHogHelper is the process TestOOMKillsCounted caps: it touches every page of
// the bytes it is told to take.
func TestHogHelper(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("BROKERBENCH_MEMCAP_HOG"))
	if err != nil {
		t.Skip("helper process of TestOOMKillsCounted")
	}
	b := make([]byte, n)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	fmt.Println(len(b))
}

// TestOnlyTheChildJoins: while a child started in a group runs, this process is
// not in the group, so nothing else it forks meanwhile (another server's start, in
// tests that run side by side) is capped with it.
func TestOnlyTheChildJoins(t *testing.T) {
	c := controller(t)
	g := testGroup(t, c, 64<<20)
	var out strings.Builder
	// The child reads its parent's group, then its own, while the parent waits.
	probe := exec.Command("sh", "-c", "cat /proc/$PPID/cgroup; echo; cat /proc/self/cgroup")
	probe.Stdout = &out
	if err := g.Start(probe); err != nil {
		t.Fatal(err)
	}
	if err := probe.Wait(); err != nil {
		t.Fatal(err)
	}
	parent, self, _ := strings.Cut(out.String(), "\n\n")
	rel := strings.TrimPrefix(g.Dir, c.Mount)
	if !strings.Contains(self, rel+"\n") {
		t.Errorf("the child is not in %s:\n%s", rel, self)
	}
	if strings.Contains(parent, rel+"\n") {
		t.Errorf("this process was in the child's group %s while the child ran:\n%s", rel, parent)
	}
}

// testGroup opens a group of its own for the test, removed after it.
func testGroup(t *testing.T, c *Controller, limit int64) *Group {
	t.Helper()
	g, err := c.Open(testName(t), limit)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Remove() })
	return g
}
