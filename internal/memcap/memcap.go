package memcap

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// ErrUnavailable is wrapped by every error that means the cap cannot be applied on
// this machine or by this user; its message says what is needed.
var ErrUnavailable = errors.New("cannot cap the server's memory")

// Prefix starts the name of every group this package makes, so leftovers can be
// recognised and never mistaken for someone else's. The server's kind follows it
// (NameFor), so an administrator listing the groups sees which database each holds.
const Prefix = "brokerbench-"

// Controller is the memory controller of this machine and where this process sits
// in it.
type Controller struct {
	// Version is 1 (memory.limit_in_bytes) or 2 (memory.max).
	Version int
	// Mount is the hierarchy's mount point, e.g. /sys/fs/cgroup/memory (v1) or
	// /sys/fs/cgroup (v2).
	Mount string
	// Parent is the directory new groups are made in: on v1 this process's own
	// memory cgroup, so the server stays inside whatever limits and accounting the
	// caller already runs under; on v2 the hierarchy's root, because a v2 cgroup
	// that holds processes cannot hand the memory controller to children.
	Parent string
	// self is this process's cgroup directory, where Run returns it to.
	self string
}

// Find locates the memory controller from /proc/self/mountinfo and /proc/self/cgroup.
func Find() (*Controller, error) {
	mi, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil, fmt.Errorf("%w: read /proc/self/mountinfo: %v", ErrUnavailable, err)
	}
	cg, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil, fmt.Errorf("%w: read /proc/self/cgroup: %v", ErrUnavailable, err)
	}
	c, err := parseController(string(mi), string(cg), func(p string) ([]byte, error) { return os.ReadFile(p) })
	if err != nil {
		return nil, err
	}
	if err := checkWritable(c.Parent); err != nil {
		return nil, err
	}
	return c, nil
}

// parseController picks the hierarchy: v2 when its root lists the memory controller,
// else the v1 hierarchy mounted with the memory option.
func parseController(mountinfo, selfCgroup string, read func(string) ([]byte, error)) (*Controller, error) {
	var v1, v2 string
	for _, line := range strings.Split(mountinfo, "\n") {
		// id parent maj:min root mountpoint options [optional...] - fstype source superopts
		pre, post, ok := strings.Cut(line, " - ")
		if !ok {
			continue
		}
		f, pf := strings.Fields(pre), strings.Fields(post)
		if len(f) < 5 || len(pf) < 3 {
			continue
		}
		switch pf[0] {
		case "cgroup2":
			if v2 == "" {
				v2 = f[4]
			}
		case "cgroup":
			for _, o := range strings.Split(pf[2], ",") {
				if o == "memory" {
					v1 = f[4]
				}
			}
		}
	}
	selfV1, selfV2 := memoryPaths(selfCgroup)
	if v2 != "" {
		if b, err := read(filepath.Join(v2, "cgroup.controllers")); err == nil && hasWord(string(b), "memory") {
			return &Controller{Version: 2, Mount: v2, Parent: v2, self: filepath.Join(v2, selfV2)}, nil
		}
	}
	if v1 != "" && selfV1 != "" {
		self := filepath.Join(v1, selfV1)
		return &Controller{Version: 1, Mount: v1, Parent: self, self: self}, nil
	}
	return nil, fmt.Errorf("%w: this machine has no cgroup memory controller (neither cgroup v2 with \"memory\" in cgroup.controllers nor a v1 memory hierarchy is mounted)", ErrUnavailable)
}

// memoryPaths reads a /proc/PID/cgroup: the process's path in the v1 memory
// hierarchy and in the v2 one, each "" when it has none.
func memoryPaths(cgroup string) (v1, v2 string) {
	for _, line := range strings.Split(cgroup, "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			v2 = parts[2]
		}
		for _, ctl := range strings.Split(parts[1], ",") {
			if ctl == "memory" {
				v1 = parts[2]
			}
		}
	}
	return v1, v2
}

// GroupOf is process pid's memory cgroup, as a path in its hierarchy: the v1 memory
// hierarchy's when there is one, else the v2 one's. Tests use it to see where a
// server runs.
func GroupOf(pid int) (string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	if err != nil {
		return "", err
	}
	v1, v2 := memoryPaths(string(b))
	if v1 != "" {
		return v1, nil
	}
	return v2, nil
}

