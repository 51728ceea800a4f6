package report

import (
	"bytes"
	"encoding/csv"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
)

// TestTooFewRepeatsGiveNoVerdict: two runs a side show an interval across them
// but no verdict, and say a verdict needs three; one run against three has no
// spread on one side and so no interval at all (borrowing the other side's
// would claim a noise nobody measured).
func TestTooFewRepeatsGiveNoVerdict(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 39))
	two, _ := compare.Compare([]results.Input{simSide(rng, "A", 2, 1000, 0.05), simSide(rng, "B", 2, 500, 0.05)})
	e := estimateOf(t, two, "tps")
	if e.Verdict != compare.VerdictNone || e.Reason != "2 repeats a side; a verdict needs 3" || !e.HasInterval() || e.Lo <= -100 {
		t.Errorf("2 vs 2: %q (%q) [%+.1f, %+.1f], want no verdict with an interval above -100 %%", e.Verdict, e.Reason, e.Lo, e.Hi)
	}
	uneven, _ := compare.Compare([]results.Input{simSide(rng, "A", 1, 1000, 0.05), simSide(rng, "B", 3, 500, 0.05)})
	e = estimateOf(t, uneven, "tps")
	if e.Verdict != compare.VerdictNone || e.Reason != "1 vs 3 repeats; a verdict needs 3 a side" || e.HasInterval() {
		t.Errorf("1 vs 3: %q (%q) [%+.1f, %+.1f], want no verdict and no interval", e.Verdict, e.Reason, e.Lo, e.Hi)
	}
	three, _ := compare.Compare([]results.Input{simSide(rng, "A", 3, 1000, 0.05), simSide(rng, "B", 3, 500, 0.05)})
	if e := estimateOf(t, three, "tps"); e.Verdict != compare.VerdictWorse || e.Reason != "" {
		t.Errorf("3 vs 3 at half the tps: %q (%q), want worse", e.Verdict, e.Reason)
	}
	var b strings.Builder
	if err := WriteComparisonText(two, &b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"note: tps has no verdict: 2 repeats a side; a verdict needs 3",
		"tps at 8 users: differences under ±", "cannot be told from noise with 2 repeats of 60 s a side"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, b.String())
		}
	}
}

// withIOPS gives every run of a side the read IOPS xs (one per run).
func withIOPS(in results.Input, xs ...float64) results.Input {
	for k, rep := range in.All() {
		rep.Run.Steps[0].IO = &results.StepIO{Source: "diskstats", IOFigures: results.IOFigures{ReadIOPS: xs[k]}}
	}
	return in
}

// TestNearZeroBaseShownAsValues: read IOPS of 0.4 against 51 (the base under 1 %
// of the other side) and of 2 against 3 when the base's runs spread from 0 to 5
// (below its own noise) are shown as the two values, with no percentage interval
// and no verdict, in the table and the JSON; a tenfold change of two measured
// Figures is still judged.
func TestNearZeroBaseShownAsValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 39))
	far, _ := compare.Compare([]results.Input{withIOPS(simSide(rng, "A", 3, 1000, 0.05), 0.3, 0.4, 0.5), withIOPS(simSide(rng, "B", 3, 1000, 0.05), 50, 51, 52)})
	noisy, _ := compare.Compare([]results.Input{withIOPS(simSide(rng, "A", 3, 1000, 0.05), 0, 1, 5), withIOPS(simSide(rng, "B", 3, 1000, 0.05), 3, 3, 3)})
	for name, c := range map[string]*compare.Comparison{"far": far, "noisy": noisy} {
		e := estimateOf(t, c, "read_iops")
		if !e.NearZero || e.HasInterval() || e.Verdict != compare.VerdictNone || !strings.Contains(e.Reason, "compare the values") {
			t.Errorf("%s: near zero %v, [%+.1f, %+.1f] %q (%q), want the values and no verdict", name, e.NearZero, e.Lo, e.Hi, e.Verdict, e.Reason)
		}
	}
	tenfold, _ := compare.Compare([]results.Input{withIOPS(simSide(rng, "A", 3, 1000, 0.05), 95, 100, 105), withIOPS(simSide(rng, "B", 3, 1000, 0.05), 1150, 1200, 1250)})
	if e := estimateOf(t, tenfold, "read_iops"); e.NearZero || !e.Verdict.Significant() {
		t.Errorf("100 → 1200 IOPS: near zero %v, %q (%q), want judged", e.NearZero, e.Verdict, e.Reason)
	}
	var b strings.Builder
	if err := WriteComparisonText(far, &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "0.4 → 51.0") || strings.Contains(b.String(), "+12650") {
		t.Errorf("the table does not show the near-zero change as values:\n%s", b.String())
	}
	for _, f := range jsonFigures(t, far) {
		switch f["figure"] {
		case "read_iops":
			if f["change_lo"] != nil || f["detectable_pct"] != nil || f["verdict"] != "no verdict" || !strings.Contains(f["reason"].(string), "near zero") {
				t.Errorf("JSON read_iops: %v", f)
			}
		case "tps":
			if d, ok := f["detectable_pct"].(float64); !ok || d <= 0 || f["reason"] != nil {
				t.Errorf("JSON tps has no detectable difference or a reason: %v", f)
			}
		}
	}
}

