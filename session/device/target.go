// Package device is where the storage sessions (disk, replay) do their I/O, with what
// makes it safe: a test file brokerbench created itself, or a block device held
// exclusively, written only when the flag naming it allows, and everything
// brokerbench did not create refused untouched (docs/faults.md, "Files brokerbench
// did not create").
package device

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/prometheus/procfs"
	"golang.org/x/sys/unix"

	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session"
)

// Target is where a disk session or a replay does its I/O, with what makes it safe: a
// test file brokerbench created itself, or a block device held exclusively.
type Target struct {
	Path   string // the test file or the device node
	Raw    bool
	Size   int64
	FSType string // the file system of a test file ("ext4"), "" if unknown
	// held is the device opened with O_EXCL for the whole run: the kernel refuses
	// that while the device is mounted or claimed (a file system, md, dm, swap), and
	// while we hold it nothing can mount it.
	held    *os.File
	Created bool // the test file is ours to remove
	Keep    bool // and is kept after the session
	// holds is what the allowed writes destroy on a device ("a file system
	// (ext4)"), "" when nothing is recognised or nothing is written.
	holds string
}

// Use says who uses a device target, for its messages: the flag that named
// it, what writes, and what to do instead of allowing the writes.
type Use struct{ Flag, Writer, Instead string }

// WarnDestroys says, once the writes are allowed and before they start, what they
// destroy on the device.
// It is printed even with --quiet.
func (t *Target) WarnDestroys(w io.Writer) {
	if t.Raw && t.holds != "" {
		fmt.Fprintln(w, results.Printable(fmt.Sprintf("brokerbench: WARNING: --allow-device-writes %s: it holds %s, which the writes destroy", t.Path, t.holds)))
	}
}

// TestFileName is the test file's name in --dir: the same on every system, so a
// comparison runs the same target.
const TestFileName = "brokerbench-disk.dat"

// OpenFile refuses what --dir must not be (not a folder, a file already
// there, less free space than size, a file system without direct I/O) and creates
// the empty test file, which fio then lays out and writes in full.
func OpenFile(dir string, size int64, direct, keep bool) (*Target, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("--dir %s: %w", dir, errors.Unwrap(err))
	}
	if !fi.IsDir() {
		return nil, session.Usagef("--dir %s: not a folder (give the folder the test file goes in)", dir)
	}
	path := filepath.Join(dir, TestFileName)
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return nil, fmt.Errorf("--dir %s: %w", dir, err)
	}
	free := int64(st.Bavail) * int64(st.Bsize)
	if size > free {
		return nil, fmt.Errorf("--dir %s: the %s test file does not fit: %s free; give a smaller --size", dir, bytesize.Format(size), bytesize.Format(free))
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("%s already exists (a kept test file, or someone else's): remove it first; brokerbench writes only a test file it created", path)
		}
		return nil, fmt.Errorf("--dir %s: %w", dir, errors.Unwrap(err))
	}
	f.Close()
	t := &Target{Path: path, Size: size, FSType: FSTypeOf(dir), Created: true, Keep: keep}
	if direct {
		// fio would fail on its first step; say why at once (tmpfs has no O_DIRECT).
		fd, err := unix.Open(path, unix.O_RDWR|unix.O_DIRECT, 0)
		if err != nil {
			t.Close()
			return nil, fmt.Errorf("--dir %s: the file system (%s) does not support direct I/O (%v); use another, or --buffered to measure through the page cache", dir, t.FSType, err)
		}
		unix.Close(fd)
	}
	return t, nil
}

