// Package testloop gives tests an emulated disk: an ext4 file system on a loop
// device of their own, and a cgroup v1 blkio group that throttles it, both with
// unique names and removed when the test ends. Tests that need them skip where the
// machine cannot (not root, no losetup, no blkio hierarchy).
package testloop

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Disk is a loop device with an ext4 file system mounted in a temporary folder.
type Disk struct {
	Dev   string // /dev/loopN
	Name  string // loopN
	Mount string
	Major uint32
	Minor uint32
}

// New makes a Disk of sizeMB megabytes, or skips the test.
func New(t testing.TB, sizeMB int) *Disk {
	t.Helper()
	if _, err := exec.LookPath("mkfs.ext4"); err != nil {
		t.Skip("mkfs.ext4 is not installed")
	}
	d := NewRaw(t, sizeMB)
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", d.Dev).CombinedOutput(); err != nil {
		t.Fatalf("mkfs.ext4 %s: %v: %s", d.Dev, err, out)
	}
	// Not under t.TempDir, which only root may enter: a managed PostgreSQL on the
	// disk runs as its own user.
	top, err := os.MkdirTemp("", "brokerbench-loop-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(top) })
	d.Mount = filepath.Join(top, "mnt")
	for _, dir := range []string{top, d.Mount} {
		if err := os.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := unix.Mount(d.Dev, d.Mount, "ext4", 0, ""); err != nil {
		t.Skipf("mount %s: %v", d.Dev, err)
	}
	t.Cleanup(func() { unix.Unmount(d.Mount, unix.MNT_DETACH) })
	return d
}

// Remount unmounts the file system and mounts it again, which empties the page
// cache of its files: the next reads reach the device. Nothing may hold it open; a
// server just stopped lets go of it within moments, which it waits for (10 s).
func (d *Disk) Remount(t testing.TB) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		err := unix.Unmount(d.Mount, 0)
		if err == nil {
			break
		}
		if !errors.Is(err, unix.EBUSY) || time.Now().After(deadline) {
			t.Fatalf("unmount %s: %v", d.Mount, err)
		}
	}
	if err := unix.Mount(d.Dev, d.Mount, "ext4", 0, ""); err != nil {
		t.Fatalf("mount %s again: %v", d.Dev, err)
	}
}

// NewRaw makes an unformatted loop device of sizeMB megabytes, or skips the test.
func NewRaw(t testing.TB, sizeMB int) *Disk {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("loop devices need root")
	}
	if _, err := exec.LookPath("losetup"); err != nil {
		t.Skip("losetup is not installed")
	}
	img := filepath.Join(t.TempDir(), "disk.img")
	if err := os.Truncate(mustCreate(t, img), int64(sizeMB)<<20); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("losetup", "-f", "--show", img).CombinedOutput()
	if err != nil {
		t.Skipf("no loop device: %v: %s", err, out)
	}
	d := &Disk{Dev: strings.TrimSpace(string(out))}
	d.Name = filepath.Base(d.Dev)
	t.Cleanup(func() { exec.Command("losetup", "-d", d.Dev).Run() })
	var st unix.Stat_t
	if err := unix.Stat(d.Dev, &st); err != nil {
		t.Fatal(err)
	}
	d.Major, d.Minor = unix.Major(uint64(st.Rdev)), unix.Minor(uint64(st.Rdev))
	return d
}

func mustCreate(t testing.TB, path string) string {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// Blkio is the cgroup v1 blkio hierarchy.
const Blkio = "/sys/fs/cgroup/blkio"

// Throttle makes a blkio group capping d at iops reads and iops writes per second
// and returns a wrapper script that runs program with its arguments inside the
// group (exec, so the program itself is throttled). The group is removed at the
// test's end.
func Throttle(t testing.TB, d *Disk, iops int, program string) (wrapper string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(Blkio, "blkio.throttle.write_iops_device")); err != nil {
		t.Skip("no cgroup v1 blkio throttling here")
	}
	cg := filepath.Join(Blkio, fmt.Sprintf("brokerbench-test-%d-%s", os.Getpid(), d.Name))
	if err := os.Mkdir(cg, 0o755); err != nil {
		t.Skipf("blkio group: %v", err)
	}
	t.Cleanup(func() { os.Remove(cg) })
	rule := fmt.Sprintf("%d:%d %d", d.Major, d.Minor, iops)
	for _, f := range []string{"blkio.throttle.read_iops_device", "blkio.throttle.write_iops_device"} {
		if err := os.WriteFile(filepath.Join(cg, f), []byte(rule), 0o644); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	wrapper = filepath.Join(t.TempDir(), "in-cgroup")
	script := fmt.Sprintf("#!/bin/sh\necho $$ > %s/cgroup.procs || exit 1\nexec %s \"$@\"\n", cg, program)
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return wrapper
}
