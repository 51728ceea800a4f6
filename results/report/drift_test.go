package report

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
)

// repeatsAt makes one side's repeats of a step with the given tps, started an hour
// apart from start in the given order slots.
func repeatsAt(start time.Time, slots []int, tps ...float64) []figures.StepView {
	var out []figures.StepView
	for i, x := range tps {
		st := &results.Step{Users: 8, TPS: x, StartedAt: start.Add(time.Duration(slots[i]) * time.Hour)}
		out = append(out, figures.NewStepView(st))
	}
	return out
}

// TestDriftAcrossRepeats pins the rule on the runs that showed it: the same capped
// configuration, side A's three repeats and then side B's right after a load, climbed
// 327, 419, 427, 575, 673, 703 tps; the drift is found and named as confounded with the
// difference. The same figures in a flat, noisy order are no drift.
func TestDriftAcrossRepeats(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	tps, _ := figures.LookupStepMetric("tps")
	a := repeatsAt(t0, []int{0, 1, 2}, 327, 419, 427)
	b := repeatsAt(t0, []int{3, 4, 5}, 575, 673, 703)
	d, ok := compare.DriftOf(a, b, tps)
	if !ok || !d.Sequential || d.PerRepeat <= 0 {
		t.Fatalf("drift %+v, %v: want a rising trend, the sides one after the other", d, ok)
	}
	if r := d.Reason(); !strings.Contains(r, "one side ran after the other") {
		t.Errorf("reason %q", r)
	}
	// No trend: the same levels, shuffled within each side.
	a = repeatsAt(t0, []int{0, 1, 2}, 427, 327, 419)
	b = repeatsAt(t0, []int{3, 4, 5}, 673, 703, 575)
	if d, ok := compare.DriftOf(a, b, tps); ok {
		t.Errorf("shuffled repeats: drift %+v", d)
	}
	// Two repeats a side: no test.
	if _, ok := compare.DriftOf(a[:2], b[:2], tps); ok {
		t.Error("drift judged from two repeats a side")
	}
}

// TestDriftFalseAlarms: repeats of one unchanged system with 8 % run-to-run noise and
// no trend, 3 a side, interleaved or one side after the other, are called drifting in
// about 5 % of 400 comparisons (the test's level), at most 10 %; a trend of 20 % per
// repeat, as the climbing runs above showed, is found in more than half of them (in
// nearly all when the sides interleave).
func TestDriftFalseAlarms(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	tps, _ := figures.LookupStepMetric("tps")
	rng := rand.New(rand.NewPCG(1, 2))
	draw := func(trend float64, slots []int) []float64 {
		out := make([]float64, len(slots))
		for i, s := range slots {
			out[i] = 500 * (1 + trend*float64(s)) * (1 + 0.08*rng.NormFloat64())
		}
		return out
	}
	const n = 400
	for _, order := range [][2][]int{{{0, 2, 4}, {1, 3, 5}}, {{0, 1, 2}, {3, 4, 5}}} {
		alarms, found := 0, 0
		for range n {
			if _, ok := compare.DriftOf(repeatsAt(t0, order[0], draw(0, order[0])...), repeatsAt(t0, order[1], draw(0, order[1])...), tps); ok {
				alarms++
			}
			if _, ok := compare.DriftOf(repeatsAt(t0, order[0], draw(0.2, order[0])...), repeatsAt(t0, order[1], draw(0.2, order[1])...), tps); ok {
				found++
			}
		}
		t.Logf("order %v: %d of %d without a trend called drift, %d of %d with 20 %% per repeat", order, alarms, n, found, n)
		if alarms > n/10 {
			t.Errorf("order %v: %d of %d false alarms", order, alarms, n)
		}
		if found < n/2 {
			t.Errorf("order %v: a 20 %% per repeat trend found %d of %d times", order, found, n)
		}
	}
}

