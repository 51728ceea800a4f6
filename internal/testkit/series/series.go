// Package series generates the synthetic time series the statistics tests judge:
// series with a known mean and autocorrelation, so an interval's coverage can be
// counted.
package series

import (
	"math"
	"math/rand/v2"
)

// AR1 is a stationary AR(1) series of n values with mean mu, lag-one correlation
// phi and marginal standard deviation sd: the shape of per-second tps, where a
// slow second (a checkpoint, a lock wait) is followed by more slow ones.
func AR1(rng *rand.Rand, n int, mu, phi, sd float64) []float64 {
	innov := sd * math.Sqrt(1-phi*phi)
	xs := make([]float64, n)
	x := rng.NormFloat64() * sd
	for i := range xs {
		x = phi*x + rng.NormFloat64()*innov
		xs[i] = mu + x
	}
	return xs
}
