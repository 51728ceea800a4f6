package compare

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/results/stats"
)

// DiskComparison is two or more storage-profile sides with their steps matched by
// profile and outstanding I/Os. The first input is the base. An input is a side:
// one run, or several runs of the same system (its Repeats), whose figures are
// then the runs' means, judged across them (Estimate).
type DiskComparison struct {
	Inputs []results.Input
	// Keys are the matched (profile, depth) pairs: in a run of the base side and in
	// a run of at least one other side, in the base's profile order, depths
	// ascending.
	Keys      []results.DiskKey
	Unmatched []string
	// est caches the estimates, cheap as they are, so that a renderer asking for a
	// cell's change, interval and verdict in turn computes them once.
	est map[diskEstKey]Estimate
}

// IsDisk tells whether in is a storage-profile file.
func IsDisk(in results.Input) bool {
	return results.KindOf(in.Run) == results.KindDisk && in.Run.Disk != nil
}

// CompareDisk matches the sides' profile steps.
func CompareDisk(inputs []results.Input) (*DiskComparison, error) {
	if len(inputs) < 2 {
		return nil, errors.New("compare needs at least two storage-profile files")
	}
	for _, in := range inputs {
		for _, run := range in.All() {
			if !IsDisk(run) {
				return nil, fmt.Errorf("%s is not a storage-profile file", run.Path)
			}
		}
	}
	inputs = distinctNames(inputs)
	c := &DiskComparison{Inputs: inputs, est: map[diskEstKey]Estimate{}}
	for _, k := range sideKeys(inputs[0]) {
		matched := false
		for r := 1; r < len(inputs); r++ {
			matched = matched || c.hasStep(k, r)
		}
		if matched {
			c.Keys = append(c.Keys, k)
		} else {
			c.Unmatched = append(c.Unmatched, fmt.Sprintf("%s: %s (no other run has it)", inputs[0].Name(), k))
		}
	}
	for _, in := range inputs[1:] {
		for _, k := range sideKeys(in) {
			if !slices.Contains(c.Keys, k) {
				c.Unmatched = append(c.Unmatched, fmt.Sprintf("%s: %s (the base has no such step)", in.Name(), k))
			}
		}
	}
	return c, nil
}

