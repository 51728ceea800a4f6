package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/results"
)

// TestFindMaxRealSearch is one short --find-max search on the real PostgreSQL.
// Its outcome is made certain by the limits, not by the machine's speed: the YAML
// config sets Trade-Status's limit to 1 µs, which no probe can hold, so the search
// shrinks from its start and stops at --max-steps with nothing passing. That
// exercises the probes as steps, the limits from YAML, the max record and the
// report, in two probes of three seconds.
func TestFindMaxRealSearch(t *testing.T) {
	t.Parallel()
	findMaxReal(t, testdb.Loaded(t))
}

// findMaxReal is TestFindMaxRealSearch on the loaded database dsn (MariaDB's in
// TestFindMaxAndShardsOnMariaDB).
func findMaxReal(t *testing.T, dsn string) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "max.yaml")
	if err := os.WriteFile(cfgPath, []byte("limit:\n  - trade-status.p90=1us\n  - trade-lookup.p90=none\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "max.json")
	code, stdout, stderr := runMain("run", "--db", dsn, "--config", cfgPath, "--find-max", "--users", "4", "--rate", "20",
		"--step", "3s", "--warmup", "1s", "--max-steps", "2", "--no-check", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"probe 1/2: 20 tps offered at 4 users (start)", "probe 2/2: 10 tps offered at 4 users (shrinking /2: 20 failed (Trade-Status p90"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("live output lacks %q:\n%s", want, stderr)
		}
	}
	if !strings.Contains(stdout, "no probe passed the limits") || !strings.Contains(stdout, "find-max: stopped after --max-steps 2 probes") {
		t.Errorf("report lacks the search's outcome:\n%s", stdout)
	}
	run, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Steps) != 2 {
		t.Fatalf("%d steps, want one per probe", len(run.Steps))
	}
	for i, st := range run.Steps {
		if st.Probe == nil || st.Probe.N != i+1 || st.Users != 4 {
			t.Errorf("step %d: probe %+v, users %d", i, st.Probe, st.Users)
		}
		if !slices.Contains(st.LimitsBroken, "Trade-Status") {
			t.Errorf("step %d: limits broken %v", i, st.LimitsBroken)
		}
	}
	if run.Steps[0].Rate != 20 || run.Steps[1].Rate != 10 {
		t.Errorf("rates %v, %v", run.Steps[0].Rate, run.Steps[1].Rate)
	}
	if run.Limits["Trade-Status"] != 0.001 {
		t.Errorf("recorded Trade-Status limit %v ms", run.Limits["Trade-Status"])
	}
	if _, ok := run.Limits["Trade-Lookup"]; ok {
		t.Error("=none must drop Trade-Lookup's limit")
	}
	m := run.Max
	if m == nil || m.Dimension != "rate" || m.Step != -1 || m.Stopped != "max-steps" || m.NextLoad != 10 || m.LimitedBy != "Trade-Status" || m.Users != 4 {
		t.Fatalf("max %+v", m)
	}
	if opts := run.Options["find-max"]; opts != "true" {
		t.Errorf("the search is not recorded in options: %v", opts)
	}
}
