package report

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
)

func maxRuns(a, b float64) []results.Input {
	ra := runfixture.SampleRun("A", []int{50}, 1, 1, 1)
	rb := runfixture.SampleRun("B", []int{50}, 1, 1, 2)
	ra.Max = &results.Max{Dimension: "rate", Load: 1200, Users: 50, TPSE: a, Step: 0, Resolution: 0.05, Stopped: "resolved"}
	rb.Max = &results.Max{Dimension: "rate", Load: 700, Users: 50, TPSE: b, Step: 0, Resolution: 0.05, Stopped: "resolved"}
	return []results.Input{{Path: "a.json", Run: ra}, {Path: "b.json", Run: rb}}
}

func TestMaxHeadline(t *testing.T) {
	c, err := compare.Compare(maxRuns(73, 119))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.MaxHeadline(1), "max tpsE within limits: B 119, A 73 (+63 %)"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	var b bytes.Buffer
	if err := WriteComparisonText(c, &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "max tpsE within limits: B 119, A 73 (+63 %)") || strings.Contains(b.String(), "B vs A at 50 users") {
		t.Errorf("the max headline must replace the per-step one:\n%s", b.String())
	}
	if !strings.Contains(b.String(), "At the maximum within limits") || !strings.Contains(b.String(), "offered rate") {
		t.Errorf("no table of the two maxima:\n%s", b.String())
	}
	// Without max in both runs: the per-step headline.
	in := maxRuns(73, 119)
	in[0].Run.Max = nil
	c, _ = compare.Compare(in)
	if c.MaxHeadline(1) != "" || c.Headline(1) == "" {
		t.Error("one run without max must fall back to the step headline")
	}
}

func TestMaxTPSEGate(t *testing.T) {
	for _, tc := range []struct {
		expr      string
		base, run float64
		trips     bool
	}{
		{"max_tps_e<-10%", 119, 73, true},
		{"max_tps_e<-10%", 119, 110, false},
		{"max_tpse<-10%", 100, 89, true},
		{"max_tps_e<80", 119, 73, true},
		{"max_tps_e<50", 119, 73, false},
	} {
		g, err := compare.ParseGate(tc.expr)
		if err != nil {
			t.Fatalf("%s: %v", tc.expr, err)
		}
		c, _ := compare.Compare(maxRuns(tc.base, tc.run))
		trips, err := c.CheckGates([]compare.Gate{g})
		if err != nil {
			t.Fatal(err)
		}
		if (len(trips) > 0) != tc.trips {
			t.Errorf("%s with %v → %v: trips %v", tc.expr, tc.base, tc.run, trips)
		}
		if len(trips) == 1 && !strings.HasPrefix(trips[0].String(), "run B: max_tps_e ") {
			t.Errorf("trip reads %q", trips[0])
		}
		if len(c.Unevaluated([]compare.Gate{g})) != 0 {
			t.Errorf("%s was checked", tc.expr)
		}
	}
	g, _ := compare.ParseGate("max_tps_e<-10%")
	c, _ := compare.Compare([]results.Input{{Path: "a.json", Run: runfixture.SampleRun("A", []int{50}, 1, 1, 1)}, {Path: "b.json", Run: runfixture.SampleRun("B", []int{50}, 1, 1, 2)}})
	if trips, _ := c.CheckGates([]compare.Gate{g}); len(trips) != 0 {
		t.Error("runs without max must not trip")
	}
	if len(c.Unevaluated([]compare.Gate{g})) != 1 {
		t.Error("a max gate on runs without max must be reported unevaluated")
	}
}

func TestMaxSummary(t *testing.T) {
	m := &results.Max{Dimension: "rate", Load: 400, Users: 50, TPS: 401.2, TPSE: 41.3, Step: 3, NextLoad: 420, LimitedBy: "Trade-Status", Stopped: "resolved"}
	if got, want := MaxSummary(m), "max within limits: 400 tps offered (401.2 tps, 41.30 tpsE) at 50 users; 420 failed on Trade-Status"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	m.Stopped = "driver-bottleneck"
	if !strings.Contains(MaxSummary(m), "not resolved") {
		t.Error(MaxSummary(m))
	}
	none := &results.Max{Step: -1, NextLoad: 10, NextWhy: "errors 5.0 %", Stopped: "none-passed"}
	if !strings.HasPrefix(MaxSummary(none), "no probe passed") {
		t.Error(MaxSummary(none))
	}
}

