package report

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/brokerbench/brokerbench/internal/testkit/series"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/results/stats"
)

// sampledRun is a one-step run of 90 measured seconds drawn from a process with
// autocorrelated throughput (mean tps) and response times (median scale ms): what
// a real step's samples look like, with every figure the step records computed
// from them as run computes it.
func sampledRun(t *testing.T, seed uint64, label string, tps, scale float64) *results.Run {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	const n = 90
	rates := series.AR1(rng, n, tps, 0.6, 0.12*tps)
	level := series.AR1(rng, n, 0, 0.6, 0.2)
	names := []string{"Trade-Order", "Trade-Result"}
	whole := map[string]*hdrhistogram.Histogram{}
	samples := &results.StepSamples{Response: map[string][]string{}}
	h := results.NewHistogram()
	var total, tr int64
	for s := range n {
		count := max(int(math.Round(rates[s])), 0)
		per := map[string]int{names[0]: count - count/4, names[1]: count / 4}
		for _, name := range names {
			h.Reset()
			if whole[name] == nil {
				whole[name] = results.NewHistogram()
			}
			for range per[name] {
				ms := scale * math.Exp(level[s]+0.4*rng.NormFloat64())
				us := results.ClampMicros(time.Duration(ms * float64(time.Millisecond)))
				_ = h.RecordValue(us)
				_ = whole[name].RecordValue(us)
			}
			enc := ""
			if h.TotalCount() > 0 {
				var err error
				if enc, err = results.EncodeHistogram(h); err != nil {
					t.Fatal(err)
				}
			}
			samples.Response[name] = append(samples.Response[name], enc)
		}
		total += int64(count)
		tr += int64(per[names[1]])
		samples.TPS = append(samples.TPS, float64(count))
		samples.TPSE = append(samples.TPSE, float64(per[names[1]]))
	}
	txns := map[string]results.TxnStats{}
	for _, name := range names {
		txns[name] = results.Summarize(whole[name], nil, 0, 0, 0)
	}
	results.SetShares(txns)
	st := results.Step{Users: 8, MeasuredS: n, TPS: float64(total) / n, TPSE: float64(tr) / n, Transactions: txns, Samples: samples}
	return &results.Run{Format: results.FormatVersion, Label: label, Steps: []results.Step{st}}
}

type hdrHist struct {
	h interface{ RecordValue(int64) error }
}

func estimateOf(t *testing.T, c *compare.Comparison, key string) compare.Estimate {
	t.Helper()
	m, ok := figures.LookupStepMetric(key)
	if !ok {
		m = figures.TxnMetric(key[:strings.LastIndexByte(key, '.')], key[strings.LastIndexByte(key, '.')+1:])
	}
	e, ok := c.Estimate(0, 1, m)
	if !ok {
		t.Fatalf("no estimate of %s", key)
	}
	return e
}

