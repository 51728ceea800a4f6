package results

import (
	"fmt"
	"strings"
)

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

// Summary is one line: "max within limits: 400 tps offered (402 tps, 41.3 tpsE) at
// 50 users; 440 failed on Trade-Status".
func (m *Max) Summary() string {
	if m == nil {
		return ""
	}
	if m.Step < 0 {
		s := "no probe passed the limits"
		if m.NextWhy != "" {
			s += fmt.Sprintf(" (lowest tried %.4g: %s)", m.NextLoad, m.NextWhy)
		}
		return s
	}
	s := fmt.Sprintf("max within limits: %.4g tps offered (%.1f tps, %.2f tpsE) at %d users", m.Load, m.TPS, m.TPSE, m.Users)
	if m.NextLoad > 0 {
		s += fmt.Sprintf("; %.4g failed", m.NextLoad)
		if m.LimitedBy != "" {
			s += " on " + m.LimitedBy
		} else if m.NextWhy != "" {
			s += ": " + m.NextWhy
		}
	}
	if !m.Resolved() {
		s += " (" + m.Stopped + ", not resolved to the resolution)"
	}
	return s
}

// unresolvedMaxNote is what the compare headline adds when a maximum in it is not
// resolved: "; UNRESOLVED: B stopped at max-steps, a lower bound only".
func unresolvedMaxNote(ins ...Input) string {
	var parts []string
	for _, in := range ins {
		if m := in.Run.Max; m != nil && !m.Resolved() {
			parts = append(parts, fmt.Sprintf("%s stopped at %s, its maximum a lower bound only", in.Name(), m.Stopped))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "; UNRESOLVED: " + strings.Join(parts, "; ") + ", so the change is not the controllers' difference"
}

// flagUnresolvedMax marks the step of an unresolved maximum in the step table.
const flagUnresolvedMax = "X"

// unresolvedMaxTableNote explains the X flag under the step table.
func unresolvedMaxTableNote(r *Run) string {
	m := r.Max
	if m == nil || m.Resolved() || m.Step < 0 || m.Step >= len(r.Steps) {
		return ""
	}
	return fmt.Sprintf("X: the --find-max maximum (%d users at %.4g tps offered) is not resolved (%s): the highest load that passed, a lower bound of the maximum.",
		r.Steps[m.Step].Users, m.Load, m.Stopped)
}
