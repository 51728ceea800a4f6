package testpg

// The invocation's shared cluster. `go test ./...` runs one test binary per package,
// each a child of the go command; were each to run initdb and build the loaded
// template itself, those builds would be a large part of the suite's CPU and sit on
// every package's critical path. So the first test process of an invocation builds
// one cluster (initdb and the Prebuild templates) in a cache folder
// under the OS's temporary folder, stops it and marks it ready; every test process then
// copies the stopped data folder and starts its copy on a port of its own, so each
// process still owns its server (fault tests pause, restart and kill it) while the
// builds happen once.
//
// The cache belongs to one invocation: its name holds the go command's pid and start
// time (so a reused pid is a different invocation), the user, and a hash of the server
// binaries and the template keys (a package with other templates gets a cluster of
// its own kind, not a copy of a loaded one; one with none starts its own, see
// errNothingToShare). A reaper process that the builder starts waits
// for the go command to exit and removes the folder, stopping any server a killed test
// process left running in it; folders of invocations that are gone (the reaper died too)
// are removed by the next invocation. Nothing is reused across invocations: a changed
// generator or schema must never meet an old template. Without /proc, outside the go
// command, or when anything about the cache fails, the process runs initdb and starts
// a cluster of its own; a server that cannot start at all still fails the tests.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/brokerbench/brokerbench/internal/pgmanaged"
)

const (
	cachePrefix = "brokerbench-testpg-"
	// reapEnv makes a test binary run as the cache's reaper instead of its tests.
	reapEnv = "BROKERBENCH_TESTPG_REAP"
	// The cache folder's files: the lock, the built cluster, its outcome, the reaper's pid.
	lockName, dataName, readyName, failedName, reaperName = "lock", "data", "ready", "failed", "reaper"
)

// BuildFunc fills the database at dsn with a template's contents.
type BuildFunc func(ctx context.Context, dsn string) error

type prebuilt struct {
	key   string
	build BuildFunc
}

var (
	prebuildMu sync.Mutex
	prebuilds  []prebuilt
)

// Prebuild registers a template that the invocation's shared cluster is built with, so
// that FromTemplate(t, key, ...) finds it already there in every test process. Call it
// from an init function of the package that owns the template (testdb does), before
// any test asks for a server.
func Prebuild(key string, build BuildFunc) {
	prebuildMu.Lock()
	defer prebuildMu.Unlock()
	prebuilds = append(prebuilds, prebuilt{key, build})
}

func prebuiltTemplates() []prebuilt {
	prebuildMu.Lock()
	defer prebuildMu.Unlock()
	p := append([]prebuilt(nil), prebuilds...)
	sort.Slice(p, func(i, j int) bool { return p[i].key < p[j].key })
	return p
}

// invocation is the go command running this test binary: its pid and its start time
// (field 22 of /proc/PID/stat), which together name it even after the pid is reused.
type invocation struct {
	pid   int
	start string
}

// currentInvocation returns the go command that started this process, or an error
// when the parent is something else (a test binary run by hand or by a wrapper shares
// nothing: its parent lives on across runs) or there is no /proc.
func currentInvocation() (invocation, error) {
	ppid := os.Getppid()
	st, ok := procStat(ppid)
	if !ok {
		return invocation{}, errors.New("no /proc to identify the go command")
	}
	if st.Comm != "go" {
		return invocation{}, fmt.Errorf("the test binary's parent is %q, not the go command", st.Comm)
	}
	return invocation{ppid, strconv.FormatUint(st.Starttime, 10)}, nil
}

// startTime returns a process's start time (clock ticks since boot); ok is false when
// the process is gone.
func startTime(pid int) (string, bool) {
	st, ok := procStat(pid)
	return strconv.FormatUint(st.Starttime, 10), ok
}

func (inv invocation) alive() bool {
	s, ok := startTime(inv.pid)
	return ok && s == inv.start
}

