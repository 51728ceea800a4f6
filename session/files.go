package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Files brokerbench did not create are never written over by accident
// (docs/faults.md, "Files brokerbench did not create"): no output may be one of the
// session's inputs, and every file a person names is read with a bound.

// Output is a file a session writes, with the flag that names it.
type Output struct{ Flag, Path string }

// RefuseOutputOverInput refuses the first output that is also one of the inputs:
// writing it would destroy what the session reads. "-" (standard output) and
// empty (not asked for) outputs are skipped.
func RefuseOutputOverInput(outs []Output, inputs []string) error {
	for _, o := range outs {
		if o.Path == "" || o.Path == "-" {
			continue
		}
		for _, in := range inputs {
			if SameFile(o.Path, in) {
				return Usagef("%s %s is also an input; choose another output file", o.Flag, o.Path)
			}
		}
	}
	return nil
}

// SameFile reports whether two paths name one file: the same inode when both
// exist (a hard link, a symlink or ./x and x all match), otherwise the same
// absolute, cleaned path (a file about to be created under a name an input has).
func SameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	pa, errA := filepath.Abs(a)
	pb, errB := filepath.Abs(b)
	return errA == nil && errB == nil && filepath.Clean(pa) == filepath.Clean(pb)
}

// ReadBounded reads path, named by flag, refusing one larger than limit bytes
// before it is held in memory (a pipe or a device that never ends included). The
// bounds of the files a person names that are not result files (results.Read has
// its own) sit far above any real one, small enough that /dev/zero or a wrong file
// costs a moment and a few MB, not gigabytes of memory.
func ReadBounded(flag, path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is said once
		}
		return nil, Usagef("%s %s: %v", flag, path, err)
	}
	defer f.Close()
	tooBig := Usagef("%s %s: larger than %d KiB, the most brokerbench reads of such a file; is it the right one?", flag, path, limit>>10)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > limit {
		return nil, tooBig
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, path, err)
	}
	if int64(len(data)) > limit {
		return nil, tooBig
	}
	return data, nil
}

// WriteOutput renders into memory first, so a failed rendering leaves no half file,
// then writes path ("-" is standard output).
func WriteOutput(stdout io.Writer, path string, render func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if path == "-" {
		_, err := stdout.Write(buf.Bytes())
		return err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
