package iotrace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// instancePrefix names brokerbench's trace instances: "brokerbench-PID". The pid
// tells a live capture's instance from one a crashed capture left behind.
const instancePrefix = "brokerbench-"

// bufferKB is the instance's ring buffer per CPU: at 20,000 requests a second
// (two events each, about 100 bytes of text) it holds several seconds, far more
// than the reader's polling interval.
const bufferKB = 8192

// ErrNotPermitted is returned when tracefs cannot be used for lack of privilege.
var ErrNotPermitted = errors.New("capturing block I/O needs root or CAP_SYS_ADMIN (tracefs)")

// instance is one tracefs trace instance of our own, with the block events on.
type instance struct {
	dir string
	// unmount is the tracefs mount point made for this capture, "" when tracefs was
	// already mounted.
	unmount string
}

// findTracefs returns a mount point of tracefs from /proc/self/mountinfo, "" if
// tracefs is not mounted.
func findTracefs() (string, error) {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		// mountinfo: ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS... - FSTYPE SOURCE ...
		pre, post, ok := strings.Cut(line, " - ")
		if !ok {
			continue
		}
		f, g := strings.Fields(pre), strings.Fields(post)
		if len(f) >= 5 && len(g) >= 1 && g[0] == "tracefs" && f[3] == "/" {
			return unescapeMount(f[4]), nil
		}
	}
	return "", nil
}

// unescapeMount undoes mountinfo's octal escapes (\040 is a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// tracefsRoot returns tracefs's mount point, mounting it in a private temporary
// folder when it is not mounted (the returned unmount is then that folder).
func tracefsRoot() (root, unmount string, err error) {
	if os.Geteuid() != 0 {
		// tracefs files are root's; CAP_SYS_ADMIN without uid 0 can still mount and
		// write them, which the open below finds out.
		if !hasSysAdmin() {
			return "", "", ErrNotPermitted
		}
	}
	root, err = findTracefs()
	if err != nil {
		return "", "", fmt.Errorf("tracefs: %w", err)
	}
	if root != "" {
		return root, "", nil
	}
	dir, err := os.MkdirTemp("", "brokerbench-tracefs-*")
	if err != nil {
		return "", "", fmt.Errorf("tracefs: %w", err)
	}
	if err := unix.Mount("nodev", dir, "tracefs", 0, ""); err != nil {
		os.Remove(dir)
		if errors.Is(err, unix.EPERM) {
			return "", "", ErrNotPermitted
		}
		return "", "", fmt.Errorf("mount tracefs: %w (is the kernel built with tracing?)", err)
	}
	return dir, dir, nil
}

// hasSysAdmin tells whether the process holds CAP_SYS_ADMIN in its effective set.
func hasSysAdmin() bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return false
	}
	return data[0].Effective&(1<<unix.CAP_SYS_ADMIN) != 0
}

// RemoveStale removes the trace instances a brokerbench capture left behind when it
// was killed before it could (its process is gone), and returns their names.
func RemoveStale(root string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(root, "instances"))
	if err != nil {
		return nil, fmt.Errorf("tracefs instances: %w", err)
	}
	var removed []string
	for _, e := range entries {
		pid, err := strconv.Atoi(strings.TrimPrefix(e.Name(), instancePrefix))
		if !strings.HasPrefix(e.Name(), instancePrefix) || err != nil || pid == os.Getpid() {
			continue
		}
		if unix.Kill(pid, 0) == nil || !errors.Is(unix.Kill(pid, 0), unix.ESRCH) {
			continue // alive (or not ours to judge)
		}
		dir := filepath.Join(root, "instances", e.Name())
		disable(dir)
		if err := unix.Rmdir(dir); err != nil {
			return removed, fmt.Errorf("remove the stale trace instance %s: %w", dir, err)
		}
		removed = append(removed, e.Name())
	}
	return removed, nil
}

// openInstance creates brokerbench's trace instance with block_rq_issue and
// block_rq_complete on, filtered to devs (kernel dev_t numbers), timestamped with
// the monotonic clock.
func openInstance(root string, devs []uint64) (*instance, error) {
	dir := filepath.Join(root, "instances", fmt.Sprintf("%s%d", instancePrefix, os.Getpid()))
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create trace instance: %w", err)
	}
	in := &instance{dir: dir}
	var conds []string
	for _, d := range devs {
		conds = append(conds, fmt.Sprintf("dev == %d", d))
	}
	filter := strings.Join(conds, " || ")
	steps := []struct{ file, value string }{
		{"tracing_on", "0"},
		{"trace_clock", "mono"},
		{"buffer_size_kb", strconv.Itoa(bufferKB)},
		{"events/block/block_rq_issue/filter", filter},
		{"events/block/block_rq_complete/filter", filter},
		{"events/block/block_rq_issue/enable", "1"},
		{"events/block/block_rq_complete/enable", "1"},
	}
	for _, s := range steps {
		if err := os.WriteFile(filepath.Join(dir, s.file), []byte(s.value), 0); err != nil {
			in.close()
			return nil, fmt.Errorf("trace instance %s: %w", s.file, err)
		}
	}
	return in, nil
}

// start turns recording on.
func (in *instance) start() error {
	return os.WriteFile(filepath.Join(in.dir, "tracing_on"), []byte("1"), 0)
}

// stop turns recording off; what is in the buffer can still be read.
func (in *instance) stop() {
	os.WriteFile(filepath.Join(in.dir, "tracing_on"), []byte("0"), 0)
}

// lost sums the events the kernel dropped because the buffer was full (overrun:
// overwritten before they were read; dropped events: refused).
func (in *instance) lost() int64 {
	cpus, _ := filepath.Glob(filepath.Join(in.dir, "per_cpu", "cpu*", "stats"))
	var n int64
	for _, p := range cpus {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			k, v, ok := strings.Cut(line, ":")
			if !ok || k != "overrun" && k != "dropped events" {
				continue
			}
			if c, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				n += c
			}
		}
	}
	return n
}

// close turns the events off and removes the instance (and the tracefs mount made
// for it).
func (in *instance) close() error {
	disable(in.dir)
	err := unix.Rmdir(in.dir)
	if in.unmount != "" {
		unix.Unmount(in.unmount, unix.MNT_DETACH)
		os.Remove(in.unmount)
	}
	if err != nil {
		return fmt.Errorf("remove trace instance %s: %w", in.dir, err)
	}
	return nil
}

func disable(dir string) {
	os.WriteFile(filepath.Join(dir, "tracing_on"), []byte("0"), 0)
	for _, ev := range []string{"block_rq_issue", "block_rq_complete"} {
		os.WriteFile(filepath.Join(dir, "events", "block", ev, "enable"), []byte("0"), 0)
	}
}

// pipe opens the instance's trace_pipe without blocking: at the end of what the
// kernel has buffered a read fails with EAGAIN, so the capture can stop at once when
// asked (a blocking read of trace_pipe does not return when the file is closed).
// The descriptor is read with plain read(2): os.File would hand it to the runtime's
// poller (tracefs supports poll) and block.
func (in *instance) pipe() (int, error) {
	fd, err := unix.Open(filepath.Join(in.dir, "trace_pipe"), unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("open trace_pipe: %w", err)
	}
	return fd, nil
}
