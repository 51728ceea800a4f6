package run

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/report"
	"github.com/brokerbench/brokerbench/session"
)

func TestStepJudge(t *testing.T) {
	lims, err := (&LimitOptions{Limits: []string{"trade-status.p90=5ms"}}).limits()
	if err != nil {
		t.Fatal(err)
	}
	j := newStepJudge(lims)
	var stored []*results.Step
	cfg := driver.Config{OnStep: func(st *results.Step) { stored = append(stored, st) }}
	j.wrap(&cfg)
	// Step 1: warm-up ticks (ignored), then a window whose tps climbs 100 → 159.
	for i := 0; i < 5; i++ {
		cfg.OnTick(driver.Live{Step: 1, TPS: 9999})
	}
	for i := 0; i < 60; i++ {
		cfg.OnTick(driver.Live{Step: 1, Measuring: true, TPS: 100 + float64(i)})
	}
	cfg.OnStep(&results.Step{MeasuredS: 60, Transactions: map[string]results.TxnStats{"Trade-Status": {Count: 10, P90MS: 7}}})
	// Step 2: steady.
	for i := 0; i < 30; i++ {
		cfg.OnTick(driver.Live{Step: 2, Measuring: true, TPS: 200})
	}
	cfg.OnStep(&results.Step{MeasuredS: 30, Transactions: map[string]results.TxnStats{"Trade-Status": {Count: 10, P90MS: 4}}})
	if len(stored) != 2 {
		t.Fatalf("%d steps stored", len(stored))
	}
	a, b := stored[0], stored[1]
	if len(a.LimitsBroken) != 1 || a.LimitsBroken[0] != "Trade-Status" || len(b.LimitsBroken) != 0 {
		t.Errorf("limits broken: %v, %v", a.LimitsBroken, b.LimitsBroken)
	}
	if a.Steadiness == nil || a.Steadiness.Seconds != 60 || !results.HasFlag(a, results.FlagUnsteady) {
		t.Errorf("step 1 must be unsteady from its 60 measured seconds: %+v %v", a.Steadiness, a.Flags)
	}
	if b.Steadiness == nil || b.Steadiness.Seconds != 30 || len(b.Flags) != 0 {
		t.Errorf("step 2 must be steady from its own 30 seconds: %+v %v", b.Steadiness, b.Flags)
	}
	if n := report.StepNote(lims, &results.Run{}, a); n == "" {
		t.Error("no note under a failing, unsteady step")
	}
}

// TestStepJudgeUnderAPacer: the judge samples the disks' reads (from the step's I/O
// series, one point per --io-interval) and the hit ratio (once per new value: the
// live ratio repeats between the sampler's reads) as well as tps, so a paced step
// whose tps holds while its cache still warms (reads 2,000 → 1,000 per second, hit
// ratio 80 → 90 %) is unsteady, and says why.
func TestStepJudgeUnderAPacer(t *testing.T) {
	j := newStepJudge(driver.Workload().DefaultLimits())
	hit := 0.8
	j.liveHit = func() (float64, bool) { return hit, true }
	var stored *results.Step
	cfg := driver.Config{OnStep: func(st *results.Step) { stored = st }}
	j.wrap(&cfg)
	io := &results.StepIO{}
	for i := range 60 {
		if i%5 == 0 { // the sampler reads the counters every 5 s
			hit = 0.8 + 0.1*float64(i)/60
			io.Series = append(io.Series, results.IOSample{IOFigures: results.IOFigures{ReadIOPS: 2000 - 1000*float64(i)/60}})
		}
		cfg.OnTick(driver.Live{Step: 1, Measuring: true, TPS: 200 + float64(i%3), P95MS: 40})
	}
	cfg.OnStep(&results.Step{MeasuredS: 60, IO: io})
	s := stored.Steadiness
	if s == nil || !results.HasFlag(stored, results.FlagUnsteady) || !slices.Equal(s.Drifting, []string{"reads", "misses"}) {
		t.Fatalf("steadiness %+v flags %v: want unsteady on reads and misses", s, stored.Flags)
	}
	if n := report.StepNote(driver.Workload().DefaultLimits(), &results.Run{}, stored); !strings.Contains(n, "unsteady: reads -") {
		t.Errorf("note %q", n)
	}
}