// cacheDir names the invocation's cache folder for these binaries and templates.
func cacheDir(inv invocation, binDir string, templates []prebuilt) string {
	h := fnv.New64a()
	fmt.Fprintln(h, binDir)
	// A server upgraded in place keeps its folder: its binary's size and time differ.
	if st, err := os.Stat(filepath.Join(binDir, "postgres")); err == nil {
		fmt.Fprintln(h, st.Size(), st.ModTime().UnixNano())
	}
	for _, p := range templates {
		fmt.Fprintln(h, p.key)
	}
	// Short: the copies' sockets live below it, and sun_path holds about 107 bytes.
	name := fmt.Sprintf("%s%d-%d-%s-%012x", cachePrefix, os.Geteuid(), inv.pid, inv.start, h.Sum64()>>16)
	return filepath.Join(os.TempDir(), name)
}

// parseCacheDir returns the invocation a cache folder of this user belongs to.
func parseCacheDir(name string) (invocation, bool) {
	rest, ok := strings.CutPrefix(name, cachePrefix+strconv.Itoa(os.Geteuid())+"-")
	if !ok {
		return invocation{}, false
	}
	f := strings.Split(rest, "-")
	if len(f) != 3 {
		return invocation{}, false
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil || f[1] == "" {
		return invocation{}, false
	}
	return invocation{pid, f[1]}, true
}

// lockCache opens and locks the cache folder's lock file (syscall.Flock, released when
// the file is closed or the process dies).
func lockCache(dir string, how int) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// openCacheDir creates the cache folder or checks that the existing one is this user's
// own folder: the temporary folder is shared, and another user's planted folder or
// link must not be trusted.
func openCacheDir(dir string) error {
	// 0711: the server's OS user must pass through it to the data folders below.
	if err := os.Mkdir(dir, 0o711); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	if err := checkCacheDir(dir); err != nil {
		return err
	}
	return os.Chmod(dir, 0o711)
}

func checkCacheDir(dir string) error {
	st, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !st.IsDir() || !ok || int(sys.Uid) != os.Geteuid() || st.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%s is not a folder of this user's that only it can write", dir)
	}
	return nil
}

// errNothingToShare: a process whose package registers no template starts its own
// cluster. A bare cluster's copy saves initdb but costs the builder a start and a stop
// and every process a copy: measured on database/postgres (the one such package with a
// server) its tests took 11.4 CPU-s through the cache against 8.9 on their own.
var errNothingToShare = errors.New("no Prebuild template to share")

// startShared starts this process's copy of the invocation's shared cluster, building
// the cluster first when no process of the invocation has. It returns the copy's
// folder, which the caller removes once the cluster is stopped.
func startShared(ctx context.Context) (*pgmanaged.Cluster, string, error) {
	templates := prebuiltTemplates()
	if len(templates) == 0 {
		return nil, "", errNothingToShare
	}
	inv, err := currentInvocation()
	if err != nil {
		return nil, "", err
	}
	binDir, err := pgmanaged.FindBinaries()
	if err != nil {
		return nil, "", err
	}
	removeStale()
	dir := cacheDir(inv, binDir, templates)
	if err := openCacheDir(dir); err != nil {
		return nil, "", err
	}
	lock, err := lockCache(dir, syscall.LOCK_EX)
	if err != nil {
		return nil, "", err
	}
	defer lock.Close()
	if err := ensureBuilt(ctx, dir, inv, templates); err != nil {
		return nil, "", err
	}
	// Copies may run side by side; only a build (or the reaper) needs the folder alone.
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_SH); err != nil {
		return nil, "", err
	}
	cp, err := copyData(ctx, dir, dir, "c")
	if err != nil {
		return nil, "", err
	}
	lock.Close()
	// A stopped managed cluster started in a new folder takes a free port, writes its
	// settings (port, socket folder) and password file afresh: copies never collide.
	c, err := pgmanaged.Start(ctx, pgmanaged.Options{DataDir: cp})
	if err != nil {
		os.RemoveAll(cp)
		return nil, "", fmt.Errorf("start the copy of the shared cluster: %w", err)
	}
	return c, cp, nil
}

