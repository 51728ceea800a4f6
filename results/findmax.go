package results

// Max is what `run --find-max` found: the largest offered load at which every
// response-time limit held and errors stayed under MaxErrorShare, to the search's
// resolution.
type Max struct {
	// Dimension is what the search varied: "rate" (all transaction starts per
	// second, the emulator's included, open loop, with Users held constant).
	Dimension string `json:"dimension"`
	// Load is the largest passing load in the dimension's unit; 0 when no probe
	// passed.
	Load float64 `json:"load"`
	// Users is the user count every probe held.
	Users int `json:"users"`
	// TPS and TPSE are the passing step's figures.
	TPS  float64 `json:"tps"`
	TPSE float64 `json:"tps_e"`
	// Step is the index into steps of the passing probe; -1 when none passed.
	Step int `json:"step"`
	// NextLoad is the lowest load that failed (the probe just above Load), 0 when
	// none failed; LimitedBy is the transaction that broke its limit furthest there,
	// NextWhy everything that failed there.
	NextLoad  float64 `json:"next_load,omitempty"`
	LimitedBy string  `json:"limited_by,omitempty"`
	NextWhy   string  `json:"next_why,omitempty"`
	// Resolution is the search's relative resolution (0.05 = 5 %).
	Resolution float64 `json:"resolution"`
	// Stopped says why the search ended: "resolved", "max-steps", "driver-bottleneck",
	// "interrupted", "none-passed", "ceiling".
	Stopped string `json:"stopped"`
	// Note explains a stop other than "resolved" in words.
	Note string `json:"note,omitempty"`
}

// Probe is why --find-max ran a step.
type Probe struct {
	N   int    `json:"n"`   // 1-based probe number
	Why string `json:"why"` // e.g. "growing x2: 200 passed"
}

// Resolved tells whether the maximum is known to the stated resolution.
func (m *Max) Resolved() bool { return m != nil && m.Stopped == "resolved" }
