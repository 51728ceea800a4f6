package results

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

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
