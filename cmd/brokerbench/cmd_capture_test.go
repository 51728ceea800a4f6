package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/testloop"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session/capture"
)

// TestCaptureCommand: refusals in one line (a file that is not blktrace's among
// them), and a short capture of a device that
// leaves a trace fio can read and its summary.
func TestCaptureCommand(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.blktrace.0")
	if err := os.WriteFile(junk, []byte("not a trace at all, just text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"capture", "--out", dir}, "--dir DIR or --device DEVICE"},
		{[]string{"capture", "--device", "/dev/null", "--out", dir}, "not a block device"},
		{[]string{"capture", "--dir", dir}, "--out FOLDER is required"},
		{[]string{"capture", "--blktrace", junk, "--dir", dir, "--out", dir}, "without --dir"},
		{[]string{"capture", "--blktrace", filepath.Join(dir, "none.blktrace.*"), "--out", dir}, "no such file"},
		{[]string{"capture", "--blktrace", junk, "--out", filepath.Join(dir, "junk")}, "not a blktrace file"},
	} {
		code, _, stderr := runMain(tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line with %q", tc.args, code, stderr, tc.want)
		}
	}
	d := testloop.NewRaw(t, 16)
	out := filepath.Join(dir, "cap")
	code, stdout, stderr := runMain("capture", "--device", d.Dev, "--duration", "300ms", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	trace, err := os.ReadFile(filepath.Join(out, captureTraceFile))
	if err != nil || !strings.HasPrefix(string(trace), "fio version 3 iolog\n0 "+d.Dev+" add\n") || !strings.HasSuffix(string(trace), d.Dev+" close\n") {
		t.Errorf("trace %q (%v)", trace, err)
	}
	var s results.IOCapture
	data, err := os.ReadFile(filepath.Join(out, captureSummaryFile))
	if err != nil || json.Unmarshal(data, &s) != nil || s.DurationS <= 0 || len(s.Devices) != 1 || s.Devices[0] != d.Dev {
		t.Errorf("summary %s (%v)", data, err)
	}
	if !strings.Contains(stdout, "requests in") {
		t.Errorf("stdout %q", stdout)
	}
	// A second capture into the same folder is refused: a trace is never overwritten.
	if code, _, stderr := runMain("capture", "--device", d.Dev, "--duration", "1s", "--out", out); code != exitUsage || !strings.Contains(stderr, "already holds a trace") {
		t.Errorf("second capture: exit %d, %q", code, stderr)
	}
}

// sizeOfBucket reads a capture summary's size bucket in bytes.
var sizeOfBucket = capture.SizeOfBucket
