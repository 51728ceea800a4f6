package memcap

import (
	"io/fs"
	"os"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Evict drops the page-cache pages of every regular file under dir
// (posix_fadvise POSIX_FADV_DONTNEED), so the next reads of the cluster's files go
// to the disk and are charged to the server's cgroup. Only the cluster's own files
// are touched: never a machine-wide drop_caches. Dirty pages cannot be dropped, so
// each file is flushed first (fdatasync); a file that vanishes meanwhile (a temp
// file of a running server) is skipped. It returns how many files it advised.
func Evict(dir string) (files int, err error) {
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		defer f.Close()
		fd := int(f.Fd())
		_ = unix.Fdatasync(fd) // best effort: only makes more pages droppable
		if err := unix.Fadvise(fd, 0, 0, unix.FADV_DONTNEED); err != nil {
			return &fs.PathError{Op: "fadvise", Path: p, Err: err}
		}
		files++
		return nil
	})
	return files, err
}

// ResidentBytes is how much of the file at path is in the page cache now (mincore
// over a mapping of it), for tests and diagnostics.
func ResidentBytes(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return 0, err
	}
	m, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return 0, err
	}
	defer unix.Munmap(m)
	page := os.Getpagesize()
	vec := make([]byte, (len(m)+page-1)/page)
	// x/sys/unix has no mincore wrapper; the syscall takes the mapping, its length
	// and one status byte per page.
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		return 0, e
	}
	var n int64
	for _, v := range vec {
		if v&1 != 0 {
			n += int64(page)
		}
	}
	return n, nil
}
