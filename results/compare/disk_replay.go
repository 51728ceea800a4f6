package compare

import (
	"fmt"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// What compare adds for replays (brokerbench replay): each replay's fidelity to
// its trace beside what the target did, so two layouts' replays of one trace read
// "read p99 -41 %, IOPS achieved 87 % vs 100 % of captured".

// replayFigure is one fidelity figure of a replay; csv is its storage-profile CSV
// column, named with its unit.
type replayFigure struct {
	Metric figures.Metric
	CSV    string
	Value  func(r *results.Replay) (float64, bool)
}

// ReplayFigures are compare's fidelity rows, in display order, and the CSV's last
// columns in that order.
var ReplayFigures = []replayFigure{
	{figures.Metric{Key: "replayed", Title: "requests replayed", Unit: figures.UnitPercent, HigherIsBetter: true}, "replayed_percent",
		func(r *results.Replay) (float64, bool) { return r.Fidelity(), r.Captured > 0 }},
	{figures.Metric{Key: "achieved", Title: "IOPS of captured", Unit: figures.UnitPercent, HigherIsBetter: true}, "iops_of_captured_percent",
		func(r *results.Replay) (float64, bool) { return r.AchievedPercent(), r.AchievedPercent() > 0 }},
	{figures.Metric{Key: "duration_ratio", Title: "duration / captured", Unit: figures.UnitRatio}, "duration_ratio",
		func(r *results.Replay) (float64, bool) { return r.DurationRatio(), r.DurationRatio() > 0 }},
	{figures.Metric{Key: "lag_p99", Title: "behind trace p99", Unit: figures.UnitMS}, "lag_p99_ms",
		func(r *results.Replay) (float64, bool) { return r.LagP99MS, r.Mode != "asap" }},
	{figures.Metric{Key: "lag_max", Title: "behind trace max", Unit: figures.UnitMS}, "lag_max_ms",
		func(r *results.Replay) (float64, bool) { return r.LagMaxMS, r.Mode != "asap" }},
}

// ReplayAt is side r's replay when its step k is the replay's step, else nil:
// with repeats, the first run's that has it.
func (c *DiskComparison) ReplayAt(k results.DiskKey, r int) *results.Replay {
	for _, run := range c.Inputs[r].All() {
		if d := run.Run.Disk; d.Replay != nil && results.StepAt(d, k) != nil {
			return d.Replay
		}
	}
	return nil
}

// replayHeadline is run r's headline against the base when both replayed at k:
// the latency percentiles' changes and each one's pace against its trace.
func (c *DiskComparison) replayHeadline(k results.DiskKey, r int) []string {
	rb, rv := c.ReplayAt(k, 0), c.ReplayAt(k, r)
	if rb == nil || rv == nil {
		return nil
	}
	parts := c.changeParts(k, r, []headlineFigure{{"read_p99", "read latency p99"}, {"write_p99", "write latency p99"}})
	b, okB := c.ReplayValue(k, 0, "achieved")
	v, okV := c.ReplayValue(k, r, "achieved")
	if okB && okV {
		part := fmt.Sprintf("IOPS achieved %.0f %% vs %.0f %% of captured", v, b)
		if e, ok := c.ReplayEstimate(k, r, "achieved"); ok && c.pairRepeats(r) {
			part += " (" + string(e.Verdict) + ")"
		}
		parts = append(parts, part)
	}
	return parts
}

// replayWarnings name what makes two replays other than one trace on two targets:
// other requests, or another way of timing them.
func replayWarnings(base, in results.Input) []string {
	b, r := base.Run.Disk.Replay, in.Run.Disk.Replay
	switch {
	case b == nil && r == nil:
		return nil
	case b == nil || r == nil:
		return []string{fmt.Sprintf("only one of %s and %s is a replay of a captured trace", base.Name(), in.Name())}
	}
	var out []string
	if b.Captured != r.Captured || b.CapturedS != r.CapturedS {
		out = append(out, fmt.Sprintf("%s replayed %d requests over %.2fs, %s %d over %.2fs: not the same trace",
			in.Name(), r.Captured, r.CapturedS, base.Name(), b.Captured, b.CapturedS))
	}
	if b.Mode != r.Mode {
		out = append(out, fmt.Sprintf("%s replayed %s, %s %s: their pace and latencies differ by design", in.Name(), r.Mode, base.Name(), b.Mode))
	}
	return out
}
