package testpg

// The end of an invocation's cache: its reaper, and the removal of caches whose
// invocation is gone (cache.go).

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/brokerbench/brokerbench/internal/pgmanaged"
)

// startReaper starts this test binary again as the cache's reaper, in a session of its
// own (a Ctrl-C aimed at the tests must not end it) with no output (the go command
// waits for its children's output to close).
func startReaper(dir string) error {
	cmd := exec.Command("/proc/self/exe")
	cmd.Env = append(os.Environ(), reapEnv+"="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	pid := cmd.Process.Pid
	_ = cmd.Process.Release()
	return os.WriteFile(filepath.Join(dir, reaperName), []byte(strconv.Itoa(pid)), 0o600)
}

// reap is the reaper's life: wait until the invocation's go command is gone, then
// remove the cache folder.
func reap(dir string) int {
	inv, ok := parseCacheDir(filepath.Base(dir))
	if !ok || filepath.Dir(dir) != filepath.Clean(os.TempDir()) {
		fmt.Fprintf(os.Stderr, "testpg reaper: %s is not a cache folder\n", dir)
		return 2
	}
	// /proc offers no wait for a process that is not our child; once a second costs
	// nothing measurable.
	for inv.alive() {
		time.Sleep(time.Second)
	}
	if err := removeCache(dir, true); err != nil {
		fmt.Fprintf(os.Stderr, "testpg reaper: %v\n", err)
		return 1
	}
	return 0
}

// removeStale removes this user's cache folders whose invocation is gone (their reaper
// died with them), skipping any that a process still holds locked.
func removeStale() {
	entries, _ := os.ReadDir(os.TempDir())
	for _, e := range entries {
		inv, ok := parseCacheDir(e.Name())
		if !ok || inv.alive() {
			continue
		}
		_ = removeCache(filepath.Join(os.TempDir(), e.Name()), false)
	}
}

// removeCache stops any server left running in the cache folder and removes it; wait
// says whether to wait for processes still using it or leave it to them.
func removeCache(dir string, wait bool) error {
	if err := checkCacheDir(dir); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return err
	}
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	lock, err := lockCache(dir, how)
	if err != nil {
		return err
	}
	defer lock.Close()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() {
			stopServerIn(filepath.Join(dir, e.Name()))
		}
	}
	return os.RemoveAll(dir)
}

// stopServerIn ends a server a killed process left running in data: an immediate
// shutdown, as nothing in the folder is kept. The pid is trusted only when that
// process's working folder is data (a postmaster's is).
func stopServerIn(data string) {
	pid, err := pgmanaged.PostmasterPIDIn(data)
	if err != nil || pid <= 0 {
		return
	}
	cwd, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "cwd"))
	if err != nil || filepath.Clean(cwd) != filepath.Clean(data) {
		return
	}
	_ = syscall.Kill(pid, syscall.SIGCONT) // a paused server cannot shut down
	_ = syscall.Kill(pid, syscall.SIGQUIT)
	for i := 0; i < 300; i++ {
		if _, err := os.Stat(filepath.Join("/proc", strconv.Itoa(pid))); err != nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}
