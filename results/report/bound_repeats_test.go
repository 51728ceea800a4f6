package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
)

// boundStep is a step at 8 users whose host figures give the bottleneck b: cpu
// (CPUs saturated), io (waiting on a saturated disk), none (half idle), driver
// (the load driver could not keep up, the host half idle) or "" (no host figures).
func boundStep(b string) results.Step {
	st := results.Step{Users: 8, TPS: 500, IO: &results.StepIO{Source: "diskstats", Devices: []results.DeviceIO{{Name: "sdb", IOFigures: results.IOFigures{UtilPercent: 50}}}}}
	h := results.HostFigures{Cores: 8, UserPct: 60, SystemPct: 10, IOWaitPct: 2, IdlePct: 28}
	switch b {
	case figures.BottleneckCPU:
		h = results.HostFigures{Cores: 8, UserPct: 70, SystemPct: 26, IOWaitPct: 1, IdlePct: 3}
	case figures.BottleneckIO:
		h = results.HostFigures{Cores: 8, UserPct: 30, SystemPct: 10, IOWaitPct: 25, IdlePct: 35}
		st.IO.Devices[0].UtilPercent = 96
	}
	st.Host = &results.StepHost{Source: results.HostSourceProcfs, HostFigures: h}
	st.Driver.Bottleneck = b == figures.BottleneckDriver
	if b == "" {
		st.Host = &results.StepHost{Source: results.HostSourceNone, Note: "remote"}
	}
	return st
}

// boundSide is one side of a comparison, a repeat per bottleneck given.
func boundSide(label string, bs ...string) results.Input {
	var in results.Input
	for k, b := range bs {
		rep := results.Input{Path: fmt.Sprintf("%s-r%d.json", label, k+1), Run: &results.Run{Format: results.FormatVersion, Label: label, Steps: []results.Step{boundStep(b)}}}
		if k == 0 {
			in = rep
		} else {
			in.Repeats = append(in.Repeats, rep)
		}
	}
	return in
}

// TestBoundWarningsJudgeEveryRepeat: each side's bottleneck is the one more than
// Half its repeats agree on, not its first repeat's. Sides that agree, even with
// one odd repeat (which the first-repeat rule would have read as a difference),
// give no warning; sides whose majorities differ are named with their counts; a
// side with no majority is warned of on its own; repeats without host figures are
// not counted; one run a side reads as before.
func TestBoundWarningsJudgeEveryRepeat(t *testing.T) {
	const cpu, io, none = figures.BottleneckCPU, figures.BottleneckIO, figures.BottleneckNone
	for _, c := range []struct {
		name string
		a, b []string
		want []string // each a warning's expected text, in order; nil: no warning
	}{
		{"3 vs 3, all cpu", []string{cpu, cpu, cpu}, []string{cpu, cpu, cpu}, nil},
		{"an odd first repeat on one side", []string{cpu, cpu, cpu}, []string{io, cpu, cpu}, nil},
		{"an odd repeat on each side", []string{io, cpu, cpu}, []string{cpu, none, cpu}, nil},
		{"majorities differ", []string{io, io, cpu}, []string{cpu, cpu, cpu},
			[]string{"B vs A: different bottlenecks (at 8 users A bottleneck io in 2 of 3 repeats (cpu in 1) vs B bottleneck cpu in all 3 repeats); the difference measures the bottleneck, not only what changed"}},
		{"no majority on one side", []string{cpu, cpu, cpu}, []string{cpu, io, none},
			[]string{"B vs A: repeats with no common bottleneck (at 8 users B: cpu in 1 of 3 repeats, io in 1, none in 1); the verdict there averages windows limited by different things"}},
		{"2 vs 2, split on both", []string{cpu, io}, []string{io, cpu},
			[]string{"(at 8 users A: cpu in 1 of 2 repeats, io in 1 and B: cpu in 1 of 2 repeats, io in 1)"}},
		{"repeats without host figures are not counted", []string{io, "", ""}, []string{cpu, "", cpu},
			[]string{"(at 8 users A bottleneck io vs B bottleneck cpu in both repeats)"}},
		{"no host figures on a side: not judged", []string{"", ""}, []string{cpu, cpu}, nil},
		{"one run a side, different", []string{io}, []string{cpu},
			[]string{"B vs A: different bottlenecks (at 8 users A bottleneck io vs B bottleneck cpu)"}},
		{"one run a side, none against cpu", []string{none}, []string{cpu},
			[]string{"(at 8 users A no cpu or io bottleneck vs B bottleneck cpu)"}},
		{"one run a side, alike", []string{io}, []string{io}, nil},
		{"the driver limited one side", []string{cpu, cpu, cpu}, []string{figures.BottleneckDriver, figures.BottleneckDriver, cpu},
			[]string{"(at 8 users A bottleneck cpu in all 3 repeats vs B bottleneck driver in 2 of 3 repeats (cpu in 1))"}},
	} {
		cmp, err := compare.Compare([]results.Input{boundSide("A", c.a...), boundSide("B", c.b...)})
		if err != nil {
			t.Fatal(err)
		}
		got := cmp.BoundWarnings()
		if len(got) != len(c.want) {
			t.Errorf("%s: warnings %q, want %d", c.name, got, len(c.want))
			continue
		}
		for k, want := range c.want {
			if !strings.Contains(got[k], want) {
				t.Errorf("%s: warning %q lacks %q", c.name, got[k], want)
			}
		}
	}

	// Text and HTML print every warning: a side with no majority reaches both.
	cmp, _ := compare.Compare([]results.Input{boundSide("A", cpu, cpu, cpu), boundSide("B", cpu, io, none)})
	var text, html bytes.Buffer
	if err := WriteComparisonText(cmp, &text); err != nil {
		t.Fatal(err)
	}
	if err := WriteComparisonHTML(cmp, &html, CompareHTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "warning: B vs A: repeats with no common bottleneck") {
		t.Errorf("compare text lacks the warning:\n%s", text.String())
	}
	if !strings.Contains(html.String(), "Not comparable: B vs A: repeats with no common bottleneck") {
		t.Error("compare HTML lacks the warning")
	}
}