// TestStepJudgeMemoryResidentProbe: a find-max probe on the uncapped managed server,
// whose figures the judge called unsteady ("misses -68 %") on every probe, so the
// search re-probed each passing one and ran out of probes before it resolved. Its
// 99.79 % hit ratio rose to 99.93 % and its 84 disk reads a second fell to 67 at
// 560 tps (0.15 → 0.12 reads per transaction): large in proportion, too small to
// move any storage figure. The step is steady; its changes are still recorded.
func TestStepJudgeMemoryResidentProbe(t *testing.T) {
	j := newStepJudge(driver.Workload().DefaultLimits())
	hits := []float64{0.9975, 0.9979, 0.9983, 0.9990, 0.9992, 0.9993}
	reads := []float64{84, 84, 70, 71, 67, 67}
	var hit float64
	j.liveHit = func() (float64, bool) { return hit, true }
	var stored *results.Step
	cfg := driver.Config{OnStep: func(st *results.Step) { stored = st }}
	j.wrap(&cfg)
	io := &results.StepIO{}
	for i := range 30 {
		if i%5 == 0 {
			hit = hits[i/5]
			io.Series = append(io.Series, results.IOSample{IOFigures: results.IOFigures{ReadIOPS: reads[i/5]}})
		}
		cfg.OnTick(driver.Live{Step: 1, Measuring: true, TPS: 560 + float64(i%3), P95MS: 60 + float64(i%4)})
	}
	cfg.OnStep(&results.Step{MeasuredS: 30, IO: io})
	s := stored.Steadiness
	if s == nil || results.HasFlag(stored, results.FlagUnsteady) || len(s.Drifting) != 0 {
		t.Fatalf("steadiness %+v flags %v: want steady", s, stored.Flags)
	}
	if s.MissHalfChange == nil || *s.MissHalfChange > -0.5 || s.ReadsHalfChange == nil || *s.ReadsHalfChange > -0.1 {
		t.Errorf("the changes are not recorded: misses %v, reads %v", s.MissHalfChange, s.ReadsHalfChange)
	}
}

func TestFindMaxOptions(t *testing.T) {
	o := &LimitOptions{Resolution: 5, Growth: 2, MaxSteps: 12}
	cfg, err := o.searchConfig(0, []int{32})
	if err != nil || !cfg.Calibrate || cfg.Resolution != 0.05 {
		t.Errorf("without --rate the search must calibrate: %+v %v", cfg, err)
	}
	if cfg, err := o.searchConfig(40, []int{32}); err != nil || cfg.Calibrate || cfg.Start != 40 {
		t.Errorf("with --rate the search must start there: %+v %v", cfg, err)
	}
	var u session.UsageError
	if _, err := o.searchConfig(100, []int{8, 16}); !errors.As(err, &u) {
		t.Errorf("a ramp of users with --find-max must be a usage error, got %v", err)
	}
	for _, bad := range []LimitOptions{{Resolution: 0, Growth: 2, MaxSteps: 3}, {Resolution: 5, Growth: 1, MaxSteps: 3}, {Resolution: 5, Growth: 2, MaxSteps: 0}} {
		if _, err := bad.searchConfig(10, []int{4}); !errors.As(err, &u) {
			t.Errorf("%+v: want a usage error, got %v", bad, err)
		}
	}
	if _, err := (&LimitOptions{Limits: []string{"trade-status.p90=soon"}}).limits(); !errors.As(err, &u) {
		t.Errorf("a bad --limit must be a usage error, got %v", err)
	}
}

func TestProbeOutcome(t *testing.T) {
	st := &results.Step{MeasuredS: 10, TPS: 50, TPSE: 5, Transactions: map[string]results.TxnStats{"Trade-Status": {Count: 10, P90MS: 2000}},
		LimitsBroken: []string{"Trade-Status"}}
	out := probeOutcome(driver.Workload().DefaultLimits(), st, 3)
	if out.Pass || out.Limiting != "Trade-Status" || out.Step != 3 || out.DriverBound {
		t.Errorf("%+v", out)
	}
	st.Driver.Bottleneck, st.Driver.BottleneckOn = true, "driver CPU 190 % of 2 cores"
	if out := probeOutcome(driver.Workload().DefaultLimits(), st, 3); !out.DriverBound || out.Why != st.Driver.BottleneckOn {
		t.Errorf("%+v", out)
	}
}
