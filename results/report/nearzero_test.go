package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
)

// withIdle gives every run of a side the host CPU idle xs (percent, one per run).
func withIdle(in results.Input, xs ...float64) results.Input {
	for k, rep := range in.All() {
		rep.Run.Steps[0].Host = &results.StepHost{Source: results.HostSourceProcfs, HostFigures: results.HostFigures{Cores: 2, UserPct: 90 - xs[k], SystemPct: 10, IdlePct: xs[k]}}
	}
	return in
}

// TestZerosInRepeatsNearZeroBase: host CPU idle whose repeats hold a zero has its
// interval made on differences. When the noise of that difference is larger than
// the base (0.7 % against 0, 0.2 and 4.0 %: ±5.5 %), the base is near zero: the
// change is the two values, with no interval, no detectable difference and no
// verdict, and every output says so; the same holds the other way round (1.4 →
// 0.7 %), where the base's own spread already catches it. A figure with zeros
// whose difference stands well clear of its noise keeps its interval and verdict.
func TestZerosInRepeatsNearZeroBase(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 39))
	steady := func(label string, xs ...float64) results.Input {
		return withIdle(simSide(rng, label, 3, 1000, 0.05), xs...)
	}
	up, _ := compare.Compare([]results.Input{steady("A", 0.7, 0.5, 0.9), steady("B", 0, 0.2, 4.0)})
	down, _ := compare.Compare([]results.Input{steady("A", 0, 0.2, 4.0), steady("B", 0.7, 0.5, 0.9)})
	clear, _ := compare.Compare([]results.Input{steady("A", 10, 12, 11), steady("B", 0, 0.5, 1)})

	e := estimateOf(t, up, "cpu_idle_pct")
	if !e.NearZero || e.HasInterval() || !math.IsNaN(e.Detectable) || e.Verdict != compare.VerdictNone ||
		!strings.Contains(e.Reason, "the base (0.7 %) is within the noise of the difference (±5.5 %)") {
		t.Errorf("0.7 → 1.4 %%: near zero %v, [%+.1f, %+.1f] ±%.1f %q (%q), want the values and no verdict", e.NearZero, e.Lo, e.Hi, e.Detectable, e.Verdict, e.Reason)
	}
	if e := estimateOf(t, down, "cpu_idle_pct"); !e.NearZero || e.HasInterval() || e.Verdict != compare.VerdictNone {
		t.Errorf("1.4 → 0.7 %%: near zero %v, [%+.1f, %+.1f] %q (%q), want the values and no verdict", e.NearZero, e.Lo, e.Hi, e.Verdict, e.Reason)
	}
	if e := estimateOf(t, clear, "cpu_idle_pct"); e.NearZero || !e.HasInterval() || e.Verdict != compare.VerdictLower || e.Lo < -100 || math.IsNaN(e.Detectable) {
		t.Errorf("11 → 0.5 %%: near zero %v, [%+.1f, %+.1f] ±%.1f %q (%q), want an interval above -100 %% and lower", e.NearZero, e.Lo, e.Hi, e.Detectable, e.Verdict, e.Reason)
	}

	var text, html bytes.Buffer
	if err := WriteComparisonText(up, &text); err != nil {
		t.Fatal(err)
	}
	if err := WriteComparisonHTML(up, &html, CompareHTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	// The HTML spaces its units with a no-break space.
	for name, row := range map[string]string{"text": lineWith(text.String(), "host CPU idle"), "HTML": strings.ReplaceAll(lineWith(html.String(), "host CPU idle"), "\u00a0", " ")} {
		if !strings.Contains(row, "0.7 % → 1.4 %") || strings.Contains(row, "±") || strings.Contains(row, "…") || !strings.Contains(row, "no verdict") {
			t.Errorf("%s row %q: want the two values, no interval, no verdict", name, row)
		}
	}

	found := false
	for _, f := range jsonFigures(t, up) {
		if f["figure"] == "cpu_idle_pct" {
			found = true
			if f["change_lo"] != nil || f["detectable_pct"] != nil || f["verdict"] != "no verdict" || !strings.Contains(f["reason"].(string), "noise of the difference") {
				t.Errorf("JSON cpu_idle_pct: %v", f)
			}
		}
	}
	if !found {
		t.Error("JSON has no cpu_idle_pct figure")
	}
}

// TestZerosInRepeatsNearZeroCSV: read IOPS of 2, 3 and 4 against 0, 1 and 14 (a
// zero among the repeats, the difference's noise ±19 against a base of 3) is
// written to the compare CSV with no interval, no detectable difference, no
// verdict and the reason.
func TestZerosInRepeatsNearZeroCSV(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 39))
	a, b := withIOPS(simSide(rng, "A", 3, 1000, 0.05), 2, 3, 4), withIOPS(simSide(rng, "B", 3, 1000, 0.05), 0, 1, 14)
	c, _ := compare.Compare([]results.Input{a, b})
	var buf bytes.Buffer
	if err := WriteComparisonCSV(c, &buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) string { return rows[len(rows)-1][slices.Index(rows[0], name)] }
	for name, want := range map[string]string{"read_iops_change_lo": "", "read_iops_change_hi": "", "read_iops_verdict": "no verdict", "read_iops_detectable_pct": ""} {
		if got := col(name); got != want {
			t.Errorf("CSV %s = %q, want %q", name, got, want)
		}
	}
	if got := col("read_iops_verdict_reason"); !strings.Contains(got, "the base (3.0) is within the noise of the difference") {
		t.Errorf("CSV read_iops_verdict_reason = %q", got)
	}
}

// lineWith is the first line of s that holds sub, "" when none does.
func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

// jsonFigures are the compared figures of the first matched step in compare's JSON.
func jsonFigures(t *testing.T, c *compare.Comparison) []map[string]any {
	t.Helper()
	var js bytes.Buffer
	if err := WriteComparisonJSON(c, &js); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Steps []struct {
			Figures []map[string]any `json:"figures"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Steps[0].Figures
}

// withAvgMS gives every run of a side one transaction type whose average response
// time is xs (ms, one per run).
func withAvgMS(in results.Input, xs ...float64) results.Input {
	for k, rep := range in.All() {
		rep.Run.Steps[0].Transactions = map[string]results.TxnStats{"Trade-Order": {Count: 1000, Share: 1, AvgMS: xs[k]}}
	}
	return in
}

// TestResponseTimeFarApartJudged: a response time is never near zero, so one that
// rose 540-fold across repeats (15 ms → 8.2 s, a side capped at 30 IOPS) keeps its
// interval on the ratio and reads "worse", where a count whose base is under 1 % of
// the other side (0.4 → 51 IOPS) is still shown as the two values alone.
func TestResponseTimeFarApartJudged(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 40))
	side := func(label string, xs ...float64) results.Input {
		return withAvgMS(simSide(rng, label, 3, 1000, 0.05), xs...)
	}
	c, _ := compare.Compare([]results.Input{side("A", 15.2, 15.6, 14.9), side("B", 8221, 8310, 8102)})
	e := estimateOf(t, c, "avg")
	if e.NearZero || !e.HasInterval() || e.Verdict != compare.VerdictWorse || e.Lo <= 0 {
		t.Errorf("15 ms → 8.2 s: near zero %v, [%+.1f, %+.1f] %q (%q), want an interval above zero and worse", e.NearZero, e.Lo, e.Hi, e.Verdict, e.Reason)
	}
}
