package run

import (
	"bytes"
	"context"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session"
)

// TestRunWithoutTheCommandLine drives a run session through its Go API on a loaded
// database: two steps of 1 and 2 users written to a file of the test's, read back
// with their users, the label, the tool's version and the options the caller's
// record gave; the report and the consistency check print on the console's stdout.
func TestRunWithoutTheCommandLine(t *testing.T) {
	t.Parallel()
	dsn := testdb.Loaded(t)
	out := filepath.Join(t.TempDir(), "two-steps.json")
	var stdout, stderr bytes.Buffer
	g := &session.Globals{DB: dsn, Tool: "session-test", Console: session.Console{Stdout: &stdout, Stderr: &stderr}}
	o := defaultRunOptions()
	o.Users, o.Step, o.Warmup, o.Rate, o.Out, o.Label = "1,2", 3*time.Second, time.Second, 20, out, "go api"
	o.IODevices = []string{"none"}
	o.Record = func(used Options, g *session.Globals, shownDB string) map[string]any {
		return map[string]any{"users": used.Users, "db": shownDB}
	}
	if err := Run(context.Background(), g, o); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	r, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Steps) != 2 || r.Steps[0].Users != 1 || r.Steps[1].Users != 2 {
		t.Fatalf("%d steps, want users 1 and 2: %+v", len(r.Steps), r.Steps)
	}
	for i, st := range r.Steps {
		if st.Partial || st.TPS <= 0 {
			t.Errorf("step %d: partial %v, %.1f tps", i+1, st.Partial, st.TPS)
		}
	}
	if r.Label != "go api" || r.Tool != "session-test" || r.Interrupted || r.Options["users"] != "1,2" || r.Options["rate_scope"] != "all" {
		t.Errorf("label %q, tool %q, interrupted %v, options %v", r.Label, r.Tool, r.Interrupted, r.Options)
	}
	shown, _ := r.Options["db"].(string)
	if u, err := url.Parse(dsn); err != nil || shown == "" {
		t.Errorf("the recorded target %q (%v)", shown, err)
	} else if pw, ok := u.User.Password(); ok && strings.Contains(shown, pw) {
		t.Errorf("the recorded target %q shows the password", shown)
	}
	for _, want := range []string{"results written to " + out, "check: OK"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout does not say %q:\n%s", want, stdout.String())
		}
	}
}
