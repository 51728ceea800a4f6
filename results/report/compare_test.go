package report

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/results/stats"
)

func TestChange(t *testing.T) {
	cases := []struct{ base, v, want float64 }{
		{100, 138, 38}, {100, 67, -33}, {0, 0, 0}, {0, 5, math.Inf(1)}, {-10, -5, 50}, {73, 119, 63.013698630136986},
	}
	for _, c := range cases {
		if got := stats.Change(c.base, c.v); math.Abs(got-c.want) > 1e-9 && got != c.want {
			t.Errorf("Change(%v, %v) = %v, want %v", c.base, c.v, got, c.want)
		}
	}
	if got := figures.FormatChange(-0.04, 1); got != "+0.0 %" {
		t.Errorf("formatChange(-0.04) = %q", got)
	}
	if got := figures.FormatChange(math.Inf(1), 1); got != "+∞ %" {
		t.Errorf("formatChange(+Inf) = %q", got)
	}
}

func TestCompareMatching(t *testing.T) {
	a := runfixture.SampleRun("A", []int{50, 100, 150}, 1, 1, 1)
	b := runfixture.SampleRun("B", []int{100, 150, 200}, 1, 1, 2)
	c3 := runfixture.SampleRun("", []int{50, 100, 100}, 1, 1, 3)
	c, err := compare.Compare([]results.Input{{Path: "a.json", Run: a}, {Path: "b.json", Run: b}, {Path: "dir/c.json", Run: c3}})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Users; len(got) != 3 || got[0] != 50 || got[1] != 100 || got[2] != 150 {
		t.Fatalf("matched users %v", got)
	}
	if c.Views[0][1] != nil || c.Views[0][2] == nil {
		t.Fatal("50 users: B must be missing, c present")
	}
	var um []string
	for _, u := range c.Unmatched {
		um = append(um, fmt.Sprintf("%s@%d", c.Inputs[u.Run].Name(), u.Users))
	}
	if strings.Join(um, " ") != "B@200 c.json@100" {
		t.Fatalf("unmatched %v", um)
	}
	if _, err := compare.Compare([]results.Input{{Path: "a.json", Run: a}}); err == nil {
		t.Fatal("one input compared")
	}
}

// TestCompareArithmetic uses the reference paper's figures: at 300 users 73 vs 119
// tps, 6,659 vs 14,829 IOPS, 0.63 vs 0.41 ms.
func TestCompareArithmetic(t *testing.T) {
	mk := func(label string, tps, iops, avgMS float64) *results.Run {
		return &results.Run{Format: 1, Label: label, Steps: []results.Step{{Users: 300, TPS: tps,
			Transactions: map[string]results.TxnStats{"Trade-Order": {Count: 1000, AvgMS: avgMS}},
			IO:           &results.StepIO{Source: "diskstats", IOFigures: results.IOFigures{ReadIOPS: iops / 3, WriteIOPS: iops * 2 / 3}}}}}
	}
	c, err := compare.Compare([]results.Input{{Path: "h800.json", Run: mk("H800", 73, 6659, 0.63)}, {Path: "h810.json", Run: mk("H810", 119, 14829, 0.41)}})
	if err != nil {
		t.Fatal(err)
	}
	want := "at 300 users: tps +63 % (no verdict), IOPS +123 % (no verdict), average response time -35 % (no verdict)"
	if got := c.Headline(1); got != want {
		t.Fatalf("headline %q, want %q", got, want)
	}
	var buf bytes.Buffer
	if err := WriteComparisonText(c, &buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, s := range []string{"H810 vs H800 at 300 users", "300 users", "+63.0 %", "0.630 ms", "0.410 ms", "-34.9 %"} {
		if !strings.Contains(out, s) {
			t.Errorf("text lacks %q:\n%s", s, out)
		}
	}
	// No histograms: percentiles are unknown, so no p95 row is printed.
	if strings.Contains(out, "p95 response") {
		t.Errorf("p95 row printed without histograms:\n%s", out)
	}
}

// TestCompareTellsSameLabelsApart: two runs labelled alike (two quickstarts) are
// named by their place in the headline, the tables and the legends; a label seen
// once keeps its name.
func TestCompareTellsSameLabelsApart(t *testing.T) {
	a := runfixture.SampleRun("quickstart", []int{50, 100}, 1, 1, 1)
	b := runfixture.SampleRun("quickstart", []int{50, 100}, 1.2, 1, 2)
	d := runfixture.SampleRun("other", []int{50, 100}, 1, 1, 3)
	c, err := compare.Compare([]results.Input{{Path: "a.json", Run: a}, {Path: "b.json", Run: b}, {Path: "d.json", Run: d}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, in := range c.Inputs {
		names = append(names, in.Name())
	}
	if got := strings.Join(names, ", "); got != "quickstart [1], quickstart [2], other" {
		t.Fatalf("names %s", got)
	}
	var out strings.Builder
	if err := WriteComparisonText(c, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "quickstart [2] vs quickstart [1]") {
		t.Errorf("the headline does not tell the runs apart:\n%s", out.String())
	}
	if rows := runsTable(flatten(c.Inputs)).Rows; rows[0][0].Text != "quickstart [1]" || rows[1][0].Text != "quickstart [2]" {
		t.Errorf("the HTML runs table names them %q and %q", rows[0][0].Text, rows[1][0].Text)
	}
}