// TestOneRunASideGivesNoVerdict compares two runs of the same process, one run a
// side: every headline figure differs a little, its within-run interval holds
// zero, and none is judged, since a run's own interval says nothing of how far a
// second run lands.
func TestOneRunASideGivesNoVerdict(t *testing.T) {
	c, err := compare.Compare([]results.Input{{Path: "a.json", Run: sampledRun(t, 1, "A", 120, 20)}, {Path: "b.json", Run: sampledRun(t, 2, "B", 120, 20)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"tps", "tps_e", "avg", "p50", "p90", "p95", "p99", "trade-order.p95", "trade-result.avg"} {
		e := estimateOf(t, c, key)
		if e.Change == 0 {
			t.Errorf("%s: no change at all between two draws; the test proves nothing", key)
		}
		if e.Verdict != compare.VerdictNone || e.Reason != compare.OneRunReason {
			t.Errorf("%s: %+.1f %% [%+.1f, %+.1f] judged %q (%q), want no verdict for one run a side", key, e.Change, e.Lo, e.Hi, e.Verdict, e.Reason)
		}
		if !e.HasInterval() || e.Lo > 0 || e.Hi < 0 || !(e.Detectable > 0) {
			t.Errorf("%s: interval [%+.1f, %+.1f] detectable %.1f (%s), want one that holds zero", key, e.Lo, e.Hi, e.Detectable, e.Method)
		}
	}
}

// TestShiftedRunShowsIntervalNoVerdict compares a run against one with 25 % less
// throughput and 40 % slower responses, one run a side: the intervals lie on the
// worse side of zero and are shown, but the text gives no verdict and says why.
func TestShiftedRunShowsIntervalNoVerdict(t *testing.T) {
	c, err := compare.Compare([]results.Input{{Path: "a.json", Run: sampledRun(t, 1, "A", 120, 20)}, {Path: "b.json", Run: sampledRun(t, 2, "B", 90, 28)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"tps", "avg", "p50", "p95", "trade-order.p95"} {
		e := estimateOf(t, c, key)
		if e.Verdict != compare.VerdictNone {
			t.Errorf("%s: judged %q with one run a side", key, e.Verdict)
		}
		if !(e.Lo <= e.Change && e.Change <= e.Hi) || (e.Lo < 0) == (e.Hi > 0) {
			t.Errorf("%s: the interval [%+.1f, %+.1f] does not hold the change %+.1f away from zero", key, e.Lo, e.Hi, e.Change)
		}
	}
	var b strings.Builder
	if err := WriteComparisonText(c, &b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"95 % interval", "detectable", "no verdict", "covers only the noise within each run",
		"tps at 8 users: differences under ±"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, b.String())
		}
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasSuffix(line, " worse") || strings.HasSuffix(line, " better") {
			t.Errorf("one run a side judged a change: %q", line)
		}
	}
}

// TestRepeatsJudgedAcrossRuns gives each side three runs: the change of the means
// is judged against the runs' spread, and the table shows min / median / max.
func TestRepeatsJudgedAcrossRuns(t *testing.T) {
	side := func(label string, seed uint64, tps, scale float64) results.Input {
		in := results.Input{Path: label + "-r1.json", Run: sampledRun(t, seed, label, tps, scale)}
		for k := 2; k <= 3; k++ {
			in.Repeats = append(in.Repeats, results.Input{Path: label + "-r" + string(rune('0'+k)) + ".json", Run: sampledRun(t, seed+uint64(k)*10, label, tps, scale)})
		}
		return in
	}
	same, _ := compare.Compare([]results.Input{side("A", 1, 120, 20), side("B", 100, 120, 20)})
	shifted, _ := compare.Compare([]results.Input{side("A", 1, 120, 20), side("C", 200, 80, 30)})
	e := estimateOf(t, same, "tps")
	if e.Verdict != compare.VerdictNoise || !strings.HasPrefix(e.Method, "across repeats") {
		t.Errorf("same process, three runs each: %+.1f %% [%+.1f, %+.1f] %q by %s", e.Change, e.Lo, e.Hi, e.Verdict, e.Method)
	}
	for _, key := range []string{"tps", "p95"} {
		if e := estimateOf(t, shifted, key); e.Verdict != compare.VerdictWorse {
			t.Errorf("%s shifted, three runs each: %+.1f %% [%+.1f, %+.1f] %q", key, e.Change, e.Lo, e.Hi, e.Verdict)
		}
	}
	var b strings.Builder
	if err := WriteComparisonText(shifted, &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "min / median / max") || !strings.Contains(b.String(), "(3 repeats)") {
		t.Errorf("no spread shown:\n%s", b.String())
	}
}

// threeRuns is a side of three draws of one process.
func threeRuns(t *testing.T, label string, seed uint64, tps, scale float64) results.Input {
	in := results.Input{Path: label + "-r1.json", Run: sampledRun(t, seed, label, tps, scale)}
	for k := 2; k <= 3; k++ {
		in.Repeats = append(in.Repeats, results.Input{Path: fmt.Sprintf("%s-r%d.json", label, k), Run: sampledRun(t, seed+uint64(k)*10, label, tps, scale)})
	}
	return in
}

// TestGateNoiseAndShift: between two runs of one process whose tps happens to
// read more than 5 % lower, "tps<-5%" trips on noise, while "tps<-5% significant"
// and "tps worse" cannot judge one run a side and say so; against a real 25 % drop
// over three runs a side all three trip.
func TestGateNoiseAndShift(t *testing.T) {
	plain, _ := compare.ParseGate("tps<-5%")
	sig, _ := compare.ParseGate("tps<-5% significant")
	worse, _ := compare.ParseGate("tps worse")
	// Two draws of one process (fixed seeds) whose tps reads 6 % lower.
	noisy, _ := compare.Compare([]results.Input{{Path: "a.json", Run: sampledRun(t, 2, "A", 120, 20)}, {Path: "b.json", Run: sampledRun(t, 1, "B", 120, 20)}})
	if trips, _ := noisy.CheckGates([]compare.Gate{plain}); len(trips) == 0 {
		t.Fatal("the two draws do not read 5 % apart; the test proves nothing")
	}
	if trips, _ := noisy.CheckGates([]compare.Gate{sig, worse}); len(trips) > 0 {
		t.Errorf("a significance gate tripped on one run a side: %v", trips)
	}
	uj := noisy.Unjudged([]compare.Gate{plain, sig, worse})
	if len(uj) != 2 || !strings.Contains(uj[0].String(), `--fail-if "tps<-5% significant" cannot judge tps: `+compare.OneRunReason) {
		t.Errorf("unjudged gates: %v, want the two that read the verdict, with the reason", uj)
	}
	shifted, _ := compare.Compare([]results.Input{threeRuns(t, "A", 1, 120, 20), threeRuns(t, "B", 2, 90, 20)})
	trips, err := shifted.CheckGates([]compare.Gate{plain, sig, worse})
	if err != nil || len(trips) != 3 {
		t.Fatalf("a real 25 %% drop tripped %d of 3 gates: %v %v", len(trips), trips, err)
	}
	if !strings.Contains(trips[1].String(), "95 % interval") {
		t.Errorf("trip message %q does not show the interval", trips[1])
	}
	if uj := shifted.Unjudged([]compare.Gate{sig, worse}); len(uj) > 0 {
		t.Errorf("three runs a side left gates unjudged: %v", uj)
	}
}

func TestParseSignificanceGates(t *testing.T) {
	for expr, want := range map[string]string{
		"tps<-10% significant": "tps < -10 % significant",
		"p95 > +20% sig":       "p95 > +20 % significant",
		"tps worse":            "tps worse",
		"reads_per_txn higher": "reads_per_txn higher",
	} {
		g, err := compare.ParseGate(expr)
		if err != nil || g.String() != want {
			t.Errorf("ParseGate(%q) = %q, %v; want %q", expr, g.String(), err, want)
		}
	}
	for expr, want := range map[string]string{
		"tps<100 significant":        "needs a change in %",
		"max_tps_e<-10% significant": "needs a change in %",
		"tps higher":                 "takes worse or better",
		"reads_per_txn worse":        "takes higher or lower",
		"tpz worse":                  "verdict gate takes a step figure",
	} {
		if _, err := compare.ParseGate(expr); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseGate(%q) = %v, want an error with %q", expr, err, want)
		}
	}
}

// TestChangeFromNearZero shows a change from (almost) nothing as the two values.
func TestChangeFromNearZero(t *testing.T) {
	m, _ := figures.LookupStepMetric("errors")
	if got := figures.FormatChangeOf(m, 0, 3); got != "0 → 3" {
		t.Errorf("from zero: %q", got)
	}
	ms, _ := figures.LookupStepMetric("read_await")
	if got := figures.FormatChangeOf(ms, 0.001, 3.667); got != "0.001 ms → 3.667 ms" {
		t.Errorf("from near zero: %q", got)
	}
	if got := figures.FormatChangeOf(ms, 2, 3); got != "+50.0 %" {
		t.Errorf("ordinary change: %q", got)
	}
}

// TestWithinRunIntervalAboveMinus100: a noisy run against one with a tenth of its
// throughput. The difference's interval divided by the base would reach below
// -100 %, a change no figure can make; the ratio's interval stays above it, holds
// the change and lies below zero (one run a side: still no verdict).
func TestWithinRunIntervalAboveMinus100(t *testing.T) {
	noisy := sampledRun(t, 3, "A", 40, 20)
	for i, x := range noisy.Steps[0].Samples.TPS {
		if i%2 == 0 {
			noisy.Steps[0].Samples.TPS[i] = x * 3
		} else {
			noisy.Steps[0].Samples.TPS[i] = 0
		}
	}
	c, err := compare.Compare([]results.Input{{Path: "a.json", Run: noisy}, {Path: "b.json", Run: sampledRun(t, 4, "B", 4, 20)}})
	if err != nil {
		t.Fatal(err)
	}
	e := estimateOf(t, c, "tps")
	if e.Lo <= -100 || !(e.Lo <= e.Change && e.Change <= e.Hi) || e.Hi >= 0 || e.Verdict != compare.VerdictNone {
		t.Errorf("tps %+.1f %% [%+.1f, %+.1f] %q (%s): want a change below zero inside an interval above -100 %%, unjudged", e.Change, e.Lo, e.Hi, e.Verdict, e.Method)
	}
}

// TestRepeatsIntervalAboveMinus100: retries counted 5, 6 and 7 against 0, 1 and 2
// over three repeats: the interval of a count with zeros is made on differences,
// and no part of it below -100 % (fewer than no retries) is shown. (0, 1 and 1
// against 0, 0 and 1 would be a base within the noise of the difference, shown as
// values: TestZerosInRepeatsNearZeroBase.)
func TestRepeatsIntervalAboveMinus100(t *testing.T) {
	side := func(label string, retries ...int64) results.Input {
		var in results.Input
		for k, n := range retries {
			r := sampledRun(t, uint64(k+1), label, 120, 20)
			tx := r.Steps[0].Transactions["Trade-Order"]
			tx.Retries = n
			r.Steps[0].Transactions["Trade-Order"] = tx
			rep := results.Input{Path: fmt.Sprintf("%s-r%d.json", label, k+1), Run: r}
			if k == 0 {
				in = rep
			} else {
				in.Repeats = append(in.Repeats, rep)
			}
		}
		return in
	}
	c, err := compare.Compare([]results.Input{side("A", 5, 6, 7), side("B", 0, 1, 2)})
	if err != nil {
		t.Fatal(err)
	}
	e := estimateOf(t, c, "retries")
	if !e.HasInterval() || e.Lo != -100 || !(e.Lo <= e.Change && e.Change <= e.Hi) || e.NearZero {
		t.Errorf("retries %+.1f %% [%+.1f, %+.1f] (%s): want an interval holding the change and none of it below -100 %%", e.Change, e.Lo, e.Hi, e.Method)
	}
}

// A bar never reaches below zero: a bursty step's tps interval would, and the chart
// then drew throughput below nothing.
func TestOwnIntervalStopsAtZero(t *testing.T) {
	tps := make([]float64, 20)
	tps[0] = 1000 // one burst in a stalled step
	st := &results.Step{Samples: &results.StepSamples{TPS: tps}}
	mean, _ := stats.MeanSD(tps)
	lo, hi, ok := compare.OwnInterval(st, metricByKey("tps"), mean)
	if !ok || lo != 0 || hi <= mean {
		t.Errorf("interval of a bursty step's tps (mean %.0f): %g … %g (%v), want 0 … above the mean", mean, lo, hi, ok)
	}
}
