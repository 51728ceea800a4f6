package pgmanaged

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/managed"
)

// TestCheckOurs: which folders a start may change. A missing or empty folder is made
// into a cluster; a marked cluster, or one an earlier brokerbench wrote its files in
// (then marked), is started; a cluster of someone else's, a folder of other files and
// a file are refused with the line that says what to do instead, and left as they were.
func TestCheckOurs(t *testing.T) {
	base := t.TempDir()
	mk := func(name string, files map[string]string) string {
		t.Helper()
		dir := filepath.Join(base, name)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		for f, text := range files {
			if err := os.WriteFile(filepath.Join(dir, f), []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	file := filepath.Join(base, "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir, refusal string
		marked             bool // the folder holds the marker afterwards
	}{
		{"missing", filepath.Join(base, "missing"), "", false},
		{"empty", mk("empty", nil), "", false},
		{"marked", mk("marked", map[string]string{"PG_VERSION": "17\n", managed.MarkerFile: "{}\n"}), "", true},
		{"earlier state file", mk("earlier-state", map[string]string{"PG_VERSION": "17\n", stateFile: "{}"}), "", true},
		{"earlier include", mk("earlier-conf", map[string]string{"PG_VERSION": "17\n", "brokerbench.conf": "# written by brokerbench; rewritten at every managed start\n"}), "", true},
		{"foreign cluster", mk("foreign", map[string]string{"PG_VERSION": "17\n", "postgresql.conf": "port = 55432\n"}),
			"holds a PostgreSQL cluster brokerbench did not create; it changes only clusters it made: start it yourself and give --db URL", false},
		{"an include of another tool", mk("other-conf", map[string]string{"PG_VERSION": "17\n", "brokerbench.conf": "port = 1\n"}),
			"holds a PostgreSQL cluster brokerbench did not create", false},
		{"other files", mk("other", map[string]string{"secret": "s"}), "is not empty and holds no cluster brokerbench made", false},
		{"a file", file, "is not a folder", false},
	} {
		c := &Cluster{log: func(string, ...any) {}}
		c.DataDir = tc.dir
		err := c.checkOurs(tc.dir)
		switch {
		case tc.refusal == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.refusal != "" && (!errors.Is(err, ErrNotOurs) || !strings.Contains(err.Error(), tc.refusal)):
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.refusal)
		}
		if marked, _ := managed.Marked(tc.dir); marked != tc.marked {
			t.Errorf("%s: marked %v afterwards, want %v", tc.name, marked, tc.marked)
		}
	}
	if _, err := os.Stat(filepath.Join(base, "missing")); !os.IsNotExist(err) {
		t.Errorf("checking a missing folder made it (%v)", err)
	}
}

// TestMarkerWrittenAtInitdb: a cluster a start makes carries the marker, and starts
// again with it.
func TestMarkerWrittenAtInitdb(t *testing.T) {
	t.Parallel()
	if _, err := FindBinaries(); err != nil {
		t.Skip("no PostgreSQL server binaries: ", err)
	}
	dir := filepath.Join(reachableDir(t), "data")
	ctx := context.Background()
	c, err := Start(ctx, Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Stop() })
	if ok, err := managed.Marked(dir); !ok {
		t.Fatalf("no marker in a cluster brokerbench made (%v)", err)
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if c, err = Start(ctx, Options{DataDir: dir}); err != nil {
		t.Fatalf("a cluster brokerbench made does not start again: %v", err)
	}
}
