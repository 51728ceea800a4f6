package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/results"
)

// testQuickstartOn runs quickstart against a loaded database (it reuses the load)
// with a short, small ramp (quickstart has no --rate, so its steps run at full speed
// and burn the machine's cores; two steps of one and two users cover the ramp): the per-step table, the result file, the HTML report and the
// next steps.
func testQuickstartOn(t *testing.T, dsn, dir string) {
	out := filepath.Join(dir, "qs.json")
	code, stdout, stderr := runMain("quickstart", "--db", dsn, "--users", "1,2", "--step", "2s", "--warmup", "1s", "--out", out)
	if code != 0 {
		t.Fatalf("quickstart: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"1/4", "2/4 the database already holds a load", "3/4", "4/4"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("progress lacks %q:\n%s", want, stderr)
		}
	}
	for _, want := range []string{" step  users", "What to try next", "brokerbench compare " + out, "HTML report: " + filepath.Join(dir, "qs.html")} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	r, err := results.Read(out)
	if err != nil || len(r.Steps) != 2 || r.Label != "quickstart" {
		t.Fatalf("result file: %v %+v", err, r)
	}
	// The file records the run quickstart made, as a `run` would: its options, not
	// quickstart's flags.
	o := r.Options
	if o["users"] != "1,2" || o["step"] != "2s" || o["label"] != "quickstart" || o["io-interval"] != "2s" || o["out"] != out || o["think"] != "0s" || o["html"] != nil {
		t.Errorf("options: %v", o)
	}
	html, err := os.ReadFile(filepath.Join(dir, "qs.html"))
	if err != nil || !strings.Contains(string(html), "<svg") {
		t.Errorf("HTML report: %v (%d bytes)", err, len(html))
	}
}
