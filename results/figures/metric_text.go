package figures

import (
	"fmt"
	"math"
	"strings"

	"github.com/brokerbench/brokerbench/results/stats"
)

// FormatValue renders a metric's value with its unit.
func FormatValue(m Metric, v float64) string {
	switch m.Unit {
	case UnitMS:
		return formatMS(v)
	case unitMBps:
		return fmt.Sprintf("%.1f MB/s", v)
	case UnitRatio:
		return fmt.Sprintf("%.2f", v)
	case unitFraction:
		return FormatHitRatio(v)
	case UnitPercent:
		return fmt.Sprintf("%.1f %%", v)
	}
	if m.Integer {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

// formatMS shows milliseconds with three significant digits below 10 ms, since
// storage differences live in the sub-millisecond range.
func formatMS(v float64) string {
	switch {
	case v < 10:
		return fmt.Sprintf("%.3f ms", v)
	case v < 100:
		return fmt.Sprintf("%.2f ms", v)
	}
	return fmt.Sprintf("%.1f ms", v)
}

// FormatInterval reads "+1.2 … +8.4 %".
func FormatInterval(lo, hi float64) string {
	return strings.TrimSuffix(FormatChange(lo, 1), " %") + " … " + FormatChange(hi, 1)
}

// farChange is the size of change beyond which a percentage says nothing a reader
// can use ("+366566.7 %" from a near-zero base): the two values are shown instead.
const farChange = 1000

// FormatChangeOf is a change as a percentage, or "0.002 → 3.500 ms" when the base
// is (near) zero.
func FormatChangeOf(m Metric, b, v float64) string {
	ch := stats.Change(b, v)
	if math.IsInf(ch, 0) || math.Abs(ch) >= farChange {
		return FormatValue(m, b) + " → " + FormatValue(m, v)
	}
	return FormatChange(ch, 1)
}