// TestRepeatsDoubtWithholdsTheVerdict: three repeats a side that would be judged are
// not when a side's windows held a checkpoint the others did not (unless allowed, and
// then the notes say so), nor when the figure climbed over the run order; a checkpoint
// in every window of both sides disturbs them alike and withholds nothing.
func TestRepeatsDoubtWithholdsTheVerdict(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	side := func(name string, slots []int, tps ...float64) []results.Input {
		var out []results.Input
		for k, x := range tps {
			st := results.Step{Users: 8, TPS: x, MeasuredS: 60, StartedAt: t0.Add(time.Duration(slots[k]) * time.Hour), Background: &results.Background{}}
			out = append(out, results.Input{Path: fmt.Sprintf("%s-r%d.json", name, k+1), Run: &results.Run{Label: name, Steps: []results.Step{st}, Repeat: &results.Repeat{Index: k + 1, Count: len(tps)}}})
		}
		return out
	}
	judge := func(a, b []results.Input, allow bool) (*compare.Comparison, compare.Estimate) {
		c, err := compare.Compare([]results.Input{{Path: a[0].Path, Run: a[0].Run, Repeats: a[1:]}, {Path: b[0].Path, Run: b[0].Run, Repeats: b[1:]}})
		if err != nil {
			t.Fatal(err)
		}
		c.AllowDisturbed = allow
		e, ok := c.Estimate(0, 1, metricByKey("tps"))
		if !ok {
			t.Fatal("no estimate")
		}
		return c, e
	}
	a := side("A", []int{0, 2, 4}, 500, 510, 495)
	b := side("B", []int{1, 3, 5}, 400, 405, 398)
	if _, e := judge(a, b, false); e.Verdict != compare.VerdictWorse {
		t.Fatalf("quiet repeats: verdict %q (%s), want worse", e.Verdict, e.Reason)
	}
	// The verdict holds without B's disturbed repeat: it stands.
	b[1].Run.Steps[0].Background.Checkpoints = 1
	if _, e := judge(a, b, false); e.Verdict != compare.VerdictWorse {
		t.Errorf("a checkpoint that cannot explain the difference: verdict %q (%s), want worse", e.Verdict, e.Reason)
	}
	// B's disturbed repeat is the only low one: the verdict waits.
	b = side("B", []int{1, 3, 5}, 505, 400, 498)
	b[1].Run.Steps[0].Background.Checkpoints = 1
	if _, e := judge(a, b, false); e.Verdict != compare.VerdictNone || !strings.Contains(e.Reason, "disturbed repeats (A 0 of 3, B 1 of 3: checkpoint)") {
		t.Errorf("one checkpoint: verdict %q, reason %q", e.Verdict, e.Reason)
	}
	c, e := judge(a, b, true)
	if e.Verdict != compare.VerdictNoise || !strings.Contains(strings.Join(VerdictNotes(c), "\n"), "include disturbed repeats (A 0 of 3, B 1 of 3: checkpoint), judged as asked") {
		t.Errorf("allowed: verdict %q, notes %q", e.Verdict, VerdictNotes(c))
	}
	b = side("B", []int{1, 3, 5}, 400, 405, 398)
	for _, in := range append(a, b...) {
		in.Run.Steps[0].Background.Checkpoints = 1
	}
	if _, e := judge(a, b, false); e.Verdict != compare.VerdictWorse {
		t.Errorf("a checkpoint in every window: verdict %q (%s), want worse", e.Verdict, e.Reason)
	}
	// Side A then side B, climbing all along: drift, not a difference.
	a = side("A", []int{0, 1, 2}, 327, 419, 427)
	b = side("B", []int{3, 4, 5}, 575, 673, 703)
	if _, e := judge(a, b, false); e.Verdict != compare.VerdictNone || !strings.HasPrefix(e.Reason, "drift:") {
		t.Errorf("climbing repeats: verdict %q, reason %q", e.Verdict, e.Reason)
	}
}

// TestDisturbanceThatCannotExplainTheDifference: a side capped to a crawl reads 99.8 %
// lower whether or not a vacuum ran in one window of the other side; the verdict holds
// without the disturbed repeat, so it is given. A small difference that the disturbed
// repeat alone makes is still withheld.
func TestDisturbanceThatCannotExplainTheDifference(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	side := func(name string, slots []int, tps ...float64) results.Input {
		var all []results.Input
		for k, x := range tps {
			st := results.Step{Users: 8, TPS: x, MeasuredS: 50, StartedAt: t0.Add(time.Duration(slots[k]) * time.Hour), Background: &results.Background{}}
			all = append(all, results.Input{Path: fmt.Sprintf("%s-r%d.json", name, k+1), Run: &results.Run{Label: name, Steps: []results.Step{st}}})
		}
		return results.Input{Path: all[0].Path, Run: all[0].Run, Repeats: all[1:]}
	}
	// Side A's figures from the real A/C run (first window with 15 s of autovacuum).
	a := side("A", []int{0, 2, 4}, 600.0, 589.8, 540.9)
	a.Run.Steps[0].Background.AutovacuumS = 15
	c, err := compare.Compare([]results.Input{a, side("C", []int{1, 3, 5}, 0.92, 0.95, 0.91)})
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := c.Estimate(0, 1, metricByKey("tps")); e.Verdict != compare.VerdictWorse {
		t.Errorf("30-IOPS side: verdict %q (%s), want worse", e.Verdict, e.Reason)
	}
	// The only low repeat is the disturbed one: without it the sides are alike.
	a = side("A", []int{0, 2, 4}, 400, 600, 602)
	a.Run.Steps[0].Background.AutovacuumS = 15
	c, _ = compare.Compare([]results.Input{a, side("B", []int{1, 3, 5}, 599, 601, 603)})
	if e, _ := c.Estimate(0, 1, metricByKey("tps")); e.Verdict != compare.VerdictNone && e.Verdict != compare.VerdictNoise {
		t.Errorf("difference of the disturbed repeat alone: verdict %q (%s)", e.Verdict, e.Reason)
	}
}
