package results

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Input is one result file given to compare or report, or one side of a
// comparison given as several files of the same configuration (run --repeat):
// Path and Run are then the first, Repeats the others.
type Input struct {
	Path    string
	Run     *Run
	Repeats []Input
	// shown is the name a comparison gives the input when another input's Name is
	// the same (distinctNames).
	shown string
}

// All is the side's runs: the input itself, then its repeats.
func (in Input) All() []Input {
	return append([]Input{{Path: in.Path, Run: in.Run, shown: in.shown}}, in.Repeats...)
}

// Name is how tables and legends call the run: its label, else its file name,
// with control characters escaped (Printable).
func (in Input) Name() string {
	if in.shown != "" {
		return in.shown
	}
	if in.Run != nil && in.Run.Label != "" {
		return Printable(in.Run.Label)
	}
	return Printable(filepath.Base(in.Path))
}

// distinctNames returns inputs with every Name told apart: two runs that share a label
// (two quickstarts, say) would otherwise be one name twice in the headline, the
// tables and the charts' legends. Names that collide get their place in the list,
// "quickstart [1]" and "quickstart [2]", as the runs' table numbers them.
func distinctNames(inputs []Input) []Input {
	count := map[string]int{}
	for _, in := range inputs {
		count[in.Name()]++
	}
	out := slices.Clone(inputs)
	for r := range out {
		if n := out[r].Name(); count[n] > 1 {
			out[r].shown = fmt.Sprintf("%s [%d]", n, r+1)
		}
	}
	return out
}

// Comparison is two or more runs with their steps matched by user count. The first
// input is the base every change is relative to.
type Comparison struct {
	Inputs []Input
	// Users are the matched user counts, ascending: present in the base and in at
	// least one other run.
	Users []int
	// views[i][r] is run r's step at Users[i], nil when run r has none; with
	// repeats, the first repeat's that has the step.
	views [][]*stepView
	// reps[i][r] is every repeat's step at Users[i] (one entry for a single run,
	// none when run r has no such step).
	reps [][][]stepView
	// AllowDisturbed judges repeats whose windows were disturbed unevenly
	// (disturbance.go) instead of withholding the verdict; set it before the first
	// estimate.
	AllowDisturbed bool
	// est caches estimates, which a bootstrap makes costly (estimate.go).
	est  map[estKey]Estimate
	boot map[bootKey]bootResult
	secs map[secKey][][]valueCount // decoded per-second histograms
	// Unmatched are steps compared with nothing, in input then user order.
	Unmatched []Unmatched
	// txnSlugs are the transaction types of the matched steps, sorted, for the
	// per-transaction rows.
	txnSlugs []string
}

// Unmatched is a step of one run that has no counterpart.
type Unmatched struct {
	Run    int // index into Inputs
	Users  int
	Reason string
}

// Compare matches the runs' steps by user count. A run that holds the same user
// count twice is compared on its first such step; the repeat is listed unmatched.
func Compare(inputs []Input) (*Comparison, error) {
	if len(inputs) < 2 {
		return nil, errors.New("compare needs at least two result files")
	}
	inputs = distinctNames(inputs)
	c := &Comparison{Inputs: inputs, est: map[estKey]Estimate{}, boot: map[bootKey]bootResult{}, secs: map[secKey][][]valueCount{}}
	byUsers := c.stepsByUsers()
	base := byUsers[0]
	for u := range base {
		for r := 1; r < len(inputs); r++ {
			if byUsers[r][u] != nil {
				c.Users = append(c.Users, u)
				break
			}
		}
	}
	slices.Sort(c.Users)
	c.addRows(byUsers)
	c.addUnmatched(byUsers)
	slices.SortStableFunc(c.Unmatched, func(a, b Unmatched) int {
		if a.Run != b.Run {
			return a.Run - b.Run
		}
		return a.Users - b.Users
	})
	return c, nil
}

// stepsByUsers returns each side's steps by user count, one per repeat (nil where a
// repeat lacks the step), and lists a step that repeats a user count of its run as
// unmatched.
func (c *Comparison) stepsByUsers() []map[int][]*Step {
	byUsers := make([]map[int][]*Step, len(c.Inputs))
	for r, in := range c.Inputs {
		byUsers[r] = map[int][]*Step{}
		all := in.All()
		for k, rep := range all {
			seen := map[int]bool{}
			for i := range rep.Run.Steps {
				st := &rep.Run.Steps[i]
				if seen[st.Users] {
					c.Unmatched = append(c.Unmatched, Unmatched{r, st.Users, "repeats an earlier step with the same user count"})
					continue
				}
				seen[st.Users] = true
				if byUsers[r][st.Users] == nil {
					byUsers[r][st.Users] = make([]*Step, len(all))
				}
				byUsers[r][st.Users][k] = st
			}
		}
	}
	return byUsers
}

