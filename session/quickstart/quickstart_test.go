package quickstart

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/internal/iostat"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/run"
	"github.com/brokerbench/brokerbench/txn"
)

// TestRunOnALoadedServer drives quickstart through its Go API on a --db server that
// already holds a load: it uses the load, caps nothing (the server is not its own),
// runs its ramp into the result file named, writes the HTML report beside it, and
// ends with what to try next.
func TestRunOnALoadedServer(t *testing.T) {
	t.Parallel()
	dsn := testdb.Loaded(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "qs.json")
	var stdout, stderr bytes.Buffer
	g := &session.Globals{DB: dsn, Tool: "session-test", Console: session.Console{Stdout: &stdout, Stderr: &stderr}}
	o := &Options{Users: "1,2", Step: 3 * time.Second, Warmup: time.Second, Out: out, Run: run.Options{
		Settle: run.SettleAuto, LostGrace: driver.DefaultLostGrace, IOInterval: iostat.DefaultInterval,
		Frames: string(txn.ClientFrames), RepeatOpts: run.RepeatOptions{Repeat: 1}, IODevices: []string{"none"},
	}}
	if err := Run(context.Background(), g, o); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	r, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Steps) != 2 || r.Steps[0].Users != 1 || r.Steps[1].Users != 2 || r.Label != "quickstart" || r.Tool != "session-test" {
		t.Errorf("%d steps %+v, label %q, tool %q", len(r.Steps), r.Steps, r.Label, r.Tool)
	}
	html, err := os.ReadFile(filepath.Join(dir, "qs.html"))
	if err != nil || !bytes.Contains(html, []byte("<html")) {
		t.Errorf("the HTML report beside the result file: %d bytes, %v", len(html), err)
	}
	if !strings.Contains(stderr.String(), "quickstart: 2/4 the database already holds a load of 1000 customers") {
		t.Errorf("quickstart did not take the existing load:\n%s", stderr.String())
	}
	if strings.Contains(stderr.String(), "capping the server's memory") {
		t.Errorf("quickstart capped a server it does not manage:\n%s", stderr.String())
	}
	for _, want := range []string{"HTML report: " + filepath.Join(dir, "qs.html"), "result file: " + out, "What to try next:"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout does not say %q:\n%s", want, stdout.String())
		}
	}
}
