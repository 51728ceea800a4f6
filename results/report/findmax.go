package report

import (
	"fmt"

	"github.com/brokerbench/brokerbench/results"
)

// MaxSummary is one line: "max within limits: 400 tps offered (402 tps, 41.3 tpsE) at
// 50 users; 440 failed on Trade-Status".
func MaxSummary(m *results.Max) string {
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

// flagUnresolvedMax marks the step of an unresolved maximum in the step table.
const flagUnresolvedMax = "X"

// unresolvedMaxTableNote explains the X flag under the step table.
func unresolvedMaxTableNote(r *results.Run) string {
	m := r.Max
	if m == nil || m.Resolved() || m.Step < 0 || m.Step >= len(r.Steps) {
		return ""
	}
	return fmt.Sprintf("X: the --find-max maximum (%d users at %.4g tps offered) is not resolved (%s): the highest load that passed, a lower bound of the maximum.",
		r.Steps[m.Step].Users, m.Load, m.Stopped)
}
