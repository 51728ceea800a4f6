package results

import "math"

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
func SetNominal(st *Step, customers int64) {
	if customers <= 0 {
		return
	}
	pct := st.TPSE / NominalTPSE(customers) * 100
	st.NominalPercent = math.Round(pct*10) / 10
	if OverNominal(st, customers) {
		AddFlag(st, FlagOverNominal)
	}
}

// OverNominal tells whether the step's Trade-Results exceed what a step paced at
// the ceiling (102 % of nominal) would count in its window by more than
// OverNominalSigmas standard deviations of that count. A step whose window is
// unknown is judged on the ceiling alone.
func OverNominal(st *Step, customers int64) bool {
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