func hasWord(s, w string) bool {
	for _, f := range strings.Fields(s) {
		if f == w {
			return true
		}
	}
	return false
}

func checkWritable(dir string) error {
	if err := unix.Access(dir, unix.W_OK); err != nil {
		return fmt.Errorf("%w: cannot make a memory cgroup in %s (%v); run as root, or give this user a delegated cgroup "+
			"(for example `systemd-run --user --scope -p Delegate=yes brokerbench ...`)", ErrUnavailable, dir, err)
	}
	return nil
}

// NameFor is the group name of the server of kind ("pg", "mariadb") in dataDir:
// stable, so the next start after a crash finds the group its predecessor left.
func NameFor(kind, dataDir string) string {
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		abs = dataDir
	}
	sum := sha256.Sum256([]byte(abs))
	return Prefix + kind + "-" + hex.EncodeToString(sum[:6])
}

// Group is one memory cgroup.
type Group struct {
	Dir     string
	Version int
	ctl     *Controller
}

func (g *Group) limitFile() string {
	if g.Version == 2 {
		return "memory.max"
	}
	return "memory.limit_in_bytes"
}

// swapFile caps swap: v1's memory plus swap, v2's swap alone (see SetLimit).
func (g *Group) swapFile() string {
	if g.Version == 1 {
		return "memory.memsw.limit_in_bytes"
	}
	return "memory.swap.max"
}

// Open makes the group name under the controller's parent with a cap of limit
// bytes, or reuses an existing one of that name (a crash's leftover) and sets its
// cap. A group that still holds processes belongs to a running server: Open refuses
// it rather than add a second server to it.
func (c *Controller) Open(name string, limit int64) (*Group, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("memory cap must be positive, got %d", limit)
	}
	if !strings.HasPrefix(name, Prefix) || strings.ContainsRune(name, '/') {
		return nil, fmt.Errorf("memory cgroup name %q: want %s followed by no slash", name, Prefix)
	}
	if c.Version == 2 {
		if err := enableMemory(c.Parent); err != nil {
			return nil, err
		}
	}
	g := &Group{Dir: filepath.Join(c.Parent, name), Version: c.Version, ctl: c}
	if err := os.Mkdir(g.Dir, 0o755); errors.Is(err, os.ErrExist) {
		// A leftover is as old as its crash: made young again, another brokerbench's
		// RemoveStale spares it until this one has joined it (Start).
		now := time.Now()
		if err := os.Chtimes(g.Dir, now, now); err != nil {
			return nil, fmt.Errorf("reuse memory cgroup %s: %w", g.Dir, err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("%w: make memory cgroup %s: %v", ErrUnavailable, g.Dir, err)
	}
	pids, err := g.Procs()
	if err != nil {
		return nil, err
	}
	if len(pids) > 0 {
		return nil, fmt.Errorf("memory cgroup %s still holds processes %v (a server of this data directory is running)", g.Dir, pids)
	}
	if err := g.SetLimit(limit); err != nil {
		return nil, err
	}
	return g, nil
}

// enableMemory makes sure children of dir get the memory controller (v2).
func enableMemory(dir string) error {
	p := filepath.Join(dir, "cgroup.subtree_control")
	b, err := os.ReadFile(p)
	if err == nil && hasWord(string(b), "memory") {
		return nil
	}
	if err := os.WriteFile(p, []byte("+memory"), 0o644); err != nil {
		return fmt.Errorf("%w: enable the memory controller for children of %s: %v", ErrUnavailable, dir, err)
	}
	return nil
}

// Existing returns the group at dir (recorded in a state file by an earlier
// process) joined to c, so this process can run a restart inside it (Start); nil when
// it is gone. A group of another hierarchy than c's is returned without c: it can
// be read and removed, not joined.
func (c *Controller) Existing(dir string) *Group {
	g := OpenExisting(dir)
	if g == nil {
		return nil
	}
	if g.Version == c.Version && strings.HasPrefix(dir, c.Mount+string(filepath.Separator)) {
		g.ctl = c
	}
	return g
}

// OpenExisting returns the group at dir (recorded in a state file), or nil when it
// is gone.
func OpenExisting(dir string) *Group {
	if dir == "" {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, "cgroup.procs")); err != nil {
		return nil
	}
	v := 1
	if _, err := os.Stat(filepath.Join(dir, "memory.max")); err == nil {
		v = 2
	}
	return &Group{Dir: dir, Version: v}
}

