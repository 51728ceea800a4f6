package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"
	"time"
)

// Write stores r at path atomically: it writes a temporary file in the same
// folder, syncs it, renames it over path and syncs the folder, so a reader (or a
// crash, or a run interrupted mid-write) sees either the old file or the new one,
// never half of one. A zero Format is set to FormatVersion.
//
// A file already at path is someone's earlier result (or not a result at all), so
// it is replaced only by a run that has measured something: while r has no step,
// Write only proves a file can be written beside it (a bad --out still fails at
// once) and leaves it as it is. The new file keeps the old one's permissions; a new
// file is 0644.
func Write(path string, r *Run) error {
	if r == nil {
		return errors.New("write result file: nil run")
	}
	if r.Format == 0 {
		r.Format = FormatVersion
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("write result file %s: %w", path, err)
	}
	data = append(data, '\n')
	// CreateTemp makes the file 0600; a result file is not secret (the DSN's
	// password never reaches it), and CI jobs read it as another user.
	mode := fs.FileMode(0o644)
	old, err := os.Stat(path)
	exists := err == nil
	if exists {
		if !old.Mode().IsRegular() {
			return fmt.Errorf("write result file %s: not a regular file", path)
		}
		mode = old.Mode().Perm()
	}
	keepOld := exists && !measured(r) && !wroteIt(old)
	if err := writeAtomic(path, data, mode, keepOld); err != nil {
		return fmt.Errorf("write result file %s: %w", path, err)
	}
	return nil
}

// writeAtomic writes data to a temporary file beside path, syncs it, renames it
// over path and syncs the folder. keepOld only proves the temporary file can be
// made, and leaves path as it is.
func writeAtomic(path string, data []byte, mode fs.FileMode, keepOld bool) error {
	dir := filepath.Dir(path)
	removeStaleTemps(dir, filepath.Base(path))
	tmp, err := os.CreateTemp(dir, tempPrefix(path)+"*")
	if err != nil {
		return err
	}
	// The lock tells a later write of path that this temporary file is in use
	// (removeStaleTemps); the kernel drops it when this process ends, however.
	_ = syscall.Flock(int(tmp.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	// On any failure below, or when the old file stays, leave no temporary file.
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if keepOld {
		return nil
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	done = true
	if fi, err := os.Stat(path); err == nil {
		written.Store(path, fi)
	}
	// The rename is durable only once the folder is synced. Some filesystems cannot
	// sync a folder; the data itself is already safe then, so that is not an error.
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// written holds, by path, the file this process last wrote there: a run's first
// write makes its file before any step, and its last (interrupted, still no step) must
// replace that one, which is its own, not someone's earlier result.
var written sync.Map

// wroteIt tells whether the file fi is the one this process last wrote at its path:
// the same file (device and inode, size and modification time), not one put there since.
func wroteIt(fi fs.FileInfo) bool {
	found := false
	written.Range(func(_, v any) bool {
		w := v.(fs.FileInfo)
		// An inode is reused at once after a remove: the size and time must match too.
		found = os.SameFile(w, fi) && w.Size() == fi.Size() && w.ModTime().Equal(fi.ModTime())
		return !found
	})
	return found
}

// measured tells whether r holds a finished step of its kind.
func measured(r *Run) bool {
	if r.Disk != nil {
		return len(r.Disk.Steps) > 0
	}
	return len(r.Steps) > 0
}

// tempPrefix is the start of the temporary files' names of path: hidden, beside it.
func tempPrefix(path string) string { return "." + filepath.Base(path) + ".tmp-" }

// staleTempAge is how old an unlocked temporary file must be before another
// write removes it: Write locks its temporary file right after creating it, so
// one unlocked and this old was left by a process killed mid-write (kill -9, a
// crash), not by a write between its create and its lock.
const staleTempAge = 30 * time.Second

// removeStaleTemps removes what a killed write of base left in dir: only regular
// files named exactly as Write names base's temporary files (".BASE.tmp-" and
// CreateTemp's decimal digits), owned by this user, older than staleTempAge and
// locked by no process. Nothing else in the folder is touched.
func removeStaleTemps(dir, base string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	pattern := regexp.MustCompile("^" + regexp.QuoteMeta(tempPrefix(base)) + "[0-9]+$")
	for _, e := range entries {
		if !pattern.MatchString(e.Name()) || !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil || time.Since(fi.ModTime()) < staleTempAge {
			continue
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
			continue
		}
		name := filepath.Join(dir, e.Name())
		f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			os.Remove(name) // unlocked: its writer is gone
		}
		f.Close()
	}
}
