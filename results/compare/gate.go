package compare

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/results/stats"
)

// Gate is one parsed --fail-if expression: "metric OP value". It trips (fails the
// comparison) when the condition holds for a run after the first at a matched step.
type Gate struct {
	Expr     string // as the user typed it
	metric   figures.Metric
	txnSlug  string // set for <txn>.<figure> gates, checked against the runs
	op       string
	value    float64 // percent when relative; else in the metric's unit (ms for times)
	relative bool
	// runLevel: a figure of the whole run (max_tps_e), checked once per run, not
	// per step.
	runLevel bool
	// significant: the gate trips only when the change's whole 95 % interval is
	// past the threshold ("tps<-10% significant"), so noise cannot trip it.
	significant bool
	// verdict, when set, is the gate "METRIC worse" (better, higher, lower): it
	// trips when compare's verdict on the change is this one.
	verdict ChangeVerdict
}

// GateSyntaxError is a --fail-if expression that cannot be parsed: a usage error.
type GateSyntaxError struct {
	Expr, Reason string
}

func (e *GateSyntaxError) Error() string {
	return fmt.Sprintf("--fail-if %q: %s", e.Expr, e.Reason)
}

const gateGrammar = `want METRIC OP VALUE [significant] or METRIC worse, e.g. "tps<-10%", "p95>+20% significant", "tps worse", "errors>0", "trade-result.p90>2s", "max_tps_e<-10%"`

// ParseGate parses "metric OP value":
//
//	metric: tps, tps_e (tpse), avg, p50, p90, p95, p99, errors, retries, read_iops,
//	        write_iops, iops, read_mbps, write_mbps, read_await, write_await,
//	        io_per_txn, or <txn>.<figure> with <txn> a transaction's Slug
//	        (trade-result) and <figure> one of avg, p50, p90, p95, p99, max
//	OP:     < > <= >=
//	value:  a change against the base run, -10% or +20% (unsigned means +), or an
//	        absolute value: a number, with a time unit (us, µs, ms, s, m) for times;
//	        a time without a unit is in milliseconds.
func ParseGate(expr string) (Gate, error) {
	bad := func(reason string) (Gate, error) {
		return Gate{}, &GateSyntaxError{Expr: expr, Reason: reason}
	}
	s := strings.TrimSpace(expr)
	if g, ok, err := parseVerdictGate(expr, s); ok || err != nil {
		return g, err
	}
	significant := false
	if f := strings.Fields(s); len(f) > 1 && significanceWords[strings.ToLower(f[len(f)-1])] {
		significant = true
		s = strings.TrimSpace(s[:strings.LastIndex(s, f[len(f)-1])])
	}
	g, err := parseComparison(expr, s)
	if err != nil || !significant {
		return g, err
	}
	if !g.relative || g.runLevel {
		return bad("\"significant\" needs a change in % of a step figure, such as \"tps<-10% significant\"")
	}
	g.significant = true
	return g, nil
}

// significanceWords end a gate that trips only on a significant change.
var significanceWords = map[string]bool{"significant": true, "sig": true}

// gateVerdicts are the words of a verdict gate, "tps worse".
var gateVerdicts = map[string]ChangeVerdict{"worse": VerdictWorse, "better": VerdictBetter, "higher": VerdictHigher, "lower": VerdictLower}

// parseVerdictGate reads "METRIC worse" (better, higher, lower); ok is false when
// s is not of that form.
func parseVerdictGate(expr, s string) (Gate, bool, error) {
	f := strings.Fields(s)
	if len(f) != 2 || strings.ContainsAny(s, "<>=") {
		return Gate{}, false, nil
	}
	v, ok := gateVerdicts[strings.ToLower(f[1])]
	if !ok {
		return Gate{}, false, nil
	}
	m, ok := figures.LookupStepMetric(f[0])
	if !ok {
		return Gate{}, true, &GateSyntaxError{Expr: expr, Reason: fmt.Sprintf("a verdict gate takes a step figure such as tps, p95 or iops, not %q", f[0])}
	}
	if (v == VerdictHigher || v == VerdictLower) != m.Neutral {
		want := "worse or better"
		if m.Neutral {
			want = "higher or lower (the figure is neither good nor bad in itself)"
		}
		return Gate{}, true, &GateSyntaxError{Expr: expr, Reason: fmt.Sprintf("%s takes %s", m.Key, want)}
	}
	return Gate{Expr: expr, metric: m, verdict: v, relative: true}, true, nil
}

