package results

import (
	"fmt"
)

// Settling: before its first step a run can hold the first step's users in windows
// until the database holds still (docs/result-format.md, "settle"). A freshly loaded
// or freshly started database is not yet where a long run is: its cache fills,
// autovacuum works through what the load left, and the host's own caches under the
// storage warm; a run measured then reads apart from the next one on the same
// system, and three repeats climb (327, 419, 427 tps) so that a second side run after
// them reads "+66 % better". The settling windows are not steps: the run records
// only what they showed and whether the database was steady.

// Settle is a run's record of its settling windows.
type Settle struct {
	// WindowS is each window's length; MaxS the settling's budget.
	WindowS float64 `json:"window_s"`
	MaxS    float64 `json:"max_s"`
	// Windows are the windows in order.
	Windows []SettleWindow `json:"windows"`
	// Steady tells whether the last windows held still; Why says how, or what moved.
	Steady bool   `json:"steady"`
	Why    string `json:"why"`
}

// SettleWindow is what one settling window showed.
type SettleWindow struct {
	TPS float64 `json:"tps"`
	// ReadsPerTxn is the disks' reads per transaction, when the run reads the
	// database's devices.
	ReadsPerTxn *float64 `json:"reads_per_txn,omitempty"`
	// AutovacuumS is how long an autovacuum worker ran in the window, when known.
	AutovacuumS float64 `json:"autovacuum_s,omitempty"`
}

// SettleGroup is how many windows make a group: the last group must agree within
// itself (SettleSpread) and with the group before it (SettleShift), so a fast climb
// shows as a spread and a slow one (a few percent a window, the storage's own caches
// warming under a capped server) as a shift between the groups.
const SettleGroup = 3

// Elapsed is the time the settling windows took.
func (s *Settle) Elapsed() float64 { return float64(len(s.Windows)) * s.WindowS }

// MaxSummary is the settling in one line, for the run's log and its report.
func (s *Settle) Summary() string {
	took := formatSeconds(s.Elapsed())
	if s.Steady {
		return fmt.Sprintf("settled in %s (%d windows of %s): %s", took, len(s.Windows), formatSeconds(s.WindowS), s.Why)
	}
	return fmt.Sprintf("not steady after %s (%d windows of %s): %s; the first step's figures may still move (lengthen --settle)",
		took, len(s.Windows), formatSeconds(s.WindowS), s.Why)
}

// formatSeconds prints whole seconds as a duration ("45s", "5m0s").
func formatSeconds(s float64) string {
	return fmt.Sprint(SecondsDuration(s))
}

// SettleWindowText is one window for the run's log: "settling 2: 612 tps, 21.3 reads
// per transaction".
func SettleWindowText(n int, w SettleWindow) string {
	s := fmt.Sprintf("settling %d: %.0f tps", n, w.TPS)
	if w.ReadsPerTxn != nil {
		s += fmt.Sprintf(", %.1f reads per transaction", *w.ReadsPerTxn)
	}
	if w.AutovacuumS > 0 {
		s += fmt.Sprintf(", autovacuum %.0f s", w.AutovacuumS)
	}
	return s
}
