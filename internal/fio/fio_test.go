package fio

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseVersion(t *testing.T) {
	for in, want := range map[string]Version{"fio-3.33\n": {3, 33}, "fio-3.36-12-gabcdef": {3, 36}, "fio-2.2.10": {2, 2}} {
		got, err := ParseVersion(in)
		if err != nil || got != want {
			t.Errorf("ParseVersion(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseVersion("flexible io tester"); err == nil {
		t.Error("accepted a line without a version")
	}
	if !(Version{2, 21}).Less(MinVersion) || (Version{3, 33}).Less(MinVersion) {
		t.Error("Less does not order versions")
	}
}

func TestCheckMissing(t *testing.T) {
	_, err := Check(context.Background(), filepath.Join(t.TempDir(), "fio"))
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "apt-get install fio") {
		t.Errorf("missing fio: %v; want ErrNotFound with the install hint", err)
	}
}

func TestRenderRefusesLineBreaks(t *testing.T) {
	f := JobFile{Jobs: []Job{{Name: "x", Options: []Option{{Key: "bs", Value: "8k\n[evil]"}}}}}
	if _, err := f.Render(); err == nil {
		t.Error("a value with a line break was rendered into the job file")
	}
}

// TestRunStoppedKeepsFigures: a run whose context ends stops fio with SIGINT and
// still returns what fio measured until then.
func TestRunStoppedKeepsFigures(t *testing.T) {
	b, err := Check(context.Background(), "fio")
	if err != nil {
		t.Skipf("fio is not installed: %v", err)
	}
	path := filepath.Join(t.TempDir(), "f")
	job := JobFile{Global: []Option{{Key: "filename", Value: path}, {Key: "size", Value: "8m"}},
		Jobs: []Job{{Name: "long", Options: []Option{{Key: "rw", Value: "randread"}, {Key: "bs", Value: "4k"},
			{Key: "time_based"}, {Key: "runtime", Value: "600"}}}}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Stop fio once it is doing I/O: it lays the file out first, and a SIGINT
	// before its handlers are in place would only kill it.
	go func() {
		for ctx.Err() == nil {
			if fi, err := os.Stat(path); err == nil && fi.Size() == 8<<20 {
				time.Sleep(500 * time.Millisecond) // some reads to report, not a synchronisation
				cancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	start := time.Now()
	out, err := b.Run(ctx, job)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v; want context.Canceled", err)
	}
	if time.Since(start) > StopGrace+time.Minute {
		t.Errorf("fio ran on for %s after the stop", time.Since(start))
	}
	if out == nil || len(out.Jobs) == 0 || out.Jobs[0].Read.TotalIOs == 0 {
		t.Fatalf("no figures kept from the stopped run: %+v", out)
	}
}
