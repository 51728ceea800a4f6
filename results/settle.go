package results

import (
	"fmt"
	"math"
	"strings"
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

// SettleSpan is how many windows the rule reads: two groups.
const SettleSpan = 2 * SettleGroup

// SettleSpread is how far apart the last group's tps, and its reads per transaction,
// may lie: the highest at most this fraction above the lowest.
const SettleSpread = 0.10

// SettleShift is how far the last group's mean tps, and its mean reads per
// transaction, may lie from the group before's.
const SettleShift = 0.05

// SettleReadsFloor is the spread in reads per transaction always allowed: a cached
// database reading 0.01 against 0.02 per transaction has not moved.
const SettleReadsFloor = 0.5

// SettleWindowOf takes what the settling rule needs from a window's figures.
func SettleWindowOf(st *Step) SettleWindow {
	w := SettleWindow{TPS: st.TPS}
	if deviceCounted(st.IO) {
		r := *st.IO.ReadsPerTxn
		w.ReadsPerTxn = &r
	}
	if st.Background != nil {
		w.AutovacuumS = st.Background.AutovacuumS
	}
	return w
}

// Judge applies the settling rule to the windows so far and sets Steady and Why.
// The database is steady when the last SettleGroup windows' tps lie within
// SettleSpread of each other and their mean within SettleShift of the group
// before's; so do their reads per transaction (or within SettleReadsFloor); and
// autovacuum ran under DisturbedAutovacuumShare of the last window (a vacuum of what
// a load left is work a measured window must not hold).
func (s *Settle) Judge() {
	s.Steady, s.Why = false, ""
	n := len(s.Windows)
	if n < SettleSpan {
		s.Why = fmt.Sprintf("%d of the %d windows the rule needs", n, SettleSpan)
		return
	}
	before, last := s.Windows[n-SettleSpan:n-SettleGroup], s.Windows[n-SettleGroup:]
	tpsOf := func(ws []SettleWindow) []float64 {
		out := make([]float64, len(ws))
		for i, w := range ws {
			out[i] = w.TPS
		}
		return out
	}
	var moved []string
	tps, tpsBefore := tpsOf(last), tpsOf(before)
	lo, hi := minMax(tps)
	shift := sum(tps)/sum(tpsBefore) - 1 // groups of one size: the ratio of their means
	switch {
	case lo <= 0 || hi/lo-1 > SettleSpread:
		moved = append(moved, "tps "+settleRange(tps, "%.0f"))
	case math.Abs(shift) > SettleShift:
		moved = append(moved, fmt.Sprintf("tps %s after %s (%+.0f %%)", settleRange(tps, "%.0f"), settleRange(tpsBefore, "%.0f"), shift*100))
	}
	steady := fmt.Sprintf("tps within %.0f %% (%+.0f %% on the %d windows before)", spreadPct(lo, hi), shift*100, SettleGroup)
	reads, okLast := settleReads(last)
	readsBefore, okBefore := settleReads(before)
	if okLast && okBefore {
		rlo, rhi := minMax(reads)
		meanReads, meanBefore := sum(reads)/SettleGroup, sum(readsBefore)/SettleGroup
		rshift := meanReads - meanBefore
		switch {
		case rhi-rlo > max(SettleReadsFloor, SettleSpread*rlo):
			moved = append(moved, "reads per transaction "+settleRange(reads, "%.1f"))
		case math.Abs(rshift) > max(SettleReadsFloor, SettleShift*meanBefore):
			moved = append(moved, fmt.Sprintf("reads per transaction %s after %s", settleRange(reads, "%.1f"), settleRange(readsBefore, "%.1f")))
		}
		steady += fmt.Sprintf(", reads per transaction %.1f to %.1f", rlo, rhi)
	}
	if av := last[len(last)-1].AutovacuumS; av > 0 && av >= DisturbedAutovacuumShare*s.WindowS {
		moved = append(moved, fmt.Sprintf("autovacuum ran %.0f s of the last window", av))
	}
	if len(moved) > 0 {
		s.Why = strings.Join(moved, "; ")
		return
	}
	s.Steady, s.Why = true, steady
}

// Elapsed is the time the settling windows took.
func (s *Settle) Elapsed() float64 { return float64(len(s.Windows)) * s.WindowS }

// Summary is the settling in one line, for the run's log and its report.
func (s *Settle) Summary() string {
	took := formatSeconds(s.Elapsed())
	if s.Steady {
		return fmt.Sprintf("settled in %s (%d windows of %s): %s", took, len(s.Windows), formatSeconds(s.WindowS), s.Why)
	}
	return fmt.Sprintf("not steady after %s (%d windows of %s): %s; the first step's figures may still move (lengthen --settle)",
		took, len(s.Windows), formatSeconds(s.WindowS), s.Why)
}

// settleReads is the windows' reads per transaction when every one knows them.
func settleReads(ws []SettleWindow) ([]float64, bool) {
	out := make([]float64, 0, len(ws))
	for _, w := range ws {
		if w.ReadsPerTxn == nil {
			return nil, false
		}
		out = append(out, *w.ReadsPerTxn)
	}
	return out, true
}

func minMax(xs []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}

func spreadPct(lo, hi float64) float64 {
	if lo <= 0 {
		return math.Inf(1)
	}
	return (hi/lo - 1) * 100
}

// settleRange lists the windows' values in order ("327, 419, 427"), so a trend reads
// as one.
func settleRange(xs []float64, format string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf(format, x)
	}
	return strings.Join(parts, ", ")
}

// formatSeconds prints whole seconds as a duration ("45s", "5m0s").
func formatSeconds(s float64) string {
	return fmt.Sprint(secondsDuration(s))
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

// SettleWarnings names, for a comparison, every file whose settling ended before the
// database held still: its first step may still have been moving, as a run after a
// load climbs, and a verdict against it may show that climb.
func (c *Comparison) SettleWarnings() []string {
	var out []string
	for _, side := range c.Inputs {
		for _, in := range side.All() {
			if s := in.Run.Settle; s != nil && !s.Steady {
				out = append(out, fmt.Sprintf("%s (%s): %s.", side.Name(), in.Path, s.Summary()))
			}
		}
	}
	return out
}
