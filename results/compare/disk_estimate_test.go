package compare

import (
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// diskRun is one storage-profile file whose database profile at depth 16 did iops
// with average latency avgMS; with replayS > 0 it is a replay of a 10-second trace
// that took replayS seconds.
func diskRun(name string, iops, avgMS, replayS float64) results.Input {
	d := &results.DiskRun{Target: results.DiskTarget{Path: "/dev/loop9", SizeBytes: 1 << 30}, Direct: true,
		Profiles: []results.DiskProfile{{Name: "database"}},
		Steps: []results.DiskStep{{Profile: "database", Depth: 16, MeasuredS: 10, IOPS: iops, MBps: iops / 128,
			Read: &results.DiskDir{IOs: int64(iops * 10), IOPS: iops, AvgMS: avgMS, P99MS: 3 * avgMS}}}}
	if replayS > 0 {
		d.Replay = &results.Replay{Mode: "timed", Captured: 3000, Replayed: 3000, CapturedS: 10, ReplayedS: replayS,
			LagP99MS: 50 * (replayS - 10), LagMaxMS: 100 * (replayS - 10)}
	}
	return results.Input{Path: name + ".json", Run: &results.Run{Format: results.FormatVersion, Kind: results.KindDisk, Label: name, Seed: 1, Disk: d}}
}

// side is the runs as one side of a comparison: the first, the others its repeats.
func side(runs ...results.Input) results.Input {
	in := runs[0]
	in.Repeats = runs[1:]
	return in
}

// diskSides are two sides of n runs each: A's IOPS around a, B's around b (a
// spread of ±spread %), latency the inverse at 16 outstanding.
func diskSides(t *testing.T, n int, a, b, spread float64) *DiskComparison {
	t.Helper()
	var ra, rb []results.Input
	for j := range n {
		f := 1 + spread/100*float64(j-1)
		ra = append(ra, diskRun("A", a*f, 16000/(a*f), 0))
		rb = append(rb, diskRun("B", b*f, 16000/(b*f), 0))
	}
	c, err := CompareDisk([]results.Input{side(ra...), side(rb...)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var db16 = results.DiskKey{Profile: "database", Depth: 16}

func diskMetric(t *testing.T, key string) figures.DiskMetric {
	m, ok := figures.LookupDiskMetric(key)
	if !ok {
		t.Fatalf("no disk metric %q", key)
	}
	return m
}

func diskEstimate(t *testing.T, c *DiskComparison, key string) Estimate {
	t.Helper()
	e, ok := c.Estimate(db16, 1, diskMetric(t, key))
	if !ok {
		t.Fatalf("no estimate of %s", key)
	}
	return e
}

// TestDiskEstimateRepeats: three runs a side, B at a twelfth of A's IOPS, is
// judged worse with an interval wholly below zero, and its latency (lower is
// better) worse with one wholly above; the value is the repeats' mean.
func TestDiskEstimateRepeats(t *testing.T) {
	c := diskSides(t, 3, 2400, 200, 2)
	if v, ok := c.Value(db16, 1, diskMetric(t, "iops")); !ok || v < 199.99 || v > 200.01 {
		t.Errorf("B's IOPS %v, want the mean 200", v)
	}
	iops := diskEstimate(t, c, "iops")
	if iops.Verdict != VerdictWorse || !(iops.Hi < 0) || iops.Lo < -100 || iops.RunsA != 3 || iops.RunsB != 3 {
		t.Errorf("IOPS estimate %+v, want worse with an interval below 0 from 3 vs 3 runs", iops)
	}
	if !strings.Contains(iops.Method, "Welch t, 3 vs 3 runs, on the logarithms") || !(iops.Detectable > 0) {
		t.Errorf("IOPS method %q detectable %v", iops.Method, iops.Detectable)
	}
	lat := diskEstimate(t, c, "latency")
	if lat.Verdict != VerdictWorse || !(lat.Lo > 0) {
		t.Errorf("latency estimate %+v, want worse with an interval above 0", lat)
	}
	back, err := CompareDisk([]results.Input{c.Inputs[1], c.Inputs[0]})
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := back.Estimate(db16, 1, diskMetric(t, "latency")); e.Verdict != VerdictBetter || !(e.Hi < 0) {
		t.Errorf("latency falling is %+v, want better", e)
	}
}

// TestDiskEstimateNoise: repeats whose spread covers the difference are within
// noise, with an interval holding zero.
func TestDiskEstimateNoise(t *testing.T) {
	c := diskSides(t, 3, 1000, 1010, 8)
	e := diskEstimate(t, c, "iops")
	if e.Verdict != VerdictNoise || !(e.Lo < 0 && e.Hi > 0) {
		t.Errorf("estimate %+v, want within noise", e)
	}
}

// TestDiskEstimateFewRuns: two runs a side give the interval but no verdict, with
// the reason the runs' comparison gives; one run a side gives neither.
func TestDiskEstimateFewRuns(t *testing.T) {
	e := diskEstimate(t, diskSides(t, 2, 2400, 200, 2), "iops")
	if e.Verdict != VerdictNone || !e.HasInterval() || e.Reason != repeatsReason(2, 2) || e.Reason != "2 repeats a side; a verdict needs 3" {
		t.Errorf("2 vs 2: %+v, want an interval and no verdict", e)
	}
	one := diskSides(t, 1, 2400, 200, 0)
	e = diskEstimate(t, one, "iops")
	if e.Verdict != VerdictNone || e.HasInterval() || e.Reason != DiskOneRunReason || e.Change > -91 || e.Change < -92 {
		t.Errorf("1 vs 1: %+v, want -91.7 %% with no interval and no verdict", e)
	}
	if v, _ := one.Value(db16, 1, diskMetric(t, "iops")); v != 200 {
		t.Errorf("one run's value %v, want its own 200", v)
	}
}

// TestDiskReplayEstimate: replays of one trace three times a side, B falling
// behind its timestamps: its duration ratio and lag are worse, its fidelity (all
// requests replayed on both) within noise.
func TestDiskReplayEstimate(t *testing.T) {
	var ra, rb []results.Input
	for _, s := range []float64{10.1, 10.2, 10.15} {
		ra = append(ra, diskRun("A", 300, 1, s))
		rb = append(rb, diskRun("B", 260, 9, s+2))
	}
	c, err := CompareDisk([]results.Input{side(ra...), side(rb...)})
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]ChangeVerdict{"duration_ratio": VerdictWorse, "lag_p99": VerdictWorse, "replayed": VerdictNoise} {
		e, ok := c.ReplayEstimate(db16, 1, key)
		if !ok || e.Verdict != want {
			t.Errorf("%s: %+v (known %v), want %s", key, e, ok, want)
		}
	}
	if v, ok := c.ReplayValue(db16, 1, "duration_ratio"); !ok || v < 1.214 || v > 1.216 {
		t.Errorf("B's duration ratio %v, want the mean 1.215", v)
	}
	if hs := c.Headlines(1); len(hs) != 1 || !strings.Contains(hs[0], "read latency p99 +") || !strings.HasSuffix(hs[0], "of captured (worse)") {
		t.Errorf("replay headline %q", hs)
	}
	if _, ok := c.ReplayEstimate(db16, 1, "nonsense"); ok {
		t.Error("an unknown replay figure has an estimate")
	}
	if m, ok := ReplayFigureByKey("lag_max"); !ok || m.HigherIsBetter {
		t.Errorf("lag_max is %+v", m)
	}
}

// TestDiskCompareRepeatKeys: a step only a repeat ran is matched too.
func TestDiskCompareRepeatKeys(t *testing.T) {
	a2 := diskRun("A", 1000, 16, 0)
	a2.Run.Disk.Steps = append(a2.Run.Disk.Steps, results.DiskStep{Profile: "database", Depth: 64, IOPS: 2000})
	b := diskRun("B", 900, 17, 0)
	b.Run.Disk.Steps = append(b.Run.Disk.Steps, results.DiskStep{Profile: "database", Depth: 64, IOPS: 1800})
	c, err := CompareDisk([]results.Input{side(diskRun("A", 1000, 16, 0), a2), b})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Keys) != 2 || c.Keys[1].Depth != 64 || len(c.Unmatched) != 0 {
		t.Errorf("keys %v, unmatched %q", c.Keys, c.Unmatched)
	}
	if e, _ := c.Estimate(results.DiskKey{Profile: "database", Depth: 64}, 1, diskMetric(t, "iops")); e.RunsA != 1 || e.HasInterval() {
		t.Errorf("a step one run a side knows: %+v", e)
	}
}

// TestDiskLatencyNoisyBase: a latency whose base side spreads more than its mean
// (a loop device at 0.014, 0.018 and 0.127 ms) is still judged on its ratio
// against 3.4 ms capped, not withheld as a base below its own noise.
func TestDiskLatencyNoisyBase(t *testing.T) {
	var ra, rb []results.Input
	for j, avg := range []float64{0.014, 0.018, 0.127} {
		ra = append(ra, diskRun("free", 1/avg*1000, avg, 0))
		rb = append(rb, diskRun("capped", 293, 3.38+0.005*float64(j), 0))
	}
	c, err := CompareDisk([]results.Input{side(ra...), side(rb...)})
	if err != nil {
		t.Fatal(err)
	}
	if e := diskEstimate(t, c, "latency"); e.Verdict != VerdictWorse || e.NearZero || !(e.Lo > 0) {
		t.Errorf("latency %+v, want worse on the ratio", e)
	}
}

// TestDiskWarningsRepeats: a repeat run with another seed is warned about, as a
// side's first run would be.
func TestDiskWarningsRepeats(t *testing.T) {
	odd := diskRun("B", 900, 17, 0)
	odd.Path, odd.Run.Seed = "B-r2.json", 7
	c, err := CompareDisk([]results.Input{side(diskRun("A", 1000, 16, 0), diskRun("A", 1010, 16, 0)), side(diskRun("B", 900, 17, 0), odd)})
	if err != nil {
		t.Fatal(err)
	}
	if ws := c.Warnings(); len(ws) != 1 || !strings.Contains(ws[0], "ran with seed 7") {
		t.Errorf("warnings %q", ws)
	}
}