// TestCompareCSVDetectableAndReason: the appended columns carry each figure's
// Detectable difference and why it has no verdict.
func TestCompareCSVDetectableAndReason(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 39))
	c, _ := compare.Compare([]results.Input{simSide(rng, "A", 1, 1000, 0.05), simSide(rng, "B", 1, 900, 0.05)})
	var buf bytes.Buffer
	if err := WriteComparisonCSV(c, &buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, n := range rows[0] {
		col[n] = i
	}
	h := CompareCSVHeader()
	if h[len(h)-2] != "reads_per_txn_detectable_pct" || h[len(h)-1] != "reads_per_txn_verdict_reason" || col["tps_detectable_pct"] != len(CSVHeader())+4*len(IntervalKeys) {
		t.Fatalf("columns not appended after the change columns: %v", h[len(CSVHeader()):])
	}
	row := rows[2]
	if row[col["tps_verdict"]] != "no verdict" || row[col["tps_verdict_reason"]] != compare.OneRunReason || row[col["tps_detectable_pct"]] == "" {
		t.Errorf("tps: verdict %q, reason %q, detectable %q", row[col["tps_verdict"]], row[col["tps_verdict_reason"]], row[col["tps_detectable_pct"]])
	}
}

// TestRepeatsReportIntervalStaysPositive: report of two runs gave tps
// "-369.8 … 858.4" (Student's t at one degree of freedom on the values); it now
// asks for three runs, and three runs far apart give an interval above zero.
func TestRepeatsReportIntervalStaysPositive(t *testing.T) {
	side := func(tps ...float64) results.Input {
		var in results.Input
		for k, x := range tps {
			r := &results.Run{Format: results.FormatVersion, Label: "A", Steps: []results.Step{{Users: 8, MeasuredS: 60, TPS: x}}}
			if k == 0 {
				in = results.Input{Path: "a.json", Run: r}
			} else {
				in.Repeats = append(in.Repeats, results.Input{Path: "a.json", Run: r})
			}
		}
		return in
	}
	var b strings.Builder
	if err := WriteRepeatsReport(&b, side(100, 400)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "needs 3 runs") {
		t.Errorf("two runs gave an interval:\n%s", b.String())
	}
	lo, hi := repeatsMeanInterval([]float64{100, 400, 900})
	if !(lo > 0 && lo < 100 && hi > 900) {
		t.Errorf("interval of 100, 400, 900: %g … %g, want above zero and around the runs", lo, hi)
	}
	if lo, _ := repeatsMeanInterval([]float64{0, 1, 5}); lo != 0 {
		t.Errorf("a count with a zero: lower end %g, want cut at 0", lo)
	}
}

// TestDetectable is the half-width on the ratio's log scale: the same for a
// symmetric interval around no change and for the same ratio interval around
// +50 %.
func TestDetectable(t *testing.T) {
	around0 := compare.Detectable(math.Expm1(-0.1)*100, math.Expm1(0.1)*100)
	around50 := compare.Detectable((1.5*math.Exp(-0.1)-1)*100, (1.5*math.Exp(0.1)-1)*100)
	if math.Abs(around0-around50) > 1e-9 || math.Abs(around0-math.Expm1(0.1)*100) > 1e-9 {
		t.Errorf("detectable: %g at no change, %g at +50 %%, want both %g", around0, around50, math.Expm1(0.1)*100)
	}
	if d := compare.Detectable(-100, 40); d != 70 {
		t.Errorf("an interval cut at -100 %%: %g, want its plain half-width 70", d)
	}
}

// TestCompareHTMLSaysGateCannotJudge: the HTML page does not call gates passed
// when one could not judge, and names it.
func TestCompareHTMLSaysGateCannotJudge(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 39))
	c, _ := compare.Compare([]results.Input{simSide(rng, "A", 1, 1000, 0.05), simSide(rng, "B", 1, 800, 0.05)})
	gates, _ := compare.ParseGates([]string{"tps<-10% significant"})
	var buf bytes.Buffer
	if err := WriteComparisonHTML(c, &buf, CompareHTMLOptions{Gates: gates}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if strings.Contains(page, "Gates passed") || !strings.Contains(page, "Gate cannot judge: run B at 8 users") ||
		!strings.Contains(page, "detectable") || !strings.Contains(page, "covers only the noise within each run") {
		t.Errorf("the page does not say the gate could not judge, or lacks the detectable column and the one-run note")
	}
}
