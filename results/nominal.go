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
)

// NominalTPSE is the nominal throughput of a database of the given customers.
func NominalTPSE(customers int64) float64 {
	return float64(customers) / CustomersPerNominalTPSE
}

// SetNominal fills the step's nominal_percent (its tpsE against the customers'
// nominal tpsE, to 0.1 %) and flags it over-nominal above NominalCeilingPercent.
// Nothing is set when the customers are unknown.
func SetNominal(st *Step, customers int64) {
	if customers <= 0 {
		return
	}
	pct := st.TPSE / NominalTPSE(customers) * 100
	st.NominalPercent = math.Round(pct*10) / 10
	if st.NominalPercent > NominalCeilingPercent {
		AddFlag(st, FlagOverNominal)
	}
}
