package results

// StepSamples are a step's measured window second by second: what compare needs
// to put a 95 % interval on a change (docs/result-format.md, "samples"). The
// step's own figures are over the whole window; these say how much they moved
// inside it. Per-second figures are autocorrelated (a checkpoint slows several
// seconds in a row), so compare never treats them as independent draws: it groups
// them into batches (results/compare, estimate.go).
type StepSamples struct {
	// TPS and TPSE are all transactions and Trade-Results finished in each second
	// of the window, per second, in time order.
	TPS  []float64 `json:"tps"`
	TPSE []float64 `json:"tps_e"`
	// Response holds, per transaction name, one HdrHistogram per second (the
	// encoding of response_hist; "" for a second in which none finished), aligned
	// with TPS.
	Response map[string][]string `json:"response_hist,omitempty"`
}
