package results

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// MaxErrorShare is the largest share of failed transactions a step may have and
// still pass: a step within its limits but failing 1 % of its work is not a load
// the database sustains.
const MaxErrorShare = 0.01

// Limits maps a transaction name to its 90th-percentile response-time limit. A
// transaction not in the map has no limit.
type Limits map[string]time.Duration

// LimitError is a --limit that cannot be used: a usage error.
type LimitError struct {
	Expr, Reason string
}

func (e *LimitError) Error() string { return fmt.Sprintf("--limit %q: %s", e.Expr, e.Reason) }

const limitGrammar = `want TRANSACTION.p90=DURATION, e.g. "trade-status.p90=500ms", or "=none" to drop a limit`

// ParseLimit reads one override, "trade-status.p90=500ms": the transaction as a
// slug (or its name) of one of w's types, the figure (only p90), and a duration (a
// bare number is in milliseconds, as in gates) or "none" to drop the limit. It
// returns the transaction's name and the limit, 0 for none.
func (w Workload) ParseLimit(expr string) (string, time.Duration, error) {
	bad := func(reason string) (string, time.Duration, error) {
		return "", 0, &LimitError{Expr: expr, Reason: reason}
	}
	key, val, ok := strings.Cut(strings.TrimSpace(expr), "=")
	if !ok {
		return bad("no '=' (" + limitGrammar + ")")
	}
	key, val = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(val)
	dot := strings.LastIndexByte(key, '.')
	if dot <= 0 {
		return bad("no figure after the transaction (" + limitGrammar + ")")
	}
	slug, fig := Slug(key[:dot]), key[dot+1:]
	if fig != "p90" {
		return bad(fmt.Sprintf("figure %q: limits are on the 90th percentile only (p90)", fig))
	}
	name, names := "", w.Names()
	for _, n := range names {
		if Slug(n) == slug {
			name = n
		}
	}
	if name == "" {
		slugs := make([]string, len(names))
		for i, n := range names {
			slugs[i] = Slug(n)
		}
		return bad(fmt.Sprintf("unknown transaction %q; use one of %s", key[:dot], strings.Join(slugs, ", ")))
	}
	if strings.EqualFold(val, "none") {
		return name, 0, nil
	}
	if val == "" {
		return bad("no limit after '=' (" + limitGrammar + ")")
	}
	if ms, err := strconv.ParseFloat(val, 64); err == nil {
		if ms <= 0 || math.IsNaN(ms) || math.IsInf(ms, 0) {
			return bad(fmt.Sprintf("%q is not a positive time", val))
		}
		return name, time.Duration(ms * float64(time.Millisecond)), nil
	}
	d, err := time.ParseDuration(val)
	if err != nil || d <= 0 {
		return bad(fmt.Sprintf("%q is not a positive time such as 500ms or 2s", val))
	}
	return name, d, nil
}

// Limits are w's default limits with every --limit override applied in order (a
// later override of the same transaction wins); all syntax errors are returned
// together.
func (w Workload) Limits(overrides []string) (Limits, error) {
	out := w.DefaultLimits()
	var errs []error
	for _, e := range overrides {
		name, d, err := w.ParseLimit(e)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if d == 0 {
			delete(out, name)
		} else {
			out[name] = d
		}
	}
	return out, errors.Join(errs...)
}

// Record is the limits as the result file stores them: p90 milliseconds by name.
func (l Limits) Record() map[string]float64 {
	out := make(map[string]float64, len(l))
	for k, v := range l {
		out[k] = float64(v) / float64(time.Millisecond)
	}
	return out
}

// LimitsOf reads the limits a run recorded; ok is false for a file written before
// limits were recorded (then nothing is judged against them).
func LimitsOf(r *Run) (Limits, bool) {
	if r.Limits == nil {
		return nil, false
	}
	out := make(Limits, len(r.Limits))
	for k, ms := range r.Limits {
		out[k] = time.Duration(ms * float64(time.Millisecond))
	}
	return out, true
}

// Broken lists, sorted, the transactions of st whose 90th percentile exceeded
// their limit. A transaction that did not run in the window breaks nothing.
func (l Limits) Broken(st *Step) []string {
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
func ErrorShare(st *Step) float64 {
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

// Judge checks the step against l. It uses the step's recorded limits_broken
// names, so a file judged later agrees with what the run printed.
func (l Limits) Judge(st *Step) Verdict {
	var why, short []string
	limiting, worst := "", 0.0
	for _, name := range st.LimitsBroken {
		t := st.Transactions[name]
		limMS := float64(l[name]) / float64(time.Millisecond)
		if limMS > 0 {
			why = append(why, fmt.Sprintf("%s p90 %s > %s", name, formatLimitMS(t.P90MS), formatLimitMS(limMS)))
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
		lead := fmt.Sprintf("%s p90 %s > %s", limiting, formatLimitMS(t.P90MS), formatLimitMS(float64(l[limiting])/float64(time.Millisecond)))
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

// formatLimitMS writes a time the way a limit is typed: "1.3 s", "850 ms".
func formatLimitMS(ms float64) string {
	if ms >= 1000 {
		return strconv.FormatFloat(math.Round(ms/100)/10, 'f', -1, 64) + " s"
	}
	return strconv.FormatFloat(math.Round(ms), 'f', -1, 64) + " ms"
}
