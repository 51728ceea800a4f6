package capture

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/brokerbench/brokerbench/internal/testkit/testloop"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session"
)

// signalOnWrite closes ready when a line containing mark is written: the session's
// "capturing" line, said once the trace records.
type signalOnWrite struct {
	mark  string
	ready chan struct{}
	once  sync.Once
	mu    sync.Mutex
	buf   bytes.Buffer
}

func (s *signalOnWrite) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf.Write(p)
	if strings.Contains(s.buf.String(), s.mark) {
		s.once.Do(func() { close(s.ready) })
	}
	return len(p), nil
}

// TestRunRecordsTheWrites drives a capture through its options alone: the writes
// made to a loop device while it records, until its context ends, are in the trace
// at their offsets and counted in the summary beside it.
func TestRunRecordsTheWrites(t *testing.T) {
	raw := testloop.NewRaw(t, 16)
	out := filepath.Join(t.TempDir(), "cap")
	stderr := &signalOnWrite{mark: "capturing the block requests of " + raw.Dev, ready: make(chan struct{})}
	var stdout bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, session.Console{Stdout: &stdout, Stderr: stderr}, Options{Devices: []string{raw.Dev}, Out: out})
	}()
	select {
	case <-stderr.ready:
	case err := <-done:
		t.Fatalf("the capture ended before it started: %v", err)
	case <-time.After(2 * time.Minute):
		t.Fatal("the capture did not start within 2 minutes")
	}
	offsets := []int64{64 << 10, 1 << 20, 5 << 20, 9 << 20}
	writeDirect(t, raw.Dev, offsets)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	trace, err := os.ReadFile(filepath.Join(out, TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, off := range offsets {
		if want := fmt.Sprintf(" %s write %d 4096\n", raw.Dev, off); !bytes.Contains(trace, []byte(want)) {
			t.Errorf("the trace lacks %q:\n%s", want, trace)
		}
	}
	var sum results.IOCapture
	data, err := os.ReadFile(filepath.Join(out, SummaryFile))
	if err != nil || json.Unmarshal(data, &sum) != nil {
		t.Fatalf("summary %s: %v", data, err)
	}
	if sum.Writes < int64(len(offsets)) || sum.Interrupted || sum.Trace != filepath.Join(out, TraceFile) {
		t.Errorf("summary: %d writes (at least %d made), interrupted %v, trace %q", sum.Writes, len(offsets), sum.Interrupted, sum.Trace)
	}
	if !strings.Contains(stdout.String(), "trace "+sum.Trace+": ") {
		t.Errorf("stdout %q", stdout.String())
	}
}

// writeDirect writes one 4 KiB block at each offset of dev with O_DIRECT, so each
// is one request of its own that reaches the device at once.
func writeDirect(t *testing.T, dev string, offsets []int64) {
	t.Helper()
	fd, err := unix.Open(dev, unix.O_WRONLY|unix.O_DIRECT, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	// An anonymous mapping is page-aligned, as O_DIRECT wants the buffer.
	buf, err := unix.Mmap(-1, 0, 4096, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(buf)
	for i := range buf {
		buf[i] = byte(i)
	}
	for _, off := range offsets {
		if _, err := unix.Pwrite(fd, buf, off); err != nil {
			t.Fatalf("write at %d: %v", off, err)
		}
	}
}

// TestRunNeverOverwritesATrace: a folder that already holds a trace, or a summary,
// is refused as a usage mistake before anything is read, and what it holds stays.
func TestRunNeverOverwritesATrace(t *testing.T) {
	junk := filepath.Join(t.TempDir(), "sdb.blktrace.0")
	if err := os.WriteFile(junk, []byte("never read"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, held := range []string{TraceFile, SummaryFile} {
		out := t.TempDir()
		if err := os.WriteFile(filepath.Join(out, held), []byte("someone's"), 0o600); err != nil {
			t.Fatal(err)
		}
		err := Run(context.Background(), session.Console{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}, Options{Blktrace: []string{junk}, Out: out})
		var u session.UsageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), "--out "+out+" already holds a") {
			t.Errorf("%s already there: %v", held, err)
		}
		if b, _ := os.ReadFile(filepath.Join(out, held)); string(b) != "someone's" {
			t.Errorf("%s now holds %q", held, b)
		}
	}
}