// parseComparison parses "metric OP value" (ParseGate without the significance).
func parseComparison(expr, s string) (Gate, error) {
	bad := func(reason string) (Gate, error) {
		return Gate{}, &GateSyntaxError{Expr: expr, Reason: reason}
	}
	left, op, rest, ok := splitGateOp(s)
	if !ok {
		if strings.Contains(s, "=") {
			return bad("operator must be <, >, <= or >= (" + gateGrammar + ")")
		}
		return bad("no operator (" + gateGrammar + ")")
	}
	g := Gate{Expr: expr, op: op}
	name := strings.ToLower(left)
	if name == "" {
		return bad("no metric before the operator (" + gateGrammar + ")")
	}
	if rest == "" {
		return bad("no value after the operator (" + gateGrammar + ")")
	}
	if strings.ContainsAny(rest, "<>=") {
		return bad("more than one operator")
	}
	if m, ok := lookupRunMetric(name); ok {
		g.metric, g.runLevel = m, true
	} else if m, ok := figures.LookupStepMetric(name); ok {
		g.metric = m
	} else if dot := strings.LastIndexByte(name, '.'); dot > 0 {
		slug, fig := name[:dot], name[dot+1:]
		if _, ok := figures.TxnFigures[fig]; !ok {
			return bad(fmt.Sprintf("unknown transaction figure %q; use avg, p50, p90, p95, p99 or max", fig))
		}
		if results.Slug(slug) != slug {
			return bad(fmt.Sprintf("transaction %q is not written as a slug; try %q", slug, results.Slug(slug)))
		}
		g.txnSlug = slug
		g.metric = figures.TxnMetric(slug, fig)
	} else {
		keys := make([]string, len(figures.StepMetrics))
		for k, m := range figures.StepMetrics {
			keys[k] = m.Key
		}
		return bad(fmt.Sprintf("unknown metric %q; use one of %s, %s, or <transaction>.<p95 ...>", name, strings.Join(keys, ", "), maxTPSEKey))
	}
	var err error
	if g.value, g.relative, err = parseGateValue(rest, g.metric.Unit); err != nil {
		return bad(err.Error())
	}
	return g, nil
}

// splitGateOp cuts "METRIC OP VALUE" at its first operator (<, >, <=, >=): the
// Metric and the value trimmed; ok is false without < or >.
func splitGateOp(s string) (left, op, rest string, ok bool) {
	i := strings.IndexAny(s, "<>")
	if i < 0 {
		return "", "", "", false
	}
	op, rest = s[i:i+1], s[i+1:]
	if strings.HasPrefix(rest, "=") {
		op += "="
		rest = rest[1:]
	}
	return strings.TrimSpace(s[:i]), op, strings.TrimSpace(rest), true
}

// parseGateValue reads a gate's value: a change in percent ("-10%", relative) or
// an absolute value in unit u.
func parseGateValue(s string, u figures.Unit) (v float64, relative bool, err error) {
	if strings.HasSuffix(s, "%") {
		v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(s, "%")), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, false, fmt.Errorf("%q is not a percentage such as -10%% or +20%%", s)
		}
		return v, true, nil
	}
	v, err = parseAbsolute(s, u)
	return v, false, err
}

// parseAbsolute reads an absolute gate value in the metric's unit.
func parseAbsolute(s string, u figures.Unit) (float64, error) {
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("%q is not a finite number", s)
		}
		return v, nil
	}
	if u != figures.UnitMS {
		return 0, fmt.Errorf("%q is not a number (a unit is allowed only for times)", s)
	}
	d, err := time.ParseDuration(strings.ReplaceAll(s, " ", ""))
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not a number or a time such as 250ms or 2s", s)
	}
	return float64(d) / float64(time.Millisecond), nil
}

// ParseGates parses every expression and returns all syntax errors together.
func ParseGates(exprs []string) ([]Gate, error) {
	gates := make([]Gate, 0, len(exprs))
	var errs []error
	for _, e := range exprs {
		g, err := ParseGate(e)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		gates = append(gates, g)
	}
	return gates, errors.Join(errs...)
}

// String renders the gate's condition canonically, e.g. "tps < -10 %",
// "tps < -10 % significant", "tps worse".
func (g Gate) String() string {
	if g.verdict != "" {
		return g.metric.Key + " " + string(g.verdict)
	}
	s := g.metric.Key + " " + g.op + " " + g.formatThreshold()
	if g.significant {
		s += " significant"
	}
	return s
}

// usesInterval tells whether the gate reads compare's interval, not the change alone.
func (g Gate) usesInterval() bool { return g.significant || g.verdict != "" }

// tripsOn tells whether a gate that reads the interval trips on estimate e; the
// gate holds for the whole interval, or the verdict is the gate's. A change
// without a verdict (one run a side, too few repeats, no interval) cannot trip
// it: Unjudged lists it instead.
func (g Gate) tripsOn(e Estimate) bool {
	if !e.HasInterval() || e.Verdict == VerdictNone {
		return false
	}
	if g.verdict != "" {
		return e.Verdict == g.verdict
	}
	switch g.op {
	case "<", "<=":
		return g.holds(e.Hi)
	default:
		return g.holds(e.Lo)
	}
}