// copyData copies the cache's stopped cluster into a new folder of parent (named
// from prefix) and returns the folder; the caller holds the cache's lock, shared.
func copyData(ctx context.Context, cache, parent, prefix string) (string, error) {
	dir, err := os.MkdirTemp(parent, prefix)
	if err != nil {
		return "", err
	}
	// cp -a keeps owners and modes: as root the files stay the server's user's, and the
	// password file stays ours (pgmanaged refuses one that is not).
	if out, err := exec.CommandContext(ctx, "cp", "-a", filepath.Join(cache, dataName)+"/.", dir).CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("copy the shared cluster: %v: %s", err, bytes.TrimSpace(out))
	}
	return dir, nil
}

// ensureBuilt builds the cache's cluster unless a process of the invocation already
// has (the caller holds the lock). A failed build is recorded, so that the other
// processes go their own way at once instead of failing the same build again.
func ensureBuilt(ctx context.Context, dir string, inv invocation, templates []prebuilt) error {
	if _, err := os.Stat(filepath.Join(dir, readyName)); err == nil {
		return nil
	}
	if b, err := os.ReadFile(filepath.Join(dir, failedName)); err == nil {
		return fmt.Errorf("the shared cluster's build failed in another test process: %s", b)
	}
	if _, err := os.Stat(filepath.Join(dir, reaperName)); err != nil {
		if err := startReaper(dir); err != nil {
			return fmt.Errorf("start the cache's reaper: %w", err)
		}
	}
	data := filepath.Join(dir, dataName)
	// A builder killed halfway left a partial cluster, perhaps still running.
	stopServerIn(data)
	if err := os.RemoveAll(data); err != nil {
		return err
	}
	start := time.Now()
	err := build(ctx, data, templates)
	if err != nil {
		_ = os.WriteFile(filepath.Join(dir, failedName), []byte(err.Error()), 0o600)
		return fmt.Errorf("build the shared cluster: %w", err)
	}
	fmt.Fprintf(os.Stderr, "testpg: built the shared cluster %s in %s\n", dir, time.Since(start).Round(time.Millisecond))
	return os.WriteFile(filepath.Join(dir, readyName), nil, 0o600)
}

// build makes the cluster in data, builds the templates into it and stops it cleanly
// (a shutdown checkpoint: the copies start from consistent files).
func build(ctx context.Context, data string, templates []prebuilt) error {
	c, err := pgmanaged.Start(ctx, pgmanaged.Options{DataDir: data})
	if err != nil {
		return err
	}
	for _, p := range templates {
		if _, err := ensureTemplate(ctx, c.URL("postgres"), p.key, p.build); err != nil {
			_ = c.Stop()
			return err
		}
	}
	if err := c.Stop(); err != nil {
		return err
	}
	// The copies write logs of their own.
	_ = os.Remove(filepath.Join(data, "server.log"))
	trimWAL(ctx, c.BinDir, data)
	return nil
}

// trimWAL removes the WAL segments a cleanly stopped cluster does not need: all but
// the one holding its last checkpoint. After the template's load the server keeps
// hundreds of megabytes of recycled segments for later use, which every copy would
// otherwise copy; a missing future segment is simply created when needed. When the
// checkpoint's segment cannot be read nothing is removed.
func trimWAL(ctx context.Context, binDir, data string) {
	out, err := exec.CommandContext(ctx, filepath.Join(binDir, "pg_controldata"), data).Output()
	if err != nil {
		return
	}
	var redo string
	for _, line := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "Latest checkpoint's REDO WAL file" {
			redo = strings.TrimSpace(v)
		}
	}
	if !walSegment(redo) || !strings.Contains(string(out), "shut down") {
		return
	}
	wal := filepath.Join(data, "pg_wal")
	entries, _ := os.ReadDir(wal)
	for _, e := range entries {
		if walSegment(e.Name()) && e.Name() != redo && e.Type().IsRegular() {
			_ = os.Remove(filepath.Join(wal, e.Name()))
		}
	}
}

// walSegment reports whether name is a WAL segment's file name (24 hex digits).
func walSegment(name string) bool {
	if len(name) != 24 {
		return false
	}
	for _, r := range name {
		if !(r >= '0' && r <= '9' || r >= 'A' && r <= 'F') {
			return false
		}
	}
	return true
}
