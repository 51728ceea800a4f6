package txn

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
)

// routineDigests is the file pinning each routine file's digest to the version that
// shipped it.
const routineDigests = "testdata/routines.golden"

// TestRoutineSourcesPinned: a routine file that changed must come with a new
// RoutinesVersion, or databases loaded by the old set would keep it (EnsureRoutines
// replaces only an older version's set). The golden file records each file's digest
// with its version; the calls the transactions make are pinned next to it.
func TestRoutineSourcesPinned(t *testing.T) {
	var b strings.Builder
	for _, s := range routineSets() {
		_, digest, err := routineSource(s)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s version %d sha256 %s\n", s.db, RoutinesVersion, digest)
	}
	got := b.String()
	if old, err := os.ReadFile(routineDigests); err == nil {
		for _, line := range strings.Split(strings.TrimSpace(string(old)), "\n") {
			var db, digest string
			var v int
			if _, err := fmt.Sscanf(line, "%s version %d sha256 %s", &db, &v, &digest); err != nil {
				continue
			}
			if v == RoutinesVersion && !strings.Contains(got, line) {
				t.Errorf("txn/routines for %s changed but RoutinesVersion is still %d: raise it, then rerun with -update", db, v)
			}
		}
	}
	for _, s := range routineSets() {
		got += fmt.Sprintf("\n-- calls on %s\n", s.db)
		hook := mustHook(s.db)
		for k, r := range Routines {
			got += fmt.Sprintf("-- %s\n%s;\n", Kind(k), hook(s.call(r)))
		}
	}
	if *update {
		if err := os.WriteFile(routineDigests, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(routineDigests)
	if err != nil {
		t.Fatalf("%v (run go test -run RoutineSourcesPinned -update)", err)
	}
	if got != string(want) {
		t.Errorf("the routine digests and calls differ from %s; run go test -run RoutineSourcesPinned -update and review the diff", routineDigests)
	}
}

// routineParam finds each parameter in a routineDefinition's parameter list: every
// routine names its parameters p_... (T-SQL: @p_...).
var routineParam = regexp.MustCompile(`\bp_[a-z0-9_]+`)

// TestRoutinesDefineWhatTheTransactionsCall: every routine a transaction calls is in
// every routine file with the number of parameters the call passes, and the file
// splits into statements.
func TestRoutinesDefineWhatTheTransactionsCall(t *testing.T) {
	for _, s := range routineSets() {
		src, _, err := routineSource(s)
		if err != nil {
			t.Fatal(err)
		}
		params := map[string]int{}
		for _, m := range routineDefinition.FindAllStringSubmatch(src, -1) {
			params[m[1]] = len(routineParam.FindAllString(m[2], -1))
		}
		for k, r := range Routines {
			if n, ok := params[r.name]; !ok || n != r.args {
				t.Errorf("%s: %s calls %s with %d parameters; the file defines %d (found %v)", s.file, Kind(k), r.name, r.args, n, ok)
			}
		}
		if n := len(routineBatches(src)); n < len(Routines) {
			t.Errorf("%s splits into %d statements, fewer than its %d routines", s.file, n, len(Routines))
		}
	}
}

// TestFramesUnavailableSaysSo: a database without a routine set is named, with the
// way out.
func TestFramesUnavailableSaysSo(t *testing.T) {
	for _, db := range []database.Name{database.Postgres, database.SQLServer, database.MySQL} {
		if msg := FramesUnavailable(db); msg != "" {
			t.Errorf("%s: %q, want server frames available", db, msg)
		}
	}
	if msg := FramesUnavailable("nosuchdb"); !strings.Contains(msg, "--frames client") {
		t.Errorf("unknown database: %q", msg)
	}
	if _, err := ParseFrames("both"); err == nil {
		t.Error("ParseFrames accepted \"both\"")
	}
	if f, err := ParseFrames(""); err != nil || f != ClientFrames {
		t.Errorf("ParseFrames(\"\") = %q, %v; want client", f, err)
	}
}