// SetLimit sets the cap in bytes, swap included: without that, on a machine with
// swap the group's pages beyond the cap would go to the swap device, which no
// figure of the run counts, rather than be dropped and read again from the data's
// disks. cgroup v1 caps memory plus swap in memory.memsw.limit_in_bytes (present
// when the kernel accounts swap), which may never be below memory.limit_in_bytes,
// so the two are written in the order that keeps that true; v2 caps swap apart, in
// memory.swap.max, set to 0. A kernel without swap accounting has neither file,
// and no swap to lose pages to through the group.
func (g *Group) SetLimit(limit int64) error {
	write := func(name string, v string) error {
		p := filepath.Join(g.Dir, name)
		if err := os.WriteFile(p, []byte(v), 0o644); err != nil {
			return fmt.Errorf("set %s to %s: %w", p, v, err)
		}
		return nil
	}
	lim := strconv.FormatInt(limit, 10)
	swapFile, swapValue := g.swapFile(), "0"
	if g.Version == 1 {
		swapValue = lim
	}
	_, err := os.Stat(filepath.Join(g.Dir, swapFile))
	hasSwap := err == nil
	if g.Version == 1 && hasSwap {
		if cur, err := g.Limit(); err == nil && cur >= 0 && limit > cur {
			// Raising: memsw first, so it never falls below the limit.
			if err := write(swapFile, swapValue); err != nil {
				return err
			}
			return write(g.limitFile(), lim)
		}
	}
	if err := write(g.limitFile(), lim); err != nil {
		return err
	}
	if hasSwap {
		return write(swapFile, swapValue)
	}
	return nil
}

// SwapLimit is the group's swap cap as SetLimit wrote it (v1: memory plus swap; v2:
// swap alone), false when the kernel does not account swap.
func (g *Group) SwapLimit() (int64, bool, error) {
	v, err := readInt(filepath.Join(g.Dir, g.swapFile()))
	if errors.Is(err, os.ErrNotExist) {
		return 0, false, nil
	}
	return v, err == nil, err
}

// Limit reads the cap back; the kernel rounds it down to whole pages.
func (g *Group) Limit() (int64, error) {
	return readInt(filepath.Join(g.Dir, g.limitFile()))
}

// PeakBytes is the most memory the group used (page cache included): v1
// memory.max_usage_in_bytes, v2 memory.peak (5.19+) or else memory.current.
func (g *Group) PeakBytes() (int64, error) {
	if g.Version == 1 {
		return readInt(filepath.Join(g.Dir, "memory.max_usage_in_bytes"))
	}
	if v, err := readInt(filepath.Join(g.Dir, "memory.peak")); err == nil {
		return v, nil
	}
	return readInt(filepath.Join(g.Dir, "memory.current"))
}

func readInt(p string) (int64, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return 0, err
	}
	s := strings.TrimSpace(string(b))
	if s == "max" {
		return -1, nil
	}
	return strconv.ParseInt(s, 10, 64)
}

// OOMKills is how many of the group's processes the kernel's OOM killer has ended
// since the group was made: v1 memory.oom_control's and v2 memory.events' oom_kill
// (kernels from 4.13; older ones have none, and this returns an error).
func (g *Group) OOMKills() (int64, error) {
	name := "memory.oom_control"
	if g.Version == 2 {
		name = "memory.events"
	}
	p := filepath.Join(g.Dir, name)
	b, err := os.ReadFile(p)
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "oom_kill "); ok {
			return strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	return 0, fmt.Errorf("%s: no oom_kill count", p)
}

// Procs lists the processes in the group.
func (g *Group) Procs() ([]int, error) {
	return readPids(filepath.Join(g.Dir, "cgroup.procs"))
}

func readPids(p string) ([]int, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	defer f.Close()
	var pids []int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if n, err := strconv.Atoi(strings.TrimSpace(sc.Text())); err == nil {
			pids = append(pids, n)
		}
	}
	return pids, sc.Err()
}

