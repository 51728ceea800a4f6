package stats

import (
	"math"
)

// Change is the relative change of v against base, in percent. A zero base gives 0
// when v is zero too, else ±Inf: any change from nothing is unbounded, and a gate
// such as errors>+10% must still trip on it.
func Change(base, v float64) float64 {
	if base == 0 {
		switch {
		case v == 0:
			return 0
		case v > 0:
			return math.Inf(1)
		default:
			return math.Inf(-1)
		}
	}
	return (v - base) / math.Abs(base) * 100
}
