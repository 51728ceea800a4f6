package run

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// run --repeat N --replace-disturbed M: a repeat whose window something other than the
// workload disturbed (a checkpoint, autovacuum, CPU steal, a cache still warming;
// docs/host.md, "Disturbed windows") runs again, up to M times over the whole series.
// Nothing is lost: the disturbed repeat's file and capture are set aside under names a
// glob of the kept repeats (run-r*.json) does not match, and never over another file.

// replacer counts the replacements of a series against its budget.
type replacer struct {
	budget, used int
	spentSaid    bool // the budget's end is said once
}

// disturbedSteps names the steps of r something disturbed and why, as "8 users
// (checkpoint (1204 buffers written))", several joined by " and "; "" when none was.
func disturbedSteps(r *results.Run) string {
	if r == nil {
		return ""
	}
	return strings.Join(figures.DisturbedAt(r), " and ")
}

// take spends one replacement when there is one left.
func (p *replacer) take() bool {
	if p.used >= p.budget {
		return false
	}
	p.used++
	return true
}

// repeatFiles are where one run of repeat k wrote: its result file (repeatPath of
// base) and, with --capture-io, its capture folder ("" without).
type repeatFiles struct {
	base           string // --out as given: run.json
	k, n           int
	out, capture   string
	setAsideBefore int // disturbed runs of this repeat already set aside
}

// afterRepeat decides whether repeat f.k runs again: when a step of its result r was
// disturbed and the budget allows, its files are set aside and true is returned.
// With a budget, a disturbed repeat is said in one line whether it runs again or is
// kept (the budget's end said once); without one (0) nothing is said here, as compare
// names disturbed repeats.
func (p *replacer) afterRepeat(logf func(string, ...any), f repeatFiles, r *results.Run) (bool, error) {
	where := disturbedSteps(r)
	if where == "" || p.budget == 0 {
		return false, nil
	}
	if !p.take() {
		note := ""
		if !p.spentSaid {
			note = fmt.Sprintf(": the %d replacement(s) --replace-disturbed allows are used", p.budget)
			p.spentSaid = true
		}
		logf("repeat %d of %d was disturbed at %s; kept as it is%s (compare names it)", f.k, f.n, where, note)
		return false, nil
	}
	kept, err := setAside(f.out, func(j int) string { return disturbedPath(f.base, f.k, j) }, f.setAsideBefore+1)
	if err != nil {
		return false, fmt.Errorf("repeat %d of %d: set the disturbed run aside: %w", f.k, f.n, err)
	}
	if f.capture != "" {
		if _, err := os.Stat(f.capture); err == nil {
			dir, base := filepath.Dir(f.capture), filepath.Base(f.capture)
			if _, err := setAside(f.capture, func(j int) string { return filepath.Join(dir, numbered("disturbed-"+base, j)) }, f.setAsideBefore+1); err != nil {
				return false, fmt.Errorf("repeat %d of %d: set the disturbed capture aside: %w", f.k, f.n, err)
			}
		}
	}
	logf("repeat %d of %d was disturbed at %s; running it again (%d of %d replacements used); its file is kept as %s",
		f.k, f.n, where, p.used, p.budget, filepath.Base(kept))
	return true, nil
}

// disturbedPath is the j-th set-aside run of repeat k of out: run.json, 2, 1 →
// run-disturbed-r2.json; j 2 → run-disturbed-r2-2.json.
func disturbedPath(out string, k, j int) string {
	ext := filepath.Ext(out)
	return numbered(fmt.Sprintf("%s-disturbed-r%d", strings.TrimSuffix(out, ext), k), j) + ext
}

// numbered is name for the first, name-j for the j-th.
func numbered(name string, j int) string {
	if j <= 1 {
		return name
	}
	return fmt.Sprintf("%s-%d", name, j)
}

// maxSetAside bounds the search for a free name: far above any budget a person gives.
const maxSetAside = 1000

// setAside renames path to name(j) for the first j from first on whose name is free,
// never over an existing file or folder (an earlier series' set-aside run keeps its
// name), and returns the new path.
func setAside(path string, name func(j int) string, first int) (string, error) {
	for j := first; j < first+maxSetAside; j++ {
		to := name(j)
		err := renameNoReplace(path, to)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		return to, nil
	}
	return "", fmt.Errorf("%s: no free name from %s on; remove the old set-aside runs", path, name(first))
}

// renameNoReplace renames from to to, failing with an error that is os.ErrExist when
// to exists: the kernel's RENAME_NOREPLACE, or on a file system without it a hard
// link (a file) or a check and a rename (a folder: a rename onto a folder that is not
// empty fails by itself).
func renameNoReplace(from, to string) error {
	err := unix.Renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, unix.RENAME_NOREPLACE)
	if !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOSYS) {
		if err != nil {
			return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
		}
		return nil
	}
	fi, err := os.Lstat(from)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		if err := os.Link(from, to); err != nil {
			return err
		}
		return os.Remove(from)
	}
	if _, err := os.Lstat(to); err == nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: os.ErrExist}
	}
	return os.Rename(from, to)
}
