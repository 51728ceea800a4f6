package results

import (
	"fmt"
	"maps"
	"slices"
)

// Bounds of a result file (docs/result-format.md, "Bounds"). A file beyond them is
// refused with a line that names what is too big, before it costs more than its
// own size in memory: report, compare and merge hold whole files, and without the
// bounds a 200 MB label would become gigabytes of output.
const (
	// MaxFileBytes is the largest result file read: about 3,000 steps with every
	// histogram, far beyond any ramp or search.
	MaxFileBytes = 64 << 20
	// MaxTextBytes bounds every string a person or a tool wrote: the label, tag keys
	// and values, transaction names, flags, notes and reasons.
	MaxTextBytes = 1024
	// MaxTags and MaxSteps bound the label's tags and the steps.
	MaxTags  = 100
	MaxSteps = 10_000
)

// Validate refuses what the format forbids beyond JSON types: strings and lists
// past the bounds, and counts or figures below zero (no step measures -5 tps). The
// error names the field as the file spells it.
func Validate(r *Run) error {
	v := validator{}
	v.text("label", r.Label)
	v.text("tool", r.Tool)
	v.text("database.product", r.Database.Product)
	v.text("database.version", r.Database.Version)
	v.text("database.edition", r.Database.Edition)
	if len(r.Tags) > MaxTags {
		v.fail("tags", fmt.Sprintf("has %d entries; at most %d", len(r.Tags), MaxTags))
	}
	for _, k := range slices.Sorted(maps.Keys(r.Tags)) {
		v.text("tags key", k)
		v.text("tags."+Printable(truncate(k)), r.Tags[k])
	}
	if len(r.Steps) > MaxSteps {
		v.fail("steps", fmt.Sprintf("has %d entries; at most %d", len(r.Steps), MaxSteps))
	}
	for i := range r.Steps {
		if v.err != nil {
			break
		}
		v.step(fmt.Sprintf("steps[%d]", i), &r.Steps[i])
	}
	if s := r.Settle; s != nil {
		v.text("settle.why", s.Why)
		if len(s.Windows) > MaxSteps {
			v.fail("settle.windows", fmt.Sprintf("has %d entries; at most %d", len(s.Windows), MaxSteps))
		}
		v.nonNegative("settle.window_s", s.WindowS)
	}
	return v.err
}

type validator struct{ err error }

func (v *validator) fail(field, what string) {
	if v.err == nil {
		v.err = fmt.Errorf("%q %s", field, what)
	}
}

func (v *validator) text(field, s string) {
	if len(s) > MaxTextBytes {
		v.fail(field, fmt.Sprintf("is %d bytes long; at most %d", len(s), MaxTextBytes))
	}
}

func (v *validator) nonNegative(field string, x float64) {
	if x < 0 {
		v.fail(field, fmt.Sprintf("is %g: counts and figures cannot be negative", x))
	}
}

func (v *validator) step(at string, st *Step) {
	for _, f := range []namedFigure{
		{"users", float64(st.Users)}, {"warmup_s", st.WarmupS}, {"measured_s", st.MeasuredS}, {"tps", st.TPS}, {"tps_e", st.TPSE},
		{"statements", float64(st.Statements)}, {"lag.late", float64(st.Lag.Late)}, {"lag.dropped", float64(st.Lag.Missed)},
		{"lag.max_ms", st.Lag.MaxMS}, {"lag.avg_ms", st.Lag.AvgMS}, {"rate", st.Rate},
	} {
		v.nonNegative(at+"."+f.name, f.x)
	}
	if f := st.Faults; f != nil {
		v.nonNegative(at+".faults.connections_lost", float64(f.ConnectionsLost))
		v.nonNegative(at+".faults.reconnects", float64(f.Reconnects))
		for _, class := range slices.Sorted(maps.Keys(f.ByClass)) {
			v.text(at+".faults.by_class key", class)
			v.nonNegative(at+".faults.by_class."+Printable(truncate(class)), float64(f.ByClass[class]))
		}
	}
	for i, s := range st.Flags {
		v.text(fmt.Sprintf("%s.flags[%d]", at, i), s)
	}
	for i, s := range st.LimitsBroken {
		v.text(fmt.Sprintf("%s.limits_broken[%d]", at, i), s)
	}
	v.text(at+".driver.bottleneck_reason", st.Driver.BottleneckOn)
	if st.Probe != nil {
		v.text(at+".probe.why", st.Probe.Why)
	}
	if c := st.IOCapture; c != nil {
		for _, f := range []namedFigure{
			{"requests", float64(c.Requests)}, {"reads", float64(c.Reads)}, {"writes", float64(c.Writes)},
			{"read_bytes", float64(c.ReadBytes)}, {"write_bytes", float64(c.WriteBytes)}, {"duration_s", c.DurationS},
			{"lost_events", float64(c.LostEvents)},
		} {
			v.nonNegative(at+".io_capture."+f.name, f.x)
		}
		if len(c.Sizes) > MaxTags {
			v.fail(at+".io_capture.sizes", fmt.Sprintf("has %d entries; at most %d", len(c.Sizes), MaxTags))
		}
	}
	if len(st.Transactions) > MaxTags {
		v.fail(at+".transactions", fmt.Sprintf("has %d entries; at most %d", len(st.Transactions), MaxTags))
	}
	for _, name := range slices.Sorted(maps.Keys(st.Transactions)) {
		t := st.Transactions[name]
		v.text(at+".transactions key", name)
		tx := at + ".transactions." + Printable(truncate(name))
		for _, f := range []namedFigure{
			{"count", float64(t.Count)}, {"errors", float64(t.Errors)}, {"retries", float64(t.Retries)}, {"rollbacks", float64(t.Rollbacks)},
			{"share", t.Share}, {"avg_ms", t.AvgMS}, {"p50_ms", t.P50MS}, {"p90_ms", t.P90MS}, {"p95_ms", t.P95MS}, {"p99_ms", t.P99MS},
			{"max_ms", t.MaxMS}, {"service_avg_ms", t.ServiceAvgMS}, {"service_p95_ms", t.ServiceP95MS},
		} {
			v.nonNegative(tx+"."+f.name, f.x)
		}
	}
}

// namedFigure is a figure and its name in the file, checked in a fixed order so a
// file with several bad fields always names the same first one.
type namedFigure struct {
	name string
	x    float64
}

// truncate keeps a field name in an error short when the key itself is the problem.
func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
