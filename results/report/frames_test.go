package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
)

// TestCompareWarnsWhenFramesDiffer: a server-frames run against a client-frames one
// (or one from before the field, which ran client) gets the warning; two runs of one
// mode do not; the report and the run line say the mode.
func TestCompareWarnsWhenFramesDiffer(t *testing.T) {
	old := runfixture.SampleRun("old", []int{10, 20}, 1, 1, 1)
	client := runfixture.SampleRun("client", []int{10, 20}, 1, 1, 1)
	client.Frames = results.FramesClient
	server := runfixture.SampleRun("server", []int{10, 20}, 2, 1, 1)
	server.Frames = results.FramesServer

	c, err := compare.Compare([]results.Input{{Path: "old.json", Run: old}, {Path: "client.json", Run: client}})
	if err != nil {
		t.Fatal(err)
	}
	if w := c.FramesWarnings(); len(w) != 0 {
		t.Errorf("an old file against client frames: %q, want no warning", w)
	}
	c, err = compare.Compare([]results.Input{{Path: "old.json", Run: old}, {Path: "server.json", Run: server}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteComparisonText(c, &b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "warning: server vs old: the frames ran on the server in one and on the client in the other") ||
		!strings.Contains(out, "response times are not comparable") {
		t.Errorf("compare output lacks the frames warning:\n%s", out)
	}
	b.Reset()
	if err := WriteReport(&b, results.Input{Path: "server.json", Run: server}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "server frames") {
		t.Errorf("report does not say the mode:\n%s", b.String())
	}
}
