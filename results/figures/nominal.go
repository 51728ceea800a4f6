package figures

import (
	"fmt"
	"math"

	"github.com/brokerbench/brokerbench/results"
)

// Nominal throughput, as the reference states it: one tpsE per 500 customers, and
// a result reportable when the measured tpsE lies within 80-102 % of that. A step
// driven well above it measures a database working harder than its size warrants,
// so its buffer-cache figures are not those of a reference run of that size.
const (
	CustomersPerNominalTPSE = 500
	// NominalCeilingPercent: above this a step is flagged FlagOverNominal.
	NominalCeilingPercent = 102
	// NominalFloorPercent is the reference's lower bound, for documentation and
	// --pace nominal's tests; nothing is flagged below it.
	NominalFloorPercent = 80
	FlagOverNominal     = "over-nominal"
	// OverNominalSigmas is how far above the ceiling a step's Trade-Result count
	// must lie, in standard deviations of a count at the ceiling (Poisson: its square
	// root), before it is flagged: a step paced exactly at nominal is flagged in well
	// under 1 % of windows, where the plain line flagged about a third of 5-minute
	// steps at 1,000 customers (480 Trade-Results, ±4.6 %).
	OverNominalSigmas = 2.0
)

// NominalTPSE is the nominal throughput of a database of the given customers.
func NominalTPSE(customers int64) float64 {
	return float64(customers) / CustomersPerNominalTPSE
}

// SetNominal fills the step's nominal_percent (its tpsE against the customers'
// nominal tpsE, to 0.1 %) and flags it over-nominal when it lies above
// NominalCeilingPercent by more than its sampling error (OverNominal). Nothing is
// set when the customers are unknown.
func SetNominal(st *results.Step, customers int64) {
	if customers <= 0 {
		return
	}
	pct := st.TPSE / NominalTPSE(customers) * 100
	st.NominalPercent = math.Round(pct*10) / 10
	if OverNominal(st, customers) {
		results.AddFlag(st, FlagOverNominal)
	}
}

// OverNominal tells whether the step's Trade-Results exceed what a step paced at
// the ceiling (102 % of nominal) would count in its window by more than
// OverNominalSigmas standard deviations of that count. A step whose window is
// unknown is judged on the ceiling alone.
func OverNominal(st *results.Step, customers int64) bool {
	ceiling := NominalTPSE(customers) * NominalCeilingPercent / 100
	if customers <= 0 || math.Round(st.TPSE/NominalTPSE(customers)*1000)/10 <= NominalCeilingPercent {
		return false
	}
	if st.MeasuredS <= 0 {
		return true
	}
	expected := ceiling * st.MeasuredS
	return st.TPSE*st.MeasuredS-expected > OverNominalSigmas*math.Sqrt(expected)
}

// NominalShortPercent is the share of nominal tpsE under which a step paced at the
// nominal rate is explained: a step within 2 % of it is on target.
const NominalShortPercent = 98

// NominalShortNote says why a step paced at the nominal rate (--pace nominal) read
// below it, when the emulator still held limit orders: each is a Trade-Result owed,
// completing only when the price wave reaches its limit, up to a wave period (900 s)
// after it was placed, so a run's first steps read low however fast the database
// (docs/workload.md §6.1.1). "" when the step is not paced at nominal, is on target,
// or the file does not say.
func NominalShortNote(r *results.Run, st *results.Step) string {
	if pace, _ := r.Options["pace"].(string); pace != "nominal" {
		return ""
	}
	lo := st.LimitOrders
	if st.NominalPercent <= 0 || st.NominalPercent >= NominalShortPercent || lo == nil || lo.Waiting+lo.Triggered == 0 {
		return ""
	}
	return fmt.Sprintf("tpsE %.1f %% of nominal at %d users: %d limit orders were still waiting for their price at the window's end, "+
		"each a Trade-Result owed; they complete up to 900 s after they are placed, so a run's first 15 minutes read below nominal "+
		"(a --warmup of 15m reaches it)", st.NominalPercent, st.Users, lo.Waiting+lo.Triggered)
}

// NominalShortNotes are NominalShortNote for every step of r, in step order.
func NominalShortNotes(r *results.Run) []string {
	var out []string
	for _, i := range StepOrder(r.Steps) {
		if n := NominalShortNote(r, &r.Steps[i]); n != "" {
			out = append(out, n+".")
		}
	}
	return out
}