// sideKeys are the steps any run of the side has, in its runs' profile order,
// depths ascending: for one run, its own steps in the order it ran them.
func sideKeys(in results.Input) []results.DiskKey {
	var profiles []string
	var steps []results.DiskStep
	for _, run := range in.All() {
		for _, p := range results.ProfileOrder(run.Run.Disk) {
			if !slices.Contains(profiles, p) {
				profiles = append(profiles, p)
			}
		}
		steps = append(steps, run.Run.Disk.Steps...)
	}
	var keys []results.DiskKey
	for _, p := range profiles {
		for _, d := range results.DepthsOf(steps) {
			k := results.DiskKey{Profile: p, Depth: d}
			if slices.ContainsFunc(steps, func(st results.DiskStep) bool { return st.Profile == p && st.Depth == d }) {
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// hasStep tells whether a run of side r has step k.
func (c *DiskComparison) hasStep(k results.DiskKey, r int) bool {
	return slices.ContainsFunc(c.Inputs[r].All(), func(run results.Input) bool { return results.StepAt(run.Run.Disk, k) != nil })
}

// Value is metric m of side r at step k: the mean over the side's runs that have
// the step and the figure (one run's own value when the side is one run).
func (c *DiskComparison) Value(k results.DiskKey, r int, m figures.DiskMetric) (float64, bool) {
	return sideMean(c.sideValues(k, r, stepFigure(m)))
}

// sideMean is the mean of a side's per-run figures; false when no run has one.
func sideMean(xs []float64) (float64, bool) {
	if len(xs) == 0 {
		return 0, false
	}
	mean, _ := stats.MeanSD(xs)
	return mean, true
}

// Headlines are run r's one-line summaries against the base, one per profile at the
// highest depth both ran: "database, 64 outstanding: IOPS +55 %, latency -33 %".
func (c *DiskComparison) Headlines(r int) []string {
	var out []string
	seen := map[string]bool{}
	for i := len(c.Keys) - 1; i >= 0; i-- {
		k := c.Keys[i]
		if seen[k.Profile] {
			continue
		}
		parts := c.replayHeadline(k, r)
		if parts == nil {
			parts = c.profileHeadline(k, r)
		}
		if len(parts) == 0 {
			continue
		}
		seen[k.Profile] = true
		out = append(out, k.String()+": "+strings.Join(parts, ", "))
	}
	slices.Reverse(out)
	return out
}

// profileHeadline is run r's IOPS and latency changes against the base at k.
func (c *DiskComparison) profileHeadline(k results.DiskKey, r int) []string {
	return c.changeParts(k, r, []headlineFigure{{"iops", ""}, {"latency", ""}})
}

// headlineFigure is a figure of a headline, by its key, and the words that name
// it there ("": the figure's title).
type headlineFigure struct{ key, title string }

// changeParts are "IOPS +55 %": each figure's change from the base to run r at
// k, for the figures both runs have. With repeats on either side each says its
// interval and verdict: "IOPS -92 % [-93 … -91] worse".
func (c *DiskComparison) changeParts(k results.DiskKey, r int, figs []headlineFigure) []string {
	var parts []string
	for _, f := range figs {
		m, _ := figures.LookupDiskMetric(f.key)
		title := f.title
		if title == "" {
			title = m.Title
		}
		if c.pairRepeats(r) {
			if e, ok := c.Estimate(k, r, m); ok {
				b, _ := c.Value(k, 0, m)
				v, _ := c.Value(k, r, m)
				parts = append(parts, title+" "+JudgedChange(m.AsMetric(), b, v, e))
			}
			continue
		}
		b, okB := c.Value(k, 0, m)
		v, okV := c.Value(k, r, m)
		if !okB || !okV {
			continue
		}
		parts = append(parts, title+" "+figures.FormatChange(stats.Change(b, v), 0))
	}
	return parts
}

// JudgedChange is a change from b to v as a headline gives it with its estimate:
// "-92 % [-93 … -91] worse", "+1 % [-3 … +5] within noise", "-40 % no verdict"
// without an interval, the two values when the base is near zero.
func JudgedChange(m figures.Metric, b, v float64, e Estimate) string {
	s := figures.FormatChange(e.Change, 0)
	if e.NearZero {
		s = figures.FormatValue(m, b) + " → " + figures.FormatValue(m, v)
	}
	return s + intervalText(e) + " " + string(e.Verdict)
}

// intervalText is an estimate's interval in whole percent as headlines give it,
// " [-45 … -31]", or "" without one.
func intervalText(e Estimate) string {
	if !e.HasInterval() {
		return ""
	}
	bound := func(x float64) string { return strings.TrimSuffix(figures.FormatChange(x, 0), " %") }
	return " [" + bound(e.Lo) + " … " + bound(e.Hi) + "]"
}

// HasRepeats tells whether any side was given as several runs.
func (c *DiskComparison) HasRepeats() bool {
	return slices.ContainsFunc(c.Inputs, func(in results.Input) bool { return len(in.Repeats) > 0 })
}

// pairRepeats tells whether the base or side r was given as several runs: their
// changes are then judged, and said with their intervals and verdicts.
func (c *DiskComparison) pairRepeats(r int) bool {
	return len(c.Inputs[0].Repeats) > 0 || len(c.Inputs[r].Repeats) > 0
}

// VerdictReasons are why side r's headline figures (IOPS, latency) have no
// verdict, each reason once: "2 repeats a side; a verdict needs 3". Empty for
// one run a side, whose headline judges nothing.
func (c *DiskComparison) VerdictReasons(r int) []string {
	if !c.pairRepeats(r) {
		return nil
	}
	var out []string
	for _, k := range c.Keys {
		for _, key := range []string{"iops", "latency"} {
			m, _ := figures.LookupDiskMetric(key)
			if e, ok := c.Estimate(k, r, m); ok && e.Reason != "" && !slices.Contains(out, e.Reason) {
				out = append(out, e.Reason)
			}
		}
	}
	return out
}

// DiskGate is a --fail-if expression on a storage-profile figure, disk.KEY OP VALUE,
// checked at every matched profile step of every run after the first.
type DiskGate struct {
	g Gate
	m figures.DiskMetric
}

// Expr is the expression as typed.
func (g DiskGate) Expr() string { return g.g.Expr }

// IsDiskGate tells whether a --fail-if expression is about storage profiles.
func IsDiskGate(expr string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(expr)), figures.DiskGatePrefix)
}

// ParseDiskGate parses disk.KEY OP VALUE, where KEY is one of the diskMetrics keys
// and VALUE a change (-10%) or an absolute value in the figure's unit.
func ParseDiskGate(expr string) (DiskGate, error) {
	bad := func(reason string) (DiskGate, error) {
		return DiskGate{}, &GateSyntaxError{Expr: expr, Reason: reason}
	}
	s := strings.TrimSpace(expr)[len(figures.DiskGatePrefix):]
	name, op, rest, ok := splitGateOp(s)
	if !ok {
		return bad(`no operator; want disk.METRIC OP VALUE, e.g. "disk.iops<-10%", "disk.read_p99>+20%"`)
	}
	g := DiskGate{g: Gate{Expr: expr, op: op}}
	m, ok := figures.LookupDiskMetric(name)
	if !ok {
		keys := make([]string, len(figures.DiskMetrics))
		for k, dm := range figures.DiskMetrics {
			keys[k] = figures.DiskGatePrefix + dm.Key
		}
		return bad(fmt.Sprintf("unknown storage-profile metric %q; use one of %s", name, strings.Join(keys, ", ")))
	}
	g.m, g.g.metric = m, m.AsMetric()
	if rest == "" || strings.ContainsAny(rest, "<>=") {
		return bad("want one value after one operator")
	}
	var err error
	if g.g.value, g.g.relative, err = parseGateValue(rest, m.Unit); err != nil {
		return bad(err.Error())
	}
	return g, nil
}

// String renders the gate canonically, "disk.iops < -10 %".
func (g DiskGate) String() string { return figures.DiskGatePrefix + g.g.String() }

// CheckGates returns every trip of the gates, as "run B at database, 64
// outstanding: disk.iops -12.0 % < -10 %", and the gates checked nowhere.
func (c *DiskComparison) CheckGates(gates []DiskGate) (trips []string, unchecked []DiskGate) {
	for _, g := range gates {
		checked := false
		for r := 1; r < len(c.Inputs); r++ {
			for _, k := range c.Keys {
				v, ok := c.Value(k, r, g.m)
				if !ok {
					continue
				}
				if _, okB := c.Value(k, 0, g.m); g.g.relative && !okB {
					continue
				}
				checked = true
				_, shown, tripped := g.g.trips(v, func() (float64, bool) { return c.Value(k, 0, g.m) },
					func(x float64) string { return figures.FormatValue(g.m.AsMetric(), x) })
				if tripped {
					trips = append(trips, fmt.Sprintf("run %s at %s: %s%s %s %s %s", c.Inputs[r].Name(), k,
						figures.DiskGatePrefix, g.m.Key, shown, g.g.op, g.g.formatThreshold()))
				}
			}
		}
		if !checked {
			unchecked = append(unchecked, g)
		}
	}
	return trips, unchecked
}

// Warnings name what makes two storage-profile runs measure different things: another
// seed (other offsets), test size (another share of the disk and of its cache), I/O
// mode, or a profile of the same name defined with other fio options. Every run is
// held against the base's first, repeats too: a repeat that differs would blur its
// side's spread.
func (c *DiskComparison) Warnings() []string {
	var out []string
	b := c.Inputs[0]
	bd := b.Run.Disk
	for _, in := range allRunsButFirst(c.Inputs) {
		d := in.Run.Disk
		out = append(out, replayWarnings(b, in)...)
		if in.Run.Seed != b.Run.Seed {
			out = append(out, fmt.Sprintf("%s ran with seed %d, %s with %d: other offsets and sizes", in.Name(), in.Run.Seed, b.Name(), b.Run.Seed))
		}
		if d.Target.SizeBytes != bd.Target.SizeBytes {
			out = append(out, fmt.Sprintf("%s addressed %s, %s %s: a different share of the storage and its cache", in.Name(),
				bytesize.Format(d.Target.SizeBytes), b.Name(), bytesize.Format(bd.Target.SizeBytes)))
		}
		if d.Direct != bd.Direct {
			out = append(out, fmt.Sprintf("%s and %s differ in direct I/O: one went through the page cache", in.Name(), b.Name()))
		}
		if d.Replay != nil && bd.Replay != nil {
			continue // fio's options name each replay's target; replayWarnings compares the traces
		}
		for _, p := range d.Profiles {
			for _, q := range bd.Profiles {
				if p.Name == q.Name && !slices.Equal(p.FIO, q.FIO) {
					out = append(out, fmt.Sprintf("profile %s is defined differently in %s and %s", p.Name, in.Name(), b.Name()))
				}
			}
		}
	}
	return out
}

// allRunsButFirst are every side's runs, repeats after their side, but the base's
// first.
func allRunsButFirst(sides []results.Input) []results.Input {
	var out []results.Input
	for _, side := range sides {
		out = append(out, side.All()...)
	}
	return out[1:]
}