// Start starts cmd inside the group; every process it forks (the server) inherits
// the group. Only the child joins, never this process: it is started stopped at its
// exec (traced), moved into the group while stopped, and let go. Moving this process
// instead, for the length of the start, would take into the group whatever else it
// forks meanwhile (another server's start, in tests that run commands side by side)
// and charge its own memory there. Where tracing is refused (ptrace disabled), the
// process moves for the fork alone (startMovingSelf).
func (g *Group) Start(cmd *exec.Cmd) error {
	if g.ctl == nil {
		return errors.New("memory cgroup opened without its controller cannot be joined")
	}
	// The tracer is the thread that forks: it must also be the one that lets go.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Ptrace = true
	if err := cmd.Start(); errors.Is(err, syscall.EPERM) {
		cmd.SysProcAttr.Ptrace = false
		return g.startMovingSelf(cmd)
	} else if err != nil {
		return err
	}
	pid := cmd.Process.Pid
	var ws unix.WaitStatus
	if _, err := unix.Wait4(pid, &ws, 0, nil); err != nil || !ws.Stopped() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return fmt.Errorf("%s did not stop at its start to join memory cgroup %s: %v", cmd.Path, g.Dir, err)
	}
	joinErr := os.WriteFile(filepath.Join(g.Dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644)
	if joinErr != nil {
		_ = cmd.Process.Kill() // before it runs a single instruction outside the cap
	}
	detachErr := unix.PtraceDetach(pid)
	switch {
	case joinErr != nil:
		_ = cmd.Wait()
		return fmt.Errorf("join memory cgroup %s: %w", g.Dir, joinErr)
	case detachErr != nil:
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return fmt.Errorf("let %s go after it joined memory cgroup %s: %w", cmd.Path, g.Dir, detachErr)
	}
	return nil
}

// moveMu serialises startMovingSelf: two at once would start one's child in the
// other's group.
var moveMu sync.Mutex

// startMovingSelf moves this process into the group for cmd's fork alone.
func (g *Group) startMovingSelf(cmd *exec.Cmd) error {
	moveMu.Lock()
	defer moveMu.Unlock()
	self := strconv.Itoa(os.Getpid())
	if err := os.WriteFile(filepath.Join(g.Dir, "cgroup.procs"), []byte(self), 0o644); err != nil {
		return fmt.Errorf("join memory cgroup %s: %w", g.Dir, err)
	}
	startErr := cmd.Start()
	if err := os.WriteFile(filepath.Join(g.ctl.self, "cgroup.procs"), []byte(self), 0o644); err != nil {
		// Staying in the group would cap brokerbench itself; say so rather than run on.
		return errors.Join(startErr, fmt.Errorf("leave memory cgroup %s for %s: %w", g.Dir, g.ctl.self, err))
	}
	return startErr
}

// Remove deletes the group. Its processes must have exited; a server's last
// children can take a moment after pg_ctl stop returns, so a busy group is retried
// for a few seconds. A group already gone is not an error.
func (g *Group) Remove() error {
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := unix.Rmdir(g.Dir)
		switch {
		case err == nil || errors.Is(err, unix.ENOENT):
			return nil
		case errors.Is(err, unix.EBUSY) && time.Now().Before(deadline):
			time.Sleep(50 * time.Millisecond)
			continue
		}
		pids, _ := g.Procs()
		return fmt.Errorf("remove memory cgroup %s (processes left: %v): %w", g.Dir, pids, err)
	}
}

// RemoveStale removes every empty group of this package under the controller's
// parent except keep (a name) that is older than olderThan, and returns the
// directories removed: leftovers of servers whose process was killed before it could
// clean up. The age guard spares a group another brokerbench has just made and not
// yet joined (two managed servers starting at once); a real leftover is as old as
// the server that ran in it.
func (c *Controller) RemoveStale(keep string, olderThan time.Duration) ([]string, error) {
	entries, err := os.ReadDir(c.Parent)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), Prefix) || e.Name() == keep {
			continue
		}
		dir := filepath.Join(c.Parent, e.Name())
		if info, err := e.Info(); err != nil || time.Since(info.ModTime()) < olderThan {
			continue
		}
		pids, err := readPids(filepath.Join(dir, "cgroup.procs"))
		if err != nil || len(pids) > 0 {
			continue // a running server's group, or not ours to judge
		}
		if err := unix.Rmdir(dir); err == nil {
			removed = append(removed, dir)
		}
	}
	return removed, nil
}