// addRows builds the matched rows, one per user count in c.Users: each side's first
// repeat and all its repeats, and the transactions any of them ran.
func (c *Comparison) addRows(byUsers []map[int][]*Step) {
	slugs := map[string]bool{}
	for _, u := range c.Users {
		row := make([]*stepView, len(c.Inputs))
		reps := make([][]stepView, len(c.Inputs))
		for r := range c.Inputs {
			for _, st := range byUsers[r][u] {
				if st == nil {
					continue
				}
				v := newStepView(st)
				reps[r] = append(reps[r], v)
				if row[r] == nil {
					row[r] = &v
				}
				for name := range st.Transactions {
					slugs[Slug(name)] = true
				}
			}
		}
		c.views = append(c.views, row)
		c.reps = append(c.reps, reps)
	}
	for s := range slugs {
		c.txnSlugs = append(c.txnSlugs, s)
	}
	slices.Sort(c.txnSlugs)
}

// addUnmatched lists the user counts that match nothing: the base run's that no other
// run has, and another run's that the base lacks.
func (c *Comparison) addUnmatched(byUsers []map[int][]*Step) {
	base := byUsers[0]
	for r := range c.Inputs {
		users := make([]int, 0, len(byUsers[r]))
		for u := range byUsers[r] {
			users = append(users, u)
		}
		slices.Sort(users)
		for _, u := range users {
			switch {
			case r == 0 && !slices.Contains(c.Users, u):
				c.Unmatched = append(c.Unmatched, Unmatched{r, u, "no other run has this user count"})
			case r > 0 && base[u] == nil:
				c.Unmatched = append(c.Unmatched, Unmatched{r, u, "the base run has no step with this user count"})
			}
		}
	}
}

// value returns metric m of run r at matched row i: with repeats, their mean.
func (c *Comparison) value(i, r int, m metric) (float64, bool) {
	return sideValue(c.reps[i][r], m)
}

// sideValue is the mean of metric m over a side's repeats of one step; false when
// no repeat knows it.
func sideValue(reps []stepView, m metric) (float64, bool) {
	xs := sideValues(reps, m)
	if len(xs) == 0 {
		return 0, false
	}
	mean, _ := meanSD(xs)
	return mean, true
}

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

// formatChange renders a change as "+38.2 %"; digits is the number of decimals.
func formatChange(pct float64, digits int) string {
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

// rowMetrics are the figures of the comparison table, in order: the step figures,
// then each transaction's p95.
func (c *Comparison) rowMetrics() []metric {
	ms := slices.Clone(stepMetrics)
	for _, s := range c.txnSlugs {
		ms = append(ms, txnMetric(s, "p95"))
	}
	return ms
}

// Headline is the field's one-line summary of run r (r ≥ 1) against the base at the
// highest user count both have, e.g. "at 300 users: tps +38 %, IOPS +55 %,
// average response time -33 %". It is "" when the two share no step.
func (c *Comparison) Headline(r int) string {
	for i := len(c.Users) - 1; i >= 0; i-- {
		if c.views[i][0] == nil || c.views[i][r] == nil {
			continue
		}
		parts := []string{}
		for _, h := range []struct{ key, words string }{{"tps", "tps"}, {"iops", "IOPS"}, {"avg", "average response time"}} {
			m, _ := lookupStepMetric(h.key)
			if e, ok := c.Estimate(i, r, m); ok {
				ch := formatChange(e.Change, 0)
				if e.NearZero {
					b, _ := c.value(i, 0, m)
					v, _ := c.value(i, r, m)
					ch = formatValue(m, b) + " → " + formatValue(m, v)
				}
				parts = append(parts, h.words+" "+ch+verdictNote(e))
			}
		}
		return fmt.Sprintf("at %d users: %s", c.Users[i], strings.Join(parts, ", "))
	}
	return ""
}

// verdictNote is " (within noise)", " (better)"..., " (no verdict)".
func verdictNote(e Estimate) string {
	return " (" + string(e.Verdict) + ")"
}

// MaxHeadline leads the comparison when run r and the base both carry a
// --find-max result: "max tpsE within limits: B 73, A 119 (-39 %)", run r first
// and its change against the base, as every change in compare. It is "" when
// either run has no max.
func (c *Comparison) MaxHeadline(r int) string {
	b, v := c.Inputs[0].Run.Max, c.Inputs[r].Run.Max
	if b == nil || v == nil {
		return ""
	}
	return fmt.Sprintf("max tpsE within limits: %s %s, %s %s (%s)", c.Inputs[r].Name(), formatTPSE(v.TPSE),
		c.Inputs[0].Name(), formatTPSE(b.TPSE), formatChange(Change(b.TPSE, v.TPSE), 0)) + unresolvedMaxNote(c.Inputs[r], c.Inputs[0])
}

// formatTPSE shows tpsE as a person reads it: whole numbers from 100, one decimal
// below.
func formatTPSE(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}
