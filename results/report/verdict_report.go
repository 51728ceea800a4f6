package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
)

// What compare says about its verdicts beside the tables: why a figure has none
// and the smallest difference the data can show (verdict.go decides both).

// formatDetectable reads "±7.0 %".
func formatDetectable(d float64) string {
	if math.IsNaN(d) {
		return "-"
	}
	return fmt.Sprintf("±%.1f %%", d)
}

// DetectableSentence says what the data of figure m of run r at matched row i
// can tell, e.g. "tps at 8 users: differences under ±7 % cannot be told from
// noise with 3 repeats of 60 s a side". It is "" when the figure has no interval.
func DetectableSentence(c *compare.Comparison, i, r int, m figures.Metric) string {
	e, ok := c.Estimate(i, r, m)
	if !ok || math.IsNaN(e.Detectable) {
		return ""
	}
	what := fmt.Sprintf("%s at %d users: differences under ±%.0f %% cannot be told from", m.Key, c.Users[i], e.Detectable)
	secs := measuredSeconds(c, i)
	if e.RunsA <= 1 && e.RunsB <= 1 {
		return fmt.Sprintf("%s the noise within each run (one run of %s a side); the noise between runs is larger and unmeasured: run --repeat 3 to judge", what, secs)
	}
	if e.RunsA == e.RunsB {
		return fmt.Sprintf("%s noise with %d repeats of %s a side", what, e.RunsA, secs)
	}
	return fmt.Sprintf("%s noise with %d vs %d repeats of %s", what, e.RunsA, e.RunsB, secs)
}

// measuredSeconds is the measured window of the matched steps at row i, "60 s",
// or "60 s / 30 s" when the sides' windows differ.
func measuredSeconds(c *compare.Comparison, i int) string {
	var seen []string
	for r := range c.Inputs {
		for _, v := range c.Reps[i][r] {
			s := fmt.Sprintf("%.0f s", v.Step.MeasuredS)
			if !slices.Contains(seen, s) {
				seen = append(seen, s)
			}
		}
	}
	return strings.Join(seen, " / ")
}

// VerdictNotes are the lines that say, per run after the base, why tps has no
// verdict where it has none, and what difference the data can show at the
// highest shared user count: what a reader needs to know whether to run longer or
// repeat.
func VerdictNotes(c *compare.Comparison) []string {
	var notes []string
	tps := metricByKey("tps")
	for r := 1; r < len(c.Inputs); r++ {
		reasons := []string{}
		for i := range c.Users {
			if e, ok := c.Estimate(i, r, tps); ok && e.Reason != "" && !slices.Contains(reasons, e.Reason) {
				reasons = append(reasons, e.Reason)
			}
		}
		prefix := ""
		if len(c.Inputs) > 2 {
			prefix = c.Inputs[r].Name() + ": "
		}
		for _, why := range reasons {
			if why == compare.OneRunReason {
				why = "one run a side: each interval covers only the noise within each run, not how far a second run of the same " +
					"system lands, so no change is called better or worse (run --repeat 3 to judge)"
			}
			notes = append(notes, prefix+"tps has no verdict: "+why)
		}
		if c.AllowDisturbed {
			for i := range c.Users {
				if d := figures.UnevenDisturbances(c.Reps[i][0], c.Reps[i][r]); d != "" {
					notes = append(notes, fmt.Sprintf("%sat %d users the verdicts include disturbed repeats (%s), judged as asked (--allow-disturbed)", prefix, c.Users[i], d))
				}
			}
		}
		for i := len(c.Users) - 1; i >= 0; i-- {
			if s := DetectableSentence(c, i, r, tps); s != "" {
				notes = append(notes, prefix+s)
				break
			}
		}
	}
	return notes
}
