package figures

import (
	"fmt"
	"math"
)

// FormatChange renders a change as "+38.2 %"; digits is the number of decimals.
func FormatChange(pct float64, digits int) string {
	switch {
	case math.IsInf(pct, 1):
		return "+∞ %"
	case math.IsInf(pct, -1):
		return "-∞ %"
	case math.IsNaN(pct):
		return "n/a"
	}
	if math.Abs(pct) < 0.5*math.Pow(10, -float64(digits)) {
		pct = 0 // "-0.0 %" would read as a regression that is not there
	}
	return fmt.Sprintf("%+.*f %%", digits, pct)
}
