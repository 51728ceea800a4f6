package results

import (
	"fmt"
	"math"
	"strings"
)

// formatValue renders a metric's value with its unit.
func formatValue(m metric, v float64) string {
	switch m.unit {
	case unitMS:
		return formatMS(v)
	case unitMBps:
		return fmt.Sprintf("%.1f MB/s", v)
	case unitRatio:
		return fmt.Sprintf("%.2f", v)
	case unitFraction:
		return formatHitRatio(v)
	case unitPercent:
		return fmt.Sprintf("%.1f %%", v)
	}
	if m.integer {
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

// formatInterval reads "+1.2 … +8.4 %".
func formatInterval(lo, hi float64) string {
	return strings.TrimSuffix(formatChange(lo, 1), " %") + " … " + formatChange(hi, 1)
}

// farChange is the size of change beyond which a percentage says nothing a reader
// can use ("+366566.7 %" from a near-zero base): the two values are shown instead.
const farChange = 1000

// formatChangeOf is a change as a percentage, or "0.002 → 3.500 ms" when the base
// is (near) zero.
func formatChangeOf(m metric, b, v float64) string {
	ch := Change(b, v)
	if math.IsInf(ch, 0) || math.Abs(ch) >= farChange {
		return formatValue(m, b) + " → " + formatValue(m, v)
	}
	return formatChange(ch, 1)
}