func (g Gate) formatThreshold() string {
	if g.relative {
		return figures.FormatChange(g.value, decimals(g.value))
	}
	if g.metric.Unit == figures.UnitMS {
		return formatGateMS(g.value)
	}
	return strconv.FormatFloat(g.value, 'f', -1, 64)
}

// formatGateMS writes a time in the unit a user would have typed.
func formatGateMS(ms float64) string {
	if ms >= 1000 {
		return strconv.FormatFloat(ms/1000, 'f', -1, 64) + " s"
	}
	return strconv.FormatFloat(ms, 'f', -1, 64) + " ms"
}

func decimals(v float64) int {
	if v == math.Trunc(v) {
		return 0
	}
	return 1
}

// trips tells whether g trips on the figure v: on its change against base when g is
// relative (not at all when base is unknown), else on v itself, which show formats.
// Shown is the figure as the trip's message gives it.
func (g Gate) trips(v float64, base func() (float64, bool), show func(float64) string) (change float64, shown string, tripped bool) {
	if !g.relative {
		return 0, show(v), g.holds(v)
	}
	b, ok := base()
	if !ok {
		return 0, "", false
	}
	change = stats.Change(b, v)
	return change, figures.FormatChange(change, 1), g.holds(change)
}

func (g Gate) holds(x float64) bool {
	switch g.op {
	case "<":
		return x < g.value
	case "<=":
		return x <= g.value
	case ">":
		return x > g.value
	default:
		return x >= g.value
	}
}

// Trip is one gate that held for one run at one step.
type Trip struct {
	Gate  Gate
	Run   int // index into the comparison's inputs
	Users int
	// Value is the run's figure; Change its change against the base in percent
	// (relative gates only).
	Value, Change float64
	msg           string
}

// String reads as "run H810 at 300 users: tps -12.3 % < -10 %".
func (t Trip) String() string { return t.msg }

// CheckGates evaluates the gates for every run after the first at every matched
// step it shares with the base, and returns every trip (not only the first) in
// run, step, gate order. A step where a figure is unknown (no I/O source, no
// histogram) does not trip; a <txn>.<figure> gate naming a transaction no run has
// is an error, since it can never trip and is most likely a typo.
func (c *Comparison) CheckGates(gates []Gate) ([]Trip, error) {
	var errs []error
	for _, g := range gates {
		if g.txnSlug != "" && !slices.Contains(c.txnSlugs, g.txnSlug) {
			errs = append(errs, &GateSyntaxError{Expr: g.Expr,
				Reason: fmt.Sprintf("no transaction %q in the matched steps (have %s)", g.txnSlug, strings.Join(c.txnSlugs, ", "))})
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if err := c.checkMaxResolved(gates); err != nil {
		return nil, err
	}
	var trips []Trip
	for r := 1; r < len(c.Inputs); r++ {
		trips = append(trips, c.runTrips(r, gates)...)
		for i, u := range c.Users {
			for _, g := range gates {
				if g.runLevel {
					continue
				}
				v, ok := c.Value(i, r, g.metric)
				if !ok {
					continue
				}
				t := Trip{Gate: g, Run: r, Users: u, Value: v}
				if g.usesInterval() {
					e, _ := c.Estimate(i, r, g.metric)
					if !g.tripsOn(e) {
						continue
					}
					t.Change = e.Change
					t.msg = fmt.Sprintf("run %s at %d users: %s %s (95 %% interval %s, %s): %s",
						c.Inputs[r].Name(), u, g.metric.Key, figures.FormatChange(e.Change, 1), figures.FormatInterval(e.Lo, e.Hi), e.Verdict, g)
					trips = append(trips, t)
					continue
				}
				change, shown, tripped := g.trips(v, func() (float64, bool) { return c.Value(i, 0, g.metric) },
					func(x float64) string { return figures.FormatValue(g.metric, x) })
				if !tripped {
					continue
				}
				t.Change = change
				t.msg = fmt.Sprintf("run %s at %d users: %s %s %s %s",
					c.Inputs[r].Name(), u, g.metric.Key, shown, g.op, g.formatThreshold())
				trips = append(trips, t)
			}
		}
	}
	return trips, nil
}

// Unevaluated returns the gates that could not be checked at any matched step of
// any run after the first: the figure is unknown there (no storage source, no
// histograms) or the runs share no step. A figure known but not judged is
// Unjudged's. Such a gate can never trip, and a CI job
// relying on it deserves a warning.
func (c *Comparison) Unevaluated(gates []Gate) []Gate {
	var out []Gate
	for _, g := range gates {
		if g.runLevel {
			if !c.runGateChecked(g) {
				out = append(out, g)
			}
			continue
		}
		checked := false
		for r := 1; r < len(c.Inputs) && !checked; r++ {
			for i := range c.Users {
				_, ok := c.Value(i, r, g.metric)
				if ok && g.relative {
					_, ok = c.Value(i, 0, g.metric)
				}
				if ok {
					checked = true
					break
				}
			}
		}
		if !checked {
			out = append(out, g)
		}
	}
	return out
}
