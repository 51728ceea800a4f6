package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
)

// TestStudyLeavesWhatItDidNotMake: a study writes only into a folder of its own
// and never over what it did not make. A study folder that already holds a user's
// file is refused; a file at a run's name that no run of the record made is
// refused and left as it was (a resumed study with more repeats reaches it); a
// system's database holding a load the study did not make is refused, not
// dropped: its rows are all still there.
func TestStudyLeavesWhatItDidNotMake(t *testing.T) {
	t.Parallel()
	needFioBinary(t)
	base, a, b := twoSystemFolders(t)
	plan := filepath.Join(base, "plan.yaml")
	study := func(repeats string) string {
		return `name: s
out: s
repeats: ` + repeats + `
systems:
  - {name: a, dir: ` + a + `}
  - {name: b, dir: ` + b + `}
workloads:
  - name: profiles
    disk: {profile: [database], depths: "1", size: 4MiB, ramp: 0s, measure: 1s}
`
	}
	dir := filepath.Join(base, "s")
	userFile := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	unchanged := func(path, text string) {
		t.Helper()
		if got, err := os.ReadFile(path); err != nil || string(got) != text {
			t.Errorf("%s: %q, %v; want the user's %q untouched", path, got, err, text)
		}
	}

	// A folder with someone's file in it is not a study folder.
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	userFile(filepath.Join(dir, "notes.txt"), "mine")
	userFile(plan, study("1"))
	code, _, stderr := runMain("study", plan)
	if code != exitUsage || !strings.Contains(stderr, "holds files that are not a study's") {
		t.Errorf("a folder with a user's file: exit %d, want %d: %s", code, exitUsage, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the study wrote into a folder it did not make: %v", entries)
	}
	unchanged(filepath.Join(dir, "notes.txt"), "mine")
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}

	// A finished study resumed with a second repeat meets a file it did not make.
	if code, _, stderr := runMain("study", plan); code != 0 {
		t.Fatalf("the study: exit %d: %s", code, stderr)
	}
	userFile(plan, study("2"))
	foreign := filepath.Join(dir, "a-profiles-r2.json")
	userFile(foreign, `{"someone": "else"}`)
	code, _, stderr = runMain("study", plan, "--resume")
	if code != exitUsage || !strings.Contains(stderr, "no run in its record made it") {
		t.Errorf("a file at a run's name the record does not explain: exit %d, want %d: %s", code, exitUsage, stderr)
	}
	unchanged(foreign, `{"someone": "else"}`)
	if _, err := os.Stat(filepath.Join(dir, "a-profiles-r2-attempt-1.json")); err == nil {
		t.Error("the user's file was moved aside as if the study had made it")
	}

	// Databases loaded by someone else are refused, and keep every row.
	clones := []string{testdb.Loaded(t), testdb.Loaded(t)}
	userFile(plan, `name: loaded
out: loaded
load: {customers: 1000, trade-days: 5}
systems:
  - {name: x, db: "`+clones[0]+`"}
  - {name: y, db: "`+clones[1]+`"}
workloads:
  - name: oltp
    run: {users: "1", step: 3s, warmup: 1s}
`)
	db := testpg.OpenDB(t, clones[0], database.Options{MaxConns: 2})
	var before, after int64
	count := "SELECT count(*) FROM customer"
	if err := db.QueryRow(context.Background(), count).Scan(&before); err != nil {
		t.Fatal(err)
	}
	// Refused when the study starts, and again when it is resumed: a resumed study
	// continues only a load it began itself.
	for _, args := range [][]string{{"study", plan}, {"study", plan, "--resume"}} {
		code, _, stderr = runMain(args...)
		if code != exitUsage || !strings.Contains(stderr, "already holds a load this study did not make") {
			t.Errorf("%v on a database loaded by someone else: exit %d, want %d: %s", args, code, exitUsage, stderr)
		}
	}
	if err := db.QueryRow(context.Background(), count).Scan(&after); err != nil || after != before || before == 0 {
		t.Errorf("customers before %d, after %d (%v): want the load kept whole", before, after, err)
	}
}
