package replay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session"
)

func needFio(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("fio"); err != nil {
		t.Skip("fio is not installed")
	}
}

// writeTrace writes an iolog v3 trace of n 4 KiB requests, one every 200 µs over
// the first 2 MiB, every third a write; it returns the trace and its reads.
func writeTrace(t *testing.T, n int) (string, int) {
	t.Helper()
	var b strings.Builder
	b.WriteString("fio version 3 iolog\n0 /dev/captured add\n0 /dev/captured open\n")
	reads := 0
	for i := range n {
		act := "write"
		if i%3 != 0 {
			act = "read"
			reads++
		}
		fmt.Fprintf(&b, "%d /dev/captured %s %d 4096\n", 1000+i*200, act, (i*37%512)*4096)
	}
	fmt.Fprintf(&b, "%d /dev/captured close\n", 1000+n*200)
	path := filepath.Join(t.TempDir(), "trace.iolog")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, reads
}

func quiet() (session.Console, *bytes.Buffer, *bytes.Buffer) {
	var stdout, stderr bytes.Buffer
	return session.Console{Stdout: &stdout, Stderr: &stderr}, &stdout, &stderr
}

// TestRunOnATargetItCreates drives a replay through its options alone: a target
// file that does not exist is created, every request is replayed on it, the result
// file says so, and the file is removed afterwards.
func TestRunOnATargetItCreates(t *testing.T) {
	t.Parallel()
	needFio(t)
	trace, reads := writeTrace(t, 120)
	dir := t.TempDir()
	target, out := filepath.Join(dir, "replay.dat"), filepath.Join(dir, "r.json")
	con, stdout, stderr := quiet()
	o := Options{Target: target, Speed: 1, ASAP: true, Depth: 4, Out: out, Label: "created", FIO: "fio", Tool: "v0-test"}
	if err := Run(context.Background(), con, o, trace); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	r, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	rp, st := r.Disk.Replay, r.Disk.Steps[0]
	if rp.Captured != 120 || rp.Replayed != 120 || rp.Mode != "asap" || r.Tool != "v0-test" || r.Label != "created" {
		t.Errorf("replay %+v, tool %q, label %q", rp, r.Tool, r.Label)
	}
	if st.Read == nil || st.Read.IOs != int64(reads) || st.Write == nil || st.Write.IOs != int64(120-reads) {
		t.Errorf("fio did %+v reads and %+v writes; the trace has %d and %d", st.Read, st.Write, reads, 120-reads)
	}
	if r.Disk.Target.Path != target || r.Disk.Target.Kept || r.Disk.Target.SizeBytes != 2<<20 {
		t.Errorf("target %+v", r.Disk.Target)
	}
	if _, err := os.Stat(target); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the target it created is still there: %v", err)
	}
	if !strings.Contains(stderr.String(), "removed the 2 MiB target file "+target) || !strings.Contains(stdout.String(), "120 of 120 requests") {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
}

// TestRunOnlyReadsAFileItDidNotCreate: an existing file is refused when the trace
// writes, and replayed only for its reads with SkipWrites; either way it stays byte
// for byte as it was.
func TestRunOnlyReadsAFileItDidNotCreate(t *testing.T) {
	t.Parallel()
	needFio(t)
	trace, reads := writeTrace(t, 60)
	dir := t.TempDir()
	theirs := filepath.Join(dir, "theirs.dat")
	content := bytes.Repeat([]byte("someone's data. "), (2<<20)/16)
	if err := os.WriteFile(theirs, content, 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.json")
	con, _, stderr := quiet()
	o := Options{Target: theirs, Speed: 1, ASAP: true, Depth: 4, Out: out, FIO: "fio"}
	err := Run(context.Background(), con, o, trace)
	var u session.UsageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "already exists and the trace writes") {
		t.Errorf("writes to an existing file: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused replay wrote a result file")
	}
	o.SkipWrites = true
	if err := Run(context.Background(), con, o, trace); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	r, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if rp := r.Disk.Replay; rp.Replayed != int64(reads) || r.Disk.Target.Kept {
		t.Errorf("replayed %d requests (the trace has %d reads), target %+v", rp.Replayed, reads, r.Disk.Target)
	}
	if b, err := os.ReadFile(theirs); err != nil || !bytes.Equal(b, content) {
		t.Errorf("the file it did not create changed (%v)", err)
	}
}
