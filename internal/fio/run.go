package fio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// StopGrace is how long fio gets to finish after SIGINT before it is killed: it
// stops issuing I/O at once, but waits for the I/Os in flight and prints its
// figures.
const StopGrace = 30 * time.Second

// Run runs one job file and returns fio's figures. When ctx ends, fio is sent SIGINT
// (and killed after StopGrace): the figures it printed for the time it ran are
// returned with ctx's error, so a caller can keep or drop them. The job file and
// fio's output are written to a temporary folder that is removed afterwards.
func (b *Binary) Run(ctx context.Context, f JobFile) (*Output, error) {
	text, err := f.Render()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "brokerbench-fio-*")
	if err != nil {
		return nil, fmt.Errorf("fio: %w", err)
	}
	defer os.RemoveAll(dir)
	jobPath, outPath := filepath.Join(dir, "job.fio"), filepath.Join(dir, "out.json")
	if err := os.WriteFile(jobPath, []byte(text), 0o600); err != nil {
		return nil, fmt.Errorf("fio: %w", err)
	}
	var stderr bytes.Buffer
	args := []string{"--output-format=json+", "--output=" + outPath}
	if f.ReadOnly {
		args = append(args, "--readonly")
	}
	cmd := exec.CommandContext(ctx, b.Path, append(args, jobPath)...)
	cmd.Stderr = &stderr
	// fio given SIGINT stops its jobs and still reports them; a plain kill would
	// lose the figures of the I/O already done.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGINT) }
	cmd.WaitDelay = StopGrace
	runErr := cmd.Run()
	data, readErr := os.ReadFile(outPath)
	if ctx.Err() != nil {
		var out *Output
		if readErr == nil {
			out, _ = ParseOutput(data)
		}
		return out, ctx.Err()
	}
	if runErr != nil {
		return nil, fmt.Errorf("fio failed (%v): %s", runErr, lastLines(stderr.String(), 3))
	}
	if readErr != nil {
		return nil, fmt.Errorf("fio: %w", readErr)
	}
	out, err := ParseOutput(data)
	if err != nil {
		return nil, err
	}
	for _, j := range out.Jobs {
		if j.Error != 0 {
			return nil, fmt.Errorf("fio job %s: error %d (%s): %s", j.Name, j.Error, syscall.Errno(j.Error), lastLines(stderr.String(), 3))
		}
	}
	if len(out.Jobs) == 0 {
		return nil, errors.New("fio reported no job")
	}
	return out, nil
}

// lastLines keeps the end of fio's error output, on one line.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