// TestReportHTMLMarks checks the chart of a ramp ticked at its user counts and
// the limit and maximum marked.
func TestReportHTMLMarks(t *testing.T) {
	r := runfixture.SampleRun("A", []int{2, 4, 8, 16}, 1, 1, 1)
	r.Limits = runfixture.Workload().DefaultLimits().Record()
	var b bytes.Buffer
	if err := WriteReportHTML(&b, results.Input{Path: "a.json", Run: r}, runfixture.Workload()); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	first := html[strings.Index(html, "<svg"):]
	first = first[:strings.Index(first, "</svg>")]
	for _, want := range []string{">2<", ">4<", ">8<", ">16<"} {
		if !strings.Contains(first, want) {
			t.Errorf("the users axis lacks the tick %q", want)
		}
	}
	for _, bad := range []string{">3<", ">9<", ".00<"} {
		if strings.Contains(first, bad) {
			t.Errorf("the throughput chart has %q", bad)
		}
	}
	for _, want := range []string{">16<", "best within limits", "% of limit", ">limit<"} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	for _, bad := range []string{"<script", "href=", "src=", "@import", "url("} {
		if strings.Contains(html, bad) {
			t.Errorf("HTML has %q", bad)
		}
	}
}

// TestUnresolvedMaxSaidEverywhere: a --find-max that ran out of probes says so in
// the report's step table and above it, in the compare headline, and the
// max_tps_e gate refuses to judge it unless asked for the lower bound.
func TestUnresolvedMaxSaidEverywhere(t *testing.T) {
	in := maxRuns(73, 119)
	in[1].Run.Max.Stopped = "max-steps"
	var b bytes.Buffer
	if err := WriteReport(&b, in[1]); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"(max-steps, not resolved to the resolution)", "X: the --find-max maximum (50 users at 700 tps offered) is not resolved (max-steps)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	if err := WriteReport(&b, in[0]); err != nil || strings.Contains(b.String()[strings.Index(b.String(), "a.json"):], "X:") {
		t.Errorf("a resolved maximum marked unresolved (%v)", err)
	}
	c, _ := compare.Compare(in)
	if h := c.MaxHeadline(1); !strings.Contains(h, "UNRESOLVED: B stopped at max-steps") {
		t.Errorf("headline %q", h)
	}
	g, _ := compare.ParseGate("max_tps_e<-10%")
	var ue *compare.UnresolvedMaxError
	if _, err := c.CheckGates([]compare.Gate{g}); !errors.As(err, &ue) || ue.Run != "B" {
		t.Errorf("gate on an unresolved maximum: err %v, want UnresolvedMaxError for B", err)
	}
	lb, err := compare.ParseGate("max_tps_e_lower_bound<-10%")
	if err != nil {
		t.Fatal(err)
	}
	if trips, err := c.CheckGates([]compare.Gate{lb}); err != nil || len(trips) != 0 {
		t.Errorf("lower-bound gate: trips %v err %v, want it judged (B 119 vs A 73 passes)", trips, err)
	}
	in[1].Run.Max.Stopped, in[0].Run.Max.Stopped = "resolved", "ceiling"
	c, _ = compare.Compare(in)
	if _, err := c.CheckGates([]compare.Gate{g}); !errors.As(err, &ue) || ue.Run != "A" {
		t.Errorf("a relative gate reads the base's maximum too: err %v", err)
	}
	abs, _ := compare.ParseGate("max_tps_e<80")
	if _, err := c.CheckGates([]compare.Gate{abs}); err != nil {
		t.Errorf("an absolute gate does not read the base: %v", err)
	}
}
