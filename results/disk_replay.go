package results

import "fmt"

// What compare adds for replays (brokerbench replay): each replay's fidelity to
// its trace beside what the target did, so two layouts' replays of one trace read
// "read p99 -41 %, IOPS achieved 87 % vs 100 % of captured".

// replayFigure is one fidelity figure of a replay; csv is its storage-profile CSV
// column, named with its unit.
type replayFigure struct {
	m     metric
	csv   string
	value func(r *Replay) (float64, bool)
}

// replayFigures are compare's fidelity rows, in display order, and the CSV's last
// columns in that order.
var replayFigures = []replayFigure{
	{metric{key: "replayed", title: "requests replayed", unit: unitPercent, higherIsBetter: true}, "replayed_percent",
		func(r *Replay) (float64, bool) { return r.Fidelity(), r.Captured > 0 }},
	{metric{key: "achieved", title: "IOPS of captured", unit: unitPercent, higherIsBetter: true}, "iops_of_captured_percent",
		func(r *Replay) (float64, bool) { return r.AchievedPercent(), r.AchievedPercent() > 0 }},
	{metric{key: "duration_ratio", title: "duration / captured", unit: unitRatio}, "duration_ratio",
		func(r *Replay) (float64, bool) { return r.DurationRatio(), r.DurationRatio() > 0 }},
	{metric{key: "lag_p99", title: "behind trace p99", unit: unitMS}, "lag_p99_ms",
		func(r *Replay) (float64, bool) { return r.LagP99MS, r.Mode != "asap" }},
	{metric{key: "lag_max", title: "behind trace max", unit: unitMS}, "lag_max_ms",
		func(r *Replay) (float64, bool) { return r.LagMaxMS, r.Mode != "asap" }},
}

// replayAt is run r's replay when its step k is the replay's step, else nil.
func (c *DiskComparison) replayAt(k diskKey, r int) *Replay {
	d := c.Inputs[r].Run.Disk
	if d.Replay == nil || stepAt(d, k) == nil {
		return nil
	}
	return d.Replay
}

// replayHeadline is run r's headline against the base when both replayed at k:
// the latency percentiles' changes and each one's pace against its trace.
func (c *DiskComparison) replayHeadline(k diskKey, r int) []string {
	rb, rv := c.replayAt(k, 0), c.replayAt(k, r)
	if rb == nil || rv == nil {
		return nil
	}
	parts := c.changeParts(k, r, []headlineFigure{{"read_p99", "read latency p99"}, {"write_p99", "write latency p99"}})
	if b, v := rb.AchievedPercent(), rv.AchievedPercent(); b > 0 && v > 0 {
		parts = append(parts, fmt.Sprintf("IOPS achieved %.0f %% vs %.0f %% of captured", v, b))
	}
	return parts
}

// replayWarnings name what makes two replays other than one trace on two targets:
// other requests, or another way of timing them.
func replayWarnings(base, in Input) []string {
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

// FidelityLine says in one line how faithfully a replay kept its trace, as replay
// prints it and report shows it.
func (r *Replay) FidelityLine() string {
	line := fmt.Sprintf("fidelity: %d of %d requests (%.1f %%), %.2fs against %.2fs captured (IOPS %.0f %% of captured)",
		r.Replayed, r.Captured, r.Fidelity(), r.ReplayedS, r.CapturedS, r.AchievedPercent())
	if r.Mode != "asap" {
		line += fmt.Sprintf(", behind the timestamps p50 %.0f ms p99 %.0f ms max %.0f ms", r.LagP50MS, r.LagP99MS, r.LagMaxMS)
	}
	return line
}
