package run

import (
	"fmt"
	"time"

	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session"
)

// A run's result file holds each step's figures, its histograms and one sample a
// second of its measured window (docs/result-format.md), and report, compare and
// merge read at most results.MaxSteps steps and results.MaxFileBytes. These are the
// least a step takes, measured on a quickstart run (two 25 s steps of 86 and 83
// KB: 28 KB of transactions and histograms, 7 KB of storage and host figures,
// about 2 KB per measured second of samples), rounded down so a plan is refused
// only when its file would certainly be too big to read.
const (
	stepFileBytes        = 30_000
	stepFileBytesASecond = 1_500
)

// checkResultFileBound refuses a plan whose result file report could not read:
// more steps than a file holds, or steps whose samples add up past its size.
// --find-max runs at most --max-steps probes, one step each.
func checkResultFileBound(p driver.Plan, lim LimitOptions) error {
	steps, what := len(p.Users), fmt.Sprintf("%d user levels", len(p.Users))
	if lim.FindMax {
		steps, what = lim.MaxSteps, fmt.Sprintf("--find-max --max-steps %d", lim.MaxSteps)
	}
	if steps > results.MaxSteps {
		return session.Usagef("%s: a result file holds at most %d steps, the most report reads; split the plan into several runs", what, results.MaxSteps)
	}
	measured := max(p.Step-p.Warmup, 0)
	per := stepFileBytes + int64(measured/time.Second)*stepFileBytesASecond
	if total := int64(steps) * per; total > results.MaxFileBytes {
		return session.Usagef("%s of --step %s: the result file would reach at least %d MB (%d steps of %d KB or more), past the %d MB report reads; give fewer or shorter steps",
			what, session.ShortDuration(p.Step), total>>20, steps, per>>10, results.MaxFileBytes>>20)
	}
	return nil
}
