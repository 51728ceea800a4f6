package compare

import (
	"fmt"
	"strings"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// Headlines are the study's summary, one line per system after the baseline: each
// workload's leading figure with its change, interval and verdict, as a white
// paper's summary reads: "h810 vs h800: oltp: tpsE at 8 users -40 % [-43 … -37]
// worse; profiles: database IOPS -40 % [-43 … -36] worse, streaming IOPS -1 % [-4
// … +3] ~ within noise; replay: IOPS of captured 60 % vs 100 %, -40 % [...] worse".
func (s *Study) Headlines() []string {
	var out []string
	for _, sys := range s.Systems[1:] {
		var parts []string
		for _, w := range s.Workloads {
			if p := w.headline(sys); p != "" {
				parts = append(parts, results.Printable(w.Name)+": "+p)
			}
		}
		if len(parts) == 0 {
			parts = []string{"nothing compared yet (no workload has a finished run of both)"}
		}
		out = append(out, fmt.Sprintf("%s vs %s: %s", results.Printable(sys), results.Printable(s.Systems[0]), strings.Join(parts, "; ")))
	}
	return out
}

// headline is system sys's part of its headline for this workload, "" when the
// workload did not compare it.
func (w StudyWorkload) headline(sys string) string {
	r, ok := w.Side(sys)
	if !ok || r == 0 {
		return ""
	}
	if w.Runs != nil {
		return runHeadline(w.Runs, r)
	}
	return diskHeadline(w.Disks, r)
}

// runHeadline is tpsE's change at the highest user count both sides ran.
func runHeadline(c *Comparison, r int) string {
	m, _ := figures.LookupStepMetric("tps_e")
	for i := len(c.Users) - 1; i >= 0; i-- {
		if e, ok := c.Estimate(i, r, m); ok {
			return fmt.Sprintf("%s at %d users %s", m.Title, c.Users[i], EstimateText(e))
		}
	}
	return ""
}

// EstimateText is a change with its interval and verdict: "-38 % [-45 … -31]
// worse", "+1 % [-3 … +5] ~ within noise", or "+12 % [-20 … +50] no verdict: 2
// repeats a side; a verdict needs 3".
func EstimateText(e Estimate) string {
	s := figures.FormatChange(e.Change, 0) + intervalText(e)
	switch e.Verdict {
	case VerdictNoise:
		return s + " ~ within noise"
	case VerdictNone:
		return s + " no verdict: " + e.Reason
	}
	return s + " " + string(e.Verdict)
}
