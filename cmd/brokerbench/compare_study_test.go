package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/studyfixture"
	"github.com/brokerbench/brokerbench/results"
)

// studyDir writes the fixture's study folder: a baseline, a system slower where
// storage binds and the baseline's twin, an OLTP ramp, profiles and a replay, 3
// repeats interleaved.
func studyDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "study")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := studyfixture.Write(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestCompareStudyReport: compare STUDYDIR prints the study's report and writes its
// HTML, JSON and CSV; report STUDYDIR prints the same report.
func TestCompareStudyReport(t *testing.T) {
	dir := studyDir(t)
	out := t.TempDir()
	html, js, csv := filepath.Join(out, "s.html"), filepath.Join(out, "s.json"), filepath.Join(out, "s.csv")
	code, stdout, stderr := runMain("compare", dir, "--html", html, "--json", js, "--csv", csv)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Study controllers", "h810 vs h800: oltp: tpsE at 8 users -40 % [", "profiles: database IOPS -40 %", "Runs in the order they ran"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("compare's report lacks %q:\n%s", want, stdout)
		}
	}
	page, err := os.ReadFile(html)
	if err != nil || !strings.Contains(string(page), "<title>brokerbench study: controllers</title>") {
		t.Errorf("--html: %v, %d bytes", err, len(page))
	}
	var doc struct {
		Systems []string `json:"systems"`
	}
	if data, err := os.ReadFile(js); err != nil || json.Unmarshal(data, &doc) != nil || strings.Join(doc.Systems, ",") != "h800,h810,h800b" {
		t.Errorf("--json: %v, systems %q", err, doc.Systems)
	}
	if data, err := os.ReadFile(csv); err != nil || !strings.HasPrefix(string(data), "workload,kind,step,figure,system,") {
		t.Errorf("--csv: %v", err)
	}
	code, rstdout, stderr := runMain("report", dir)
	if code != 0 || rstdout != stdout {
		t.Errorf("report STUDYDIR: exit %d (%s), same text as compare: %v", code, stderr, rstdout == stdout)
	}
	if code, _, stderr = runMain("report", dir, "--json"); code != 0 {
		t.Errorf("report --json: exit %d: %s", code, stderr)
	}
}

// TestCompareStudyRefuses: a folder without a study record, and an output over a
// file of the study, are usage errors of one line; the study's files stay as they
// were.
func TestCompareStudyRefuses(t *testing.T) {
	dir := studyDir(t)
	empty := t.TempDir()
	for _, args := range [][]string{{"compare", empty}, {"report", empty}} {
		code, _, stderr := runMain(args...)
		if code != 2 || !strings.Contains(stderr, "without a study record (study.json)") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%s of a folder without a record: exit %d, %q", args[0], code, stderr)
		}
	}
	record := filepath.Join(dir, results.StudyFile)
	before, _ := os.ReadFile(record)
	run := filepath.Join(dir, studyfixture.FileOf(studyfixture.Base, "oltp", 1))
	for _, args := range [][]string{{"compare", dir, "--html", record}, {"compare", dir, "--csv", run}, {"report", dir, "--html", record}} {
		code, _, stderr := runMain(args...)
		if code != 2 || !strings.Contains(stderr, "is also an input") {
			t.Errorf("%q: exit %d, %q", args, code, stderr)
		}
	}
	if after, _ := os.ReadFile(record); string(after) != string(before) {
		t.Error("the study record was overwritten")
	}
	if code, _, _ := runMain("compare", run); code != 2 {
		t.Errorf("compare of one file: exit %d, want 2", code)
	}
}

// TestCompareStudyGates: run gates trip on the OLTP workload, disk gates on the
// profiles and the replay, each trip named by its workload; a gate past every
// change passes; a verdict gate on two repeats a side cannot judge (exit 4).
func TestCompareStudyGates(t *testing.T) {
	dir := studyDir(t)
	for _, tc := range []struct {
		gate string
		code int
		want string
	}{
		{"tps_e worse", 3, "TRIPPED oltp: "},
		{"disk.iops<-10%", 3, "TRIPPED profiles: run h810 at database, 1 outstanding: disk.iops"},
		{"tps<-60%", 0, "none tripped"},
		{"disk.nosuch<1", 2, ""},
	} {
		code, stdout, stderr := runMain("compare", dir, "--fail-if", tc.gate)
		if code != tc.code || !strings.Contains(stdout, tc.want) {
			t.Errorf("--fail-if %q: exit %d, want %d with %q:\n%s%s", tc.gate, code, tc.code, tc.want, stdout, stderr)
		}
	}
	rec, err := results.ReadStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rec.Runs {
		if rec.Runs[i].Repeat == 3 {
			rec.Runs[i].Status = results.StudyRunInterrupted
		}
	}
	if err := results.WriteStudy(dir, rec); err != nil {
		t.Fatal(err)
	}
	if code, stdout, _ := runMain("compare", dir, "--fail-if", "tps_e worse"); code != 4 || !strings.Contains(stdout, "UNJUDGED oltp: ") {
		t.Errorf("a verdict gate on 2 repeats a side: exit %d, want 4:\n%s", code, stdout)
	}
}
