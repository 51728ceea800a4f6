package compare

import (
	"fmt"
	"math"

	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/results/stats"
)

// When compare may judge a change, and what it says when it may not
// (docs/result-format.md, "Intervals and verdicts"). A run's own interval says
// how precisely that run's mean is known, not how far a second run of the same
// system lands: cache state, checkpoints, autovacuum and the host move a whole
// run, and two back-to-back runs of one configuration read 9 % apart with an
// interval of a few percent. So a verdict needs the noise between runs, measured
// by repeats.

// MinRepeats is the fewest runs a side needs for a better/worse verdict. Two
// runs give one degree of freedom each: Welch's interval is then so wide (t is
// 4.3 to 12.7) and its variance estimate so unstable that a verdict would rest
// on luck.
const MinRepeats = 3

// OneRunReason is why a comparison of one run a side gives no verdict.
const OneRunReason = "one run a side: run --repeat 3 to judge"

// repeatsReason is why na against nb runs give no verdict, or "" when they may.
func repeatsReason(na, nb int) string {
	switch {
	case na >= MinRepeats && nb >= MinRepeats:
		return ""
	case na <= 1 && nb <= 1:
		return OneRunReason
	case na == nb:
		return fmt.Sprintf("%d repeats a side; a verdict needs %d", na, MinRepeats)
	}
	return fmt.Sprintf("%d vs %d repeats; a verdict needs %d a side", na, nb, MinRepeats)
}

// nearZeroFloor is the base's floor relative to the other side: a base under
// 1 % of the other side's value is near zero (0.4 → 51 IOPS would read +12650 %,
// its interval running to numbers no one can use), while a tenfold change of two
// measured figures (100 → 1,200 IOPS under a memory cap) is still judged. A
// response time across repeats is exempt: it is never near zero (every transaction
// takes time), and its interval is of the ratio, on the logarithms, so 15 ms → 8.2 s
// under a 30-IOPS cap reads "worse" (its change shown as the two values).
const nearZeroFloor = 0.01

// nearZeroBase tells whether the base b is too close to zero for a change in
// percent to mean anything, and says why. It is near zero when
//   - it is under nearZeroFloor of the other side's value v (a response time
//     across repeats excepted), or
//   - its magnitude is below its own noise: the standard deviation across the
//     base side's repeats, or with one run the half-width of its own interval
//     (batch means of its per-second or I/O samples); a response time across
//     repeats is exempt here too, its interval being of the ratio (a loop
//     device's 0.014, 0.018 and 0.127 ms against 3.4 ms capped is judged
//     worse, not left unjudged for its spread), or
//   - the interval across repeats is made on the differences (a repeat of either
//     side is zero) and its half-width is larger than the base: the base lies
//     inside the noise of the difference, and that noise divided by it reads
//     "±68286 %" (host CPU idle of 0, 0.2 and 4.0 % against 0.7, 0.5 and 0.9).
//
// Such a change is shown as the two values, with no percentage interval.
func nearZeroBase(ra, rb []figures.StepView, m figures.Metric, b, v float64) (string, bool) {
	if b == 0 {
		return "", false
	}
	_, _, isResp := responseFigure(m.Key)
	ownNoise := 0.0
	if len(ra) == 1 && !isResp {
		if xs, ok := seriesOf(m.Key, ra[0].Step); ok {
			if e, ok := stats.BatchMeans(xs, minSamplesOf(m.Key)); ok {
				ownNoise = e.Half()
			}
		}
	}
	return nearZero(twoSides{SideValues(ra, m), SideValues(rb, m), b, v}, m, isResp, ownNoise)
}

// twoSides are a figure's per-run values on each side (xa the base's) and the
// sides' figures b and v.
type twoSides struct {
	xa, xb []float64
	b, v   float64
}

// nearZero is nearZeroBase on the sides' per-run figures: isTime exempts a time's
// ratio across repeats from the floor and from its own noise, and ownNoise is the
// half-width of a single base run's own interval (0 without one).
func nearZero(s twoSides, m figures.Metric, isTime bool, ownNoise float64) (string, bool) {
	xa, xb, b, v := s.xa, s.xb, s.b, s.v
	if b == 0 {
		return "", false
	}
	ratio := isTime && len(xa) > 1 && len(xb) > 1 && onLogarithms(xa, xb)
	if math.Abs(b) < nearZeroFloor*math.Abs(v) && !ratio {
		return fmt.Sprintf("the base (%s) is near zero against %s: compare the values", figures.FormatValue(m, b), figures.FormatValue(m, v)), true
	}
	noise := ownNoise
	if len(xa) > 1 {
		_, noise = stats.MeanSD(xa)
	}
	if math.Abs(b) < noise && !ratio {
		return fmt.Sprintf("the base (%s) is below its own noise (±%s): compare the values", noiseValue(m, b), noiseValue(m, noise)), true
	}
	if half, ok := differenceNoise(xa, xb); ok && math.Abs(b) < half {
		return fmt.Sprintf("the base (%s) is within the noise of the difference (±%s): compare the values", noiseValue(m, b), noiseValue(m, half)), true
	}
	return "", false
}

// noiseValue is formatValue with a decimal for counts: a base and a noise of
// repeats' means (0.67 retries, ±1.31) would both read "1".
func noiseValue(m figures.Metric, x float64) string {
	if m.Integer && m.Unit == figures.UnitCount {
		return fmt.Sprintf("%.1f", x)
	}
	return figures.FormatValue(m, x)
}

// Detectable is the smallest change an interval [lo, hi] (percent) can tell
// from noise: its half-width, taken on the ratio's logarithm so that a large
// change does not widen it (±7 % at no change stays ±7 % at +50 %). An interval
// cut at -100 % (made on differences) gives its plain half-width.
func Detectable(lo, hi float64) float64 {
	if lo > -100 {
		return math.Expm1((math.Log1p(hi/100)-math.Log1p(lo/100))/2) * 100
	}
	return (hi - lo) / 2
}
