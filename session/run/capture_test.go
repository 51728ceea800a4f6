package run

import (
	"errors"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/session"
)

// TestRunCaptureNeedsLocalDisks: without the sampler's local directories (a remote
// server, or sampling off) --capture-io stops the run before its first step, in a
// line that says why.
func TestRunCaptureNeedsLocalDisks(t *testing.T) {
	s := &runSession{opts: Options{CaptureIO: t.TempDir()}}
	err := s.openCapture()
	var ue session.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "not measured on this host (storage sampling is off)") {
		t.Errorf("openCapture without a sampler: %v", err)
	}
	if len(s.probes) != 0 || len(s.undo) != 0 {
		t.Error("a refused capture left a probe or an undo behind")
	}
}
