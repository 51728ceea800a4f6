package compare

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/results/stats"
)

// distinctNames returns inputs with every Name told apart: two runs that share a label
// (two quickstarts, say) would otherwise be one name twice in the headline, the
// tables and the charts' legends. Names that collide get their place in the list,
// "quickstart [1]" and "quickstart [2]", as the runs' table numbers them.
func distinctNames(inputs []results.Input) []results.Input {
	count := map[string]int{}
	for _, in := range inputs {
		count[in.Name()]++
	}
	out := slices.Clone(inputs)
	for r := range out {
		if n := out[r].Name(); count[n] > 1 {
			out[r].Shown = fmt.Sprintf("%s [%d]", n, r+1)
		}
	}
	return out
}

// Comparison is two or more runs with their steps matched by user count. The first
// input is the base every change is relative to.
type Comparison struct {
	Inputs []results.Input
	// Users are the matched user counts, ascending: present in the base and in at
	// least one other run.
	Users []int
	// Views[i][r] is run r's step at Users[i], nil when run r has none; with
	// repeats, the first repeat's that has the step.
	Views [][]*figures.StepView
	// Reps[i][r] is every repeat's step at Users[i] (one entry for a single run,
	// none when run r has no such step).
	Reps [][][]figures.StepView
	// AllowDisturbed judges repeats whose windows were disturbed unevenly
	// (results/figures, disturbance.go) instead of withholding the verdict; set it
	// before the first estimate.
	AllowDisturbed bool
	// est caches estimates, which a bootstrap makes costly (estimate.go).
	est  map[estKey]Estimate
	boot map[bootKey]bootResult
	secs map[secKey][][]stats.ValueCount // decoded per-second histograms
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
func Compare(inputs []results.Input) (*Comparison, error) {
	if len(inputs) < 2 {
		return nil, errors.New("compare needs at least two result files")
	}
	inputs = distinctNames(inputs)
	c := &Comparison{Inputs: inputs, est: map[estKey]Estimate{}, boot: map[bootKey]bootResult{}, secs: map[secKey][][]stats.ValueCount{}}
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
func (c *Comparison) stepsByUsers() []map[int][]*results.Step {
	byUsers := make([]map[int][]*results.Step, len(c.Inputs))
	for r, in := range c.Inputs {
		byUsers[r] = map[int][]*results.Step{}
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
					byUsers[r][st.Users] = make([]*results.Step, len(all))
				}
				byUsers[r][st.Users][k] = st
			}
		}
	}
	return byUsers
}

// addRows builds the matched rows, one per user count in c.Users: each side's first
// repeat and all its repeats, and the transactions any of them ran.
func (c *Comparison) addRows(byUsers []map[int][]*results.Step) {
	slugs := map[string]bool{}
	for _, u := range c.Users {
		row := make([]*figures.StepView, len(c.Inputs))
		reps := make([][]figures.StepView, len(c.Inputs))
		for r := range c.Inputs {
			for _, st := range byUsers[r][u] {
				if st == nil {
					continue
				}
				v := figures.NewStepView(st)
				reps[r] = append(reps[r], v)
				if row[r] == nil {
					row[r] = &v
				}
				for name := range st.Transactions {
					slugs[results.Slug(name)] = true
				}
			}
		}
		c.Views = append(c.Views, row)
		c.Reps = append(c.Reps, reps)
	}
	for s := range slugs {
		c.txnSlugs = append(c.txnSlugs, s)
	}
	slices.Sort(c.txnSlugs)
}

// addUnmatched lists the user counts that match nothing: the base run's that no other
// run has, and another run's that the base lacks.
func (c *Comparison) addUnmatched(byUsers []map[int][]*results.Step) {
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

// Value returns metric m of run r at matched row i: with repeats, their mean.
func (c *Comparison) Value(i, r int, m figures.Metric) (float64, bool) {
	return SideValue(c.Reps[i][r], m)
}

// SideValue is the mean of metric m over a side's repeats of one step; false when
// no repeat knows it.
func SideValue(reps []figures.StepView, m figures.Metric) (float64, bool) {
	xs := SideValues(reps, m)
	if len(xs) == 0 {
		return 0, false
	}
	mean, _ := stats.MeanSD(xs)
	return mean, true
}

// RowMetrics are the figures of the comparison table, in order: the step figures,
// then each transaction's p95.
func (c *Comparison) RowMetrics() []figures.Metric {
	ms := slices.Clone(figures.StepMetrics)
	for _, s := range c.txnSlugs {
		ms = append(ms, figures.TxnMetric(s, "p95"))
	}
	return ms
}

// Headline is the field's one-line summary of run r (r ≥ 1) against the base at the
// highest user count both have, e.g. "at 300 users: tps +38 %, IOPS +55 %,
// average response time -33 %". It is "" when the two share no step.
func (c *Comparison) Headline(r int) string {
	for i := len(c.Users) - 1; i >= 0; i-- {
		if c.Views[i][0] == nil || c.Views[i][r] == nil {
			continue
		}
		parts := []string{}
		for _, h := range []struct{ key, words string }{{"tps", "tps"}, {"iops", "IOPS"}, {"avg", "average response time"}} {
			m, _ := figures.LookupStepMetric(h.key)
			if e, ok := c.Estimate(i, r, m); ok {
				ch := figures.FormatChange(e.Change, 0)
				if e.NearZero {
					b, _ := c.Value(i, 0, m)
					v, _ := c.Value(i, r, m)
					ch = figures.FormatValue(m, b) + " → " + figures.FormatValue(m, v)
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
		c.Inputs[0].Name(), formatTPSE(b.TPSE), figures.FormatChange(stats.Change(b.TPSE, v.TPSE), 0)) + unresolvedMaxNote(c.Inputs[r], c.Inputs[0])
}

// formatTPSE shows tpsE as a person reads it: whole numbers from 100, one decimal
// below.
func formatTPSE(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}
