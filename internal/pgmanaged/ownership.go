package pgmanaged

// Which clusters brokerbench may change. A start rewrites pg_hba.conf, may set a new
// superuser password, rewrites the port and memory settings, creates a database and,
// as root, hands the folder to the postgres OS user: done to a cluster someone else
// made, that locks its owner out. So a start changes only a folder that is new, empty,
// or holds a cluster brokerbench made, which carries managed.MarkerFile, written right
// after initdb. Anything else is refused before a single file is touched
// (docs/faults.md, "Clusters and folders brokerbench did not create").

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/brokerbench/brokerbench/internal/managed"
)

// ErrNotOurs matches a --pgdata folder refused because brokerbench did not make what
// it holds.
var ErrNotOurs = errors.New("not made by brokerbench")

// notOursError says what the folder holds and how to use it anyway.
type notOursError struct{ msg string }

func (e *notOursError) Error() string        { return e.msg }
func (e *notOursError) Is(target error) bool { return target == ErrNotOurs }

// writeMarker marks the cluster in c.DataDir as brokerbench's. initdb refuses a
// folder that is not empty, so the marker can only follow it.
func (c *Cluster) writeMarker() error { return managed.Mark(c.DataDir, "PostgreSQL") }

// checkOurs refuses a --pgdata folder brokerbench may not change: one that holds a
// cluster it did not make, or other files. A missing or empty folder is fine (the
// start makes the cluster in it). A cluster an earlier brokerbench made, before the
// marker existed, is recognised by the files every start of it wrote
// (brokerbench-managed.json, brokerbench.conf) and marked now. Beside that marker it
// only reads: nothing is created, changed or chowned before it says yes.
func (c *Cluster) checkOurs(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("--pgdata %s: %w", dir, err)
	case !st.IsDir():
		return &notOursError{fmt.Sprintf("--pgdata %s is not a folder; brokerbench makes its cluster in a new or empty folder", dir)}
	}
	if empty, err := folderEmpty(dir); err != nil {
		return fmt.Errorf("--pgdata %s: %w", dir, err)
	} else if empty {
		return nil
	}
	has := func(name string) bool {
		fi, err := os.Lstat(filepath.Join(dir, name))
		return err == nil && fi.Mode().IsRegular()
	}
	cluster := has("PG_VERSION")
	marked, err := managed.Marked(dir)
	if err != nil {
		return fmt.Errorf("--pgdata %s: %w", dir, err)
	}
	switch {
	case marked:
		return nil
	case cluster && madeByEarlierBrokerbench(dir, has):
		c.log("the cluster in %s was made by an earlier brokerbench: marked as brokerbench's (%s)", dir, managed.MarkerFile)
		return c.writeMarker()
	case cluster:
		return &notOursError{fmt.Sprintf("%s holds a PostgreSQL cluster brokerbench did not create; it changes only clusters it made: "+
			"start it yourself and give --db URL", dir)}
	}
	return &notOursError{fmt.Sprintf("--pgdata %s is not empty and holds no cluster brokerbench made; it changes only folders it made: "+
		"give a new or empty folder", dir)}
}

// madeByEarlierBrokerbench recognises a cluster from before the marker: every start
// wrote its state file and its include file, which says who wrote it.
func madeByEarlierBrokerbench(dir string, has func(string) bool) bool {
	if has(stateFile) {
		return true
	}
	if !has("brokerbench.conf") {
		return false
	}
	b, err := os.ReadFile(filepath.Join(dir, "brokerbench.conf"))
	return err == nil && bytes.HasPrefix(b, []byte("# written by brokerbench"))
}

// folderEmpty reports whether dir has no entries: the only folder besides a new one
// that may be handed to the server's user whole.
func folderEmpty(dir string) (bool, error) {
	f, err := os.Open(dir)
	if err != nil {
		return false, err
	}
	defer f.Close()
	names, err := f.Readdirnames(1)
	if len(names) > 0 {
		return false, nil
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return false, err
	}
	return true, nil
}
