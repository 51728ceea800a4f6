package figures

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/results"
)

// MaxErrorShare is the largest share of failed transactions a step may have and
// still pass: a step within its limits but failing 1 % of its work is not a load
// the database sustains.
const MaxErrorShare = 0.01

// BrokenLimits lists, sorted, the transactions of st whose 90th percentile exceeded
// their limit. A transaction that did not run in the window breaks nothing.
func BrokenLimits(l results.Limits, st *results.Step) []string {
	var out []string
	for name, t := range st.Transactions {
		lim, ok := l[name]
		if !ok || t.Count == 0 {
			continue
		}
		if t.P90MS > float64(lim)/float64(time.Millisecond) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// ErrorShare is the step's failed transactions over all it attempted.
func ErrorShare(st *results.Step) float64 {
	var n, errs int64
	for _, t := range st.Transactions {
		n += t.Count + t.Errors
		errs += t.Errors
	}
	if n == 0 {
		return 0
	}
	return float64(errs) / float64(n)
}

// Verdict is a step judged against the limits: Pass when no limit broke, errors
// stayed under MaxErrorShare and the step did measure something. Why says what
// failed, e.g. "Trade-Status p90 1.3 s > 1 s; errors 2.1 %", naming only the
// furthest-over transaction when several broke (LimitsBroken lists them all).
type Verdict struct {
	Pass bool
	Why  string
	// Short is Why for a table cell: "Trade-Status +9", "errors 2.1 %".
	Short string
	// Limiting is the transaction whose p90 was furthest over its limit (relative
	// to the limit), "" when none broke.
	Limiting string
}

// JudgeLimits checks the step against l. It uses the step's recorded limits_broken
// names, so a file judged later agrees with what the run printed.
func JudgeLimits(l results.Limits, st *results.Step) Verdict {
	var why, short []string
	limiting, worst := "", 0.0
	for _, name := range st.LimitsBroken {
		t := st.Transactions[name]
		limMS := float64(l[name]) / float64(time.Millisecond)
		if limMS > 0 {
			why = append(why, fmt.Sprintf("%s p90 %s > %s", name, FormatLimitMS(t.P90MS), FormatLimitMS(limMS)))
			if over := t.P90MS / limMS; over > worst {
				limiting, worst = name, over
			}
		} else {
			why = append(why, name+" p90 over its limit")
			if limiting == "" {
				limiting = name
			}
		}
	}
	switch {
	case len(why) > 1:
		short = append(short, fmt.Sprintf("%s +%d", limiting, len(why)-1))
	case len(why) == 1:
		short = append(short, limiting)
	}
	if len(why) > 1 {
		// Every transaction breaks at once when the database saturates; the one
		// furthest over its limit says it, and the count says the rest.
		t := st.Transactions[limiting]
		lead := fmt.Sprintf("%s p90 %s > %s", limiting, FormatLimitMS(t.P90MS), FormatLimitMS(float64(l[limiting])/float64(time.Millisecond)))
		why = []string{fmt.Sprintf("%s and %d more over their limits", lead, len(why)-1)}
	}
	if e := ErrorShare(st); e >= MaxErrorShare {
		why = append(why, fmt.Sprintf("errors %.1f %%", e*100))
		short = append(short, why[len(why)-1])
	}
	if st.MeasuredS <= 0 || len(st.Transactions) == 0 {
		why = append(why, "nothing measured")
		short = append(short, why[len(why)-1])
	}
	return Verdict{Pass: len(why) == 0, Why: strings.Join(why, "; "), Short: strings.Join(short, "; "), Limiting: limiting}
}

// FormatLimitMS writes a time the way a limit is typed: "1.3 s", "850 ms".
func FormatLimitMS(ms float64) string {
	if ms >= 1000 {
		return strconv.FormatFloat(math.Round(ms/100)/10, 'f', -1, 64) + " s"
	}
	return strconv.FormatFloat(math.Round(ms), 'f', -1, 64) + " ms"
}
