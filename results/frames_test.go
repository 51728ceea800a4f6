package results

import (
	"bytes"
	"strings"
	"testing"
)

// TestCompareWarnsWhenFramesDiffer: a server-frames run against a client-frames one
// (or one from before the field, which ran client) gets the warning; two runs of one
// mode do not; the report and the run line say the mode.
func TestCompareWarnsWhenFramesDiffer(t *testing.T) {
	old := sampleRun("old", []int{10, 20}, 1, 1, 1)
	client := sampleRun("client", []int{10, 20}, 1, 1, 1)
	client.Frames = FramesClient
	server := sampleRun("server", []int{10, 20}, 2, 1, 1)
	server.Frames = FramesServer

	c, err := Compare([]Input{{Path: "old.json", Run: old}, {Path: "client.json", Run: client}})
	if err != nil {
		t.Fatal(err)
	}
	if w := c.framesWarnings(); len(w) != 0 {
		t.Errorf("an old file against client frames: %q, want no warning", w)
	}
	c, err = Compare([]Input{{Path: "old.json", Run: old}, {Path: "server.json", Run: server}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := c.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "warning: server vs old: the frames ran on the server in one and on the client in the other") ||
		!strings.Contains(out, "response times are not comparable") {
		t.Errorf("compare output lacks the frames warning:\n%s", out)
	}
	b.Reset()
	if err := WriteReport(&b, Input{Path: "server.json", Run: server}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "server frames") {
		t.Errorf("report does not say the mode:\n%s", b.String())
	}
}
