package figures

import (
	"fmt"
	"math"
	"strings"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/stats"
)

// SettleSpan is how many windows the rule reads: two groups.
const SettleSpan = 2 * results.SettleGroup

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
func SettleWindowOf(st *results.Step) results.SettleWindow {
	w := results.SettleWindow{TPS: st.TPS}
	if deviceCounted(st.IO) {
		r := *st.IO.ReadsPerTxn
		w.ReadsPerTxn = &r
	}
	if st.Background != nil {
		w.AutovacuumS = st.Background.AutovacuumS
	}
	return w
}

// JudgeLimits applies the settling rule to the windows so far and sets Steady and Why.
// The database is steady when the last SettleGroup windows' tps lie within
// SettleSpread of each other and their mean within SettleShift of the group
// before's; so do their reads per transaction (or within SettleReadsFloor); and
// autovacuum ran under DisturbedAutovacuumShare of the last window (a vacuum of what
// a load left is work a measured window must not hold).
func JudgeSettle(s *results.Settle) {
	s.Steady, s.Why = false, ""
	n := len(s.Windows)
	if n < SettleSpan {
		s.Why = fmt.Sprintf("%d of the %d windows the rule needs", n, SettleSpan)
		return
	}
	before, last := s.Windows[n-SettleSpan:n-results.SettleGroup], s.Windows[n-results.SettleGroup:]
	tpsOf := func(ws []results.SettleWindow) []float64 {
		out := make([]float64, len(ws))
		for i, w := range ws {
			out[i] = w.TPS
		}
		return out
	}
	var moved []string
	tps, tpsBefore := tpsOf(last), tpsOf(before)
	lo, hi := minMax(tps)
	shift := stats.Sum(tps)/stats.Sum(tpsBefore) - 1 // groups of one size: the ratio of their means
	switch {
	case lo <= 0 || hi/lo-1 > SettleSpread:
		moved = append(moved, "tps "+settleRange(tps, "%.0f"))
	case math.Abs(shift) > SettleShift:
		moved = append(moved, fmt.Sprintf("tps %s after %s (%+.0f %%)", settleRange(tps, "%.0f"), settleRange(tpsBefore, "%.0f"), shift*100))
	}
	steady := fmt.Sprintf("tps within %.0f %% (%+.0f %% on the %d windows before)", spreadPct(lo, hi), shift*100, results.SettleGroup)
	reads, okLast := settleReads(last)
	readsBefore, okBefore := settleReads(before)
	if okLast && okBefore {
		rlo, rhi := minMax(reads)
		meanReads, meanBefore := stats.Sum(reads)/results.SettleGroup, stats.Sum(readsBefore)/results.SettleGroup
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

// settleReads is the windows' reads per transaction when every one knows them.
func settleReads(ws []results.SettleWindow) ([]float64, bool) {
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
