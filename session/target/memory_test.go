package target

import (
	"fmt"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/bytesize"
)

// TestWarnTightCap: a cap whose three quarters cannot hold the server's other shared
// memory and the run's backends is named with the cap to give; one that can, or no
// cap, says nothing.
func TestWarnTightCap(t *testing.T) {
	for _, tc := range []struct {
		capBytes int64
		conns    int
		warn     bool
	}{
		{0, 300, false},
		// quickstart's old cap: half a 455 MB database for 27 connections. The OOM
		// killer ended a backend at the end of its 16-user step (101 MB of shmem
		// beside 25 backends of up to 6.6 MB each).
		{227 << 20, 27, true},
		{CapNeeded(27), 27, false},
		{1 << 30, 310, true}, // 300 users on a 1 GB cap
		{3 << 30, 310, false},
	} {
		var got []string
		WarnTightCap(tc.capBytes, tc.conns, func(f string, a ...any) { got = append(got, fmt.Sprintf(f, a...)) })
		if (len(got) > 0) != tc.warn {
			t.Errorf("cap %d MB, %d connections: warned %q, want a warning %v", tc.capBytes>>20, tc.conns, got, tc.warn)
		}
		if tc.warn && !strings.Contains(got[0], "--server-memory") {
			t.Errorf("the warning does not say what to give: %s", got[0])
		}
	}
}

// TestOOMAdviceAboveTheCap: the advice after an OOM kill names a cap above the one
// that was too small, as --server-memory reads it; "more than 183.1 MiB" for a cap
// the user gave as 192MB read as less than it.
func TestOOMAdviceAboveTheCap(t *testing.T) {
	for capBytes, want := range map[int64]string{
		192_000_000: "its cap of 183.1 MiB was too small: give --server-memory 288MiB or more",
		192 << 20:   "its cap of 192 MiB was too small: give --server-memory 288MiB or more",
		96 << 20:    "its cap of 96 MiB was too small: give --server-memory 160MiB or more",
		4 << 30:     "its cap of 4 GiB was too small: give --server-memory 6144MiB or more",
	} {
		got := oomAdvice(capBytes)
		if !strings.Contains(got, want) {
			t.Errorf("oomAdvice(%d) = %q, want it to say %q", capBytes, got, want)
		}
		figure := strings.TrimSuffix(strings.Fields(strings.SplitAfter(got, "--server-memory ")[1])[0], "MiB")
		if v, err := bytesize.Parse(figure + "MiB"); err != nil || v <= capBytes {
			t.Errorf("oomAdvice(%d) advises %sMiB (%v), not above the cap", capBytes, figure, err)
		}
	}
}
