package results_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
)

// TestStudyRoundTrip: a record written is read back the same, marked a study of
// this format, and its folder is known as a study folder.
func TestStudyRoundTrip(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	s := &results.Study{Name: "controllers", Source: "c.yaml", Baseline: "a",
		Systems:   []results.StudySystem{{Name: "a", Tags: map[string]string{"raid": "10"}, Where: []string{"folder /mnt/a"}}, {Name: "b"}},
		Workloads: []results.StudyWorkload{{Name: "oltp", Kind: results.WorkloadRun, EstimatedS: 60}},
		Repeats:   results.StudyRepeats{Count: 3, Target: 5, Figures: []string{"tps"}, Max: 8, Decided: "under 5 %"},
		Order:     "random", Seed: 7, Started: at, Updated: at.Add(time.Hour),
		Runs: []results.StudyRun{{System: "a", Workload: "oltp", Repeat: 1, File: results.StudyRunFile("a", "oltp", 1),
			Started: at, Finished: at.Add(time.Minute), Status: results.StudyRunDone}}}
	if results.IsStudyFolder(dir) {
		t.Error("an empty folder is a study folder")
	}
	if err := results.WriteStudy(dir, s); err != nil {
		t.Fatal(err)
	}
	got, err := results.ReadStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got.Kind != results.KindStudy || got.Format != results.FormatVersion || !reflect.DeepEqual(got, s) {
		t.Errorf("read back %+v, want %+v", got, s)
	}
	if !results.IsStudyFolder(dir) || got.Runs[0].File != "a-oltp-r1.json" || len(got.DoneRuns("a", "oltp")) != 1 {
		t.Errorf("folder %v, file %q, done runs %v", results.IsStudyFolder(dir), got.Runs[0].File, got.DoneRuns("a", "oltp"))
	}
}

// TestReadStudyRefuses: a folder without a record, and a result file put where the
// record belongs, are refused with errors that name the file and say why.
func TestReadStudyRefuses(t *testing.T) {
	dir := t.TempDir()
	_, err := results.ReadStudy(dir)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "no study record") {
		t.Errorf("a folder without a record: %v", err)
	}
	path := filepath.Join(dir, results.StudyFile)
	if err := results.Write(path, runfixture.SampleRun("a", []int{4}, 1, 1, 1)); err != nil {
		t.Fatal(err)
	}
	_, err = results.ReadStudy(dir)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not a study record") {
		t.Errorf("a result file as the record: %v", err)
	}
	if err := os.WriteFile(path, []byte("{\"kind\": \"study\","), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err = results.ReadStudy(dir); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("a truncated record: %v", err)
	}
}
