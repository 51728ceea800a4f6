package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/studyfixture"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
)

// fixtureStudy compares the fixture's study folder: a baseline, a system slower
// where storage binds and the baseline's twin, 3 repeats each, interleaved.
func fixtureStudy(t *testing.T) *compare.Study {
	t.Helper()
	dir := t.TempDir()
	if _, err := studyfixture.Write(dir); err != nil {
		t.Fatal(err)
	}
	s, err := compare.CompareStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStudyTextAndHTML pins (with this package's golden, as -update is its own)
// the study's text and HTML reports: headlines, one
// table per workload with the systems as columns, the record, the drift check.
func TestStudyTextAndHTML(t *testing.T) {
	s := fixtureStudy(t)
	var txt, html bytes.Buffer
	if err := WriteStudyText(s, &txt); err != nil {
		t.Fatal(err)
	}
	golden(t, "study.txt", txt.Bytes())
	if err := WriteStudyHTML(s, &html); err != nil {
		t.Fatal(err)
	}
	golden(t, "study.html", html.Bytes())
	// tps and p95 of the OLTP ramp, IOPS of each of the two profiles.
	checkSelfContained(t, html.String(), 4)
	if strings.Contains(html.String(), "copy=<b>") || !strings.Contains(html.String(), "copy=&lt;b&gt;") {
		t.Error("a tag from the record reached the page unescaped")
	}
	for _, want := range []string{"oltp: tpsE at 8 users -40 % [", "Runs in the order they ran", "Drift check, profiles", "repeats decided: 3 repeats"} {
		if !strings.Contains(txt.String(), want) {
			t.Errorf("the text report lacks %q", want)
		}
	}
}

// TestStudyVerdicts: in every export, the slow system reads worse with an interval
// wholly below zero where storage binds, its twin within noise, and the streaming
// profile, where the throttle does not bind, within noise for both.
func TestStudyVerdicts(t *testing.T) {
	s := fixtureStudy(t)
	var js bytes.Buffer
	if err := WriteStudyJSON(s, &js); err != nil {
		t.Fatal(err)
	}
	var doc studyJSON
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	cell := func(w, step, fig, sys string) studyCellJSON {
		for _, wl := range doc.Workloads {
			for _, c := range wl.Cells {
				if wl.Name == w && c.Step == step && c.Figure == fig && c.System == sys {
					return c
				}
			}
		}
		t.Fatalf("no cell %s %s %s %s", w, step, fig, sys)
		return studyCellJSON{}
	}
	for _, x := range []struct{ w, step, fig string }{
		{"oltp", "8 users", "tps_e"}, {"profiles", "database, 16 outstanding", "disk.iops"}, {"replay", "replay, 8 outstanding", "replay.achieved"},
	} {
		slow, same := cell(x.w, x.step, x.fig, studyfixture.Slow), cell(x.w, x.step, x.fig, studyfixture.Same)
		if slow.Verdict != "worse" || slow.Hi == nil || *slow.Hi >= 0 || slow.Detectable == nil || *slow.Change > -35 {
			t.Errorf("%s %s: the slow system reads %+v; want worse with its interval below zero", x.w, x.fig, slow)
		}
		if same.Verdict != string(compare.VerdictNoise) || same.Lo == nil || *same.Lo >= 0 || *same.Hi <= 0 {
			t.Errorf("%s %s: the twin reads %+v; want within noise", x.w, x.fig, same)
		}
	}
	if c := cell("profiles", "streaming, 16 outstanding", "disk.iops", studyfixture.Slow); c.Verdict != string(compare.VerdictNoise) {
		t.Errorf("streaming, where the throttle does not bind, reads %q", c.Verdict)
	}
	if b := cell("oltp", "8 users", "tps", studyfixture.Base); b.Value == nil || b.Change != nil || b.Verdict != "" {
		t.Errorf("the baseline's cell %+v carries a change", b)
	}
	var cb bytes.Buffer
	if err := WriteStudyCSV(s, &cb); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&cb).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, wl := range doc.Workloads {
		n += len(wl.Cells)
	}
	if len(rows) != n+1 || strings.Join(rows[0], ",") != strings.Join(StudyCSVHeader(), ",") {
		t.Errorf("%d CSV rows for %d cells, header %q", len(rows), n, rows[0])
	}
}

// TestStudyWarnsOfUnmatchedSteps: a step only one system ran is named among the
// warnings, not silently left out of the matrix.
func TestStudyWarnsOfUnmatchedSteps(t *testing.T) {
	dir := t.TempDir()
	if _, err := studyfixture.Write(dir); err != nil {
		t.Fatal(err)
	}
	for rep := 1; rep <= 3; rep++ {
		path := filepath.Join(dir, studyfixture.FileOf(studyfixture.Slow, "oltp", rep))
		run, err := results.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		extra := run.Steps[len(run.Steps)-1]
		extra.Users = 16
		run.Steps = append(run.Steps, extra)
		if err := results.Write(path, run); err != nil {
			t.Fatal(err)
		}
	}
	s, err := compare.CompareStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	var txt bytes.Buffer
	if err := WriteStudyText(s, &txt); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt.String(), "warning: oltp: h810 at 16 users not compared: the base run has no step with this user count") {
		t.Errorf("the unmatched step is not named:\n%s", txt.String())
	}
}
