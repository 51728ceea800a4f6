package run

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/iotrace"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/capture"
)

// stepCapture records the block requests of the disks under the database's data
// and WAL directories over each step's measured window (run --capture-io DIR): one
// capture folder per step, DIR/step-N, holding the trace and its summary as
// `brokerbench capture` writes them (so `replay DIR/step-N` reads it), and the
// summary in the step. One trace instance serves the whole run; recording is on
// only inside the windows. The window is the storage sampler's, to the read: the
// I/O adapter arms the trace before its edge's read and gives the trace that read's
// time as its start (and end), so the trace and the step's diskstats figures count
// the same requests.
type stepCapture struct {
	dir  string
	rec  *iotrace.Recorder
	logf func(string, ...any)
	n    int // windows opened
	// f is the open window's trace in folder; nil between windows.
	f      *os.File
	folder string
	// last is the summary of the window closed last, for the step (probe).
	last *results.IOCapture
}

// openCapture starts --capture-io before the first step: the disks are those the
// storage sampler found under the database's directories on this host, so a remote
// database, storage sampling off, or a capture that cannot start (no root or
// CAP_SYS_ADMIN) stop the run here in one line rather than after its steps.
func (s *runSession) openCapture() error {
	dir := s.opts.CaptureIO
	var dirs []string
	why := "storage sampling is off"
	if s.sampler != nil {
		dirs, why = s.sampler.Dirs()
	}
	if len(dirs) == 0 {
		return session.Usagef("--capture-io: the database's disks are not measured on this host (%s); capture runs where the database's data directory is", why)
	}
	devs, err := capture.Devices(capture.Options{Dirs: dirs})
	if err != nil {
		return fmt.Errorf("--capture-io: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--capture-io %s: %w", dir, err)
	}
	rec, err := iotrace.Open(devs)
	if err != nil {
		return fmt.Errorf("--capture-io: %w", err)
	}
	c := &stepCapture{dir: dir, rec: rec, logf: s.lw.logf}
	s.undo = append(s.undo, c.close)
	s.ioAd.capture = c
	s.probes = append(s.probes, c.probe)
	s.lw.logf("run: capturing the block requests of %s in each step's measured window into %s", strings.Join(rec.Devices(), ", "), dir)
	return nil
}

// checkCaptureDir refuses a --capture-io folder that already holds a run's traces
// (DIR/step-N, or DIR/rK/step-N of a repeated run): a trace is never overwritten.
func checkCaptureDir(dir string) error {
	for _, pattern := range []string{"step-*", "r*/step-*"} {
		if old, _ := filepath.Glob(filepath.Join(dir, pattern)); len(old) > 0 {
			return session.Usagef("--capture-io %s already holds a run's traces (%s); give another folder", dir, old[0])
		}
	}
	return nil
}

// arm starts the next step's trace before the sampler reads the window's first
// edge; from then sets its start to that read's time.
func (c *stepCapture) arm() {
	c.n++
	folder := filepath.Join(c.dir, "step-"+strconv.Itoa(c.n))
	if err := c.start(folder); err != nil {
		c.logf("run: --capture-io: step %d not captured: %v", c.n, err)
	}
}

func (c *stepCapture) from(at time.Time) {
	if c.f != nil {
		c.rec.From(at)
	}
}

// hold keeps the trace's events in the kernel's buffer while the sampler reads the
// window's last edge; until then ends the trace at that read's time and keeps its
// summary for the step.
func (c *stepCapture) hold() {
	if c.f != nil {
		c.rec.Hold()
	}
}

func (c *stepCapture) until(at time.Time) {
	if c.f == nil {
		return
	}
	sum, err := c.stop(at)
	if err != nil {
		c.logf("run: --capture-io: step %d's trace: %v", c.n, err)
		return
	}
	c.last = sum
}

// probe is a driver.WindowProbe: the summary of the window the I/O adapter closed
// just before goes into the step.
func (c *stepCapture) probe() func(*results.Step) {
	n := c.n
	return func(st *results.Step) {
		sum := c.last
		c.last = nil
		if sum == nil {
			return
		}
		st.IOCapture = sum
		if sum.LostEvents > 0 {
			c.logf("run: --capture-io: WARNING the kernel dropped %d events in step %d (trace buffer full): its trace misses requests", sum.LostEvents, n)
		}
	}
}

func (c *stepCapture) start(folder string) error {
	if err := os.Mkdir(folder, 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(folder, capture.TraceFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if err := c.rec.Arm(f); err != nil {
		f.Close()
		return err
	}
	c.f, c.folder = f, folder
	return nil
}

// stop ends the window's trace at the time given (now for the zero time) and writes its summary
// beside it, as capture does.
func (c *stepCapture) stop(at time.Time) (*results.IOCapture, error) {
	sum, err := c.rec.StopAt(at)
	if cerr := c.f.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("write the trace: %w", cerr)
	}
	c.f = nil
	if err != nil {
		return nil, err
	}
	sum.Trace = filepath.Join(c.folder, capture.TraceFile)
	data, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return nil, err
	}
	return sum, os.WriteFile(filepath.Join(c.folder, capture.SummaryFile), append(data, '\n'), 0o644)
}

// close ends a window the run left open (its trace and summary end there) and
// removes the trace instance.
func (c *stepCapture) close() {
	if c.f != nil {
		c.stop(time.Time{})
	}
	if err := c.rec.Close(); err != nil {
		c.logf("run: --capture-io: %v", err)
	}
}
