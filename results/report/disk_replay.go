package report

import (
	"fmt"

	"github.com/brokerbench/brokerbench/results"
)

// FidelityLine says in one line how faithfully a replay kept its trace, as replay
// prints it and report shows it.
func FidelityLine(r *results.Replay) string {
	line := fmt.Sprintf("fidelity: %d of %d requests (%.1f %%), %.2fs against %.2fs captured (IOPS %.0f %% of captured)",
		r.Replayed, r.Captured, r.Fidelity(), r.ReplayedS, r.CapturedS, r.AchievedPercent())
	if r.Mode != "asap" {
		line += fmt.Sprintf(", behind the timestamps p50 %.0f ms p99 %.0f ms max %.0f ms", r.LagP50MS, r.LagP99MS, r.LagMaxMS)
	}
	return line
}