// OpenDevice refuses a device that is not a block device, is mounted (or a
// partition of it is), is used as swap or claimed by the kernel, and writes to one
// unless --allow-device-writes names it. size 0 means the whole device. When the
// writes are allowed, the target's holds says what they destroy.
func OpenDevice(use Use, dev string, size int64, writes bool, allowWrites string) (*Target, error) {
	flag := use.Flag
	fi, err := os.Stat(dev)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, dev, errors.Unwrap(err))
	}
	if fi.Mode()&os.ModeDevice == 0 || fi.Mode()&os.ModeCharDevice != 0 {
		return nil, session.Usagef("%s %s: not a block device", flag, dev)
	}
	var holds string
	if writes {
		// Said before the data is gone, whichever way: a file system is what a
		// mistyped device name most often destroys.
		holds = deviceContents(dev)
	}
	if writes && !sameDevice(dev, allowWrites) {
		data := "the device's data"
		if holds != "" {
			data = "what it holds: " + holds
		}
		return nil, session.Usagef("%s %s: %s write, which destroys %s; pass --allow-device-writes %s to confirm, or %s", flag, dev, use.Writer, data, dev, use.Instead)
	}
	var sys unix.Stat_t
	if err := unix.Stat(dev, &sys); err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, dev, err)
	}
	maj, min := unix.Major(uint64(sys.Rdev)), unix.Minor(uint64(sys.Rdev))
	if where := mountedFrom(maj, min); where != "" {
		return nil, fmt.Errorf("%s %s is in use: %s is mounted on %s; brokerbench never writes to a mounted device", flag, dev, dev, where)
	}
	if swapOn(dev) {
		return nil, fmt.Errorf("%s %s is in use as swap", flag, dev)
	}
	f, err := os.OpenFile(dev, os.O_RDONLY|unix.O_EXCL, 0)
	if err != nil {
		if errors.Is(err, unix.EBUSY) {
			return nil, fmt.Errorf("%s %s is in use (mounted, part of an array or a mapped device, or held by another program)", flag, dev)
		}
		return nil, fmt.Errorf("%s %s: %w", flag, dev, errors.Unwrap(err))
	}
	devSize, err := blockSize(maj, min)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s %s: %w", flag, dev, err)
	}
	if size == 0 || size > devSize {
		if size > devSize {
			f.Close()
			return nil, session.Usagef("--size %s is larger than %s (%s)", bytesize.Format(size), dev, bytesize.Format(devSize))
		}
		size = devSize
	}
	return &Target{Path: dev, Raw: true, Size: size, held: f, holds: holds}, nil
}

// sameDevice tells whether a names the device b (the same node, or a link to it).
func sameDevice(a, b string) bool {
	if b == "" {
		return false
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// mountedFrom returns a mount point of the device maj:min or of a partition of
// it, "" when none is mounted (a mount's MAJ:MIN in /proc/self/mountinfo).
func mountedFrom(maj, min uint32) string {
	mounts, err := procfs.GetMounts()
	if err != nil {
		return ""
	}
	parts := partitionsOf(maj, min)
	for _, m := range mounts {
		if parts[m.MajorMinorVer] {
			return m.MountPoint
		}
	}
	return ""
}

// partitionsOf is the device's MAJ:MIN and its partitions' (/sys/dev/block/M:m/*/dev).
func partitionsOf(maj, min uint32) map[string]bool {
	self := fmt.Sprintf("%d:%d", maj, min)
	out := map[string]bool{self: true}
	subs, _ := filepath.Glob(filepath.Join("/sys/dev/block", self, "*", "dev"))
	for _, s := range subs {
		if b, err := os.ReadFile(s); err == nil {
			out[strings.TrimSpace(string(b))] = true
		}
	}
	return out
}

func swapOn(dev string) bool {
	data, err := os.ReadFile("/proc/swaps")
	if err != nil {
		return false
	}
	real, _ := filepath.EvalSymlinks(dev)
	for _, line := range strings.Split(string(data), "\n")[1:] {
		if f := strings.Fields(line); len(f) > 0 && (f[0] == dev || f[0] == real) {
			return true
		}
	}
	return false
}

// blockSize reads the device's size in bytes (/sys/dev/block/M:m/size, in 512-byte
// sectors whatever the device's own sector size).
func blockSize(maj, min uint32) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/sys/dev/block/%d:%d/size", maj, min))
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("device size %q: %w", b, err)
	}
	return n * 512, nil
}

// FSTypeOf is the file system type of the mount holding dir ("ext4"), "" if unknown.
func FSTypeOf(dir string) string {
	mounts, err := procfs.GetMounts()
	if err != nil {
		return ""
	}
	abs, _ := filepath.Abs(dir)
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	best, fs := "", ""
	for _, m := range mounts {
		mp := m.MountPoint
		if (abs == mp || strings.HasPrefix(abs, strings.TrimSuffix(mp, "/")+"/")) && len(mp) >= len(best) {
			best, fs = mp, m.FSType
		}
	}
	return fs
}

// Close releases the device or removes the test file, unless it is to be kept.
func (t *Target) Close() {
	if t.held != nil {
		t.held.Close()
	}
	if t.Created && !t.Keep {
		os.Remove(t.Path)
	}
}
