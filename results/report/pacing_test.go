package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// TestBehindSchedule pins the rule: owed and dropped starts beyond one per user
// and 2 % of the window's transactions flag the step, and the report says so.
func TestBehindSchedule(t *testing.T) {
	for _, tc := range []struct {
		name          string
		owed, dropped int64
		want          bool
	}{
		{"kept up", 0, 0, false},
		{"one late start per user", 10, 0, false},
		{"2 % of 1,000 transactions owed", 20, 0, false},
		{"owed beyond 2 %", 21, 0, true},
		{"dropped beyond 2 %", 5, 16, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := results.Step{Users: 10, TPS: 10, MeasuredS: 100, Lag: results.Lag{Owed: tc.owed, Missed: tc.dropped}}
			if got := figures.BehindSchedule(&st); got != tc.want {
				t.Errorf("BehindSchedule = %v, want %v", got, tc.want)
			}
		})
	}
	r := runfixture.SampleRun("a", []int{10, 20}, 1, 1, 1)
	r.Steps[1].Lag = results.Lag{Owed: 400, Missed: 3}
	figures.SetStepFlags(r)
	if !results.HasFlag(&r.Steps[1], figures.FlagBehindSchedule) || results.HasFlag(&r.Steps[0], figures.FlagBehindSchedule) {
		t.Errorf("flags %v and %v, want behind-schedule on the second step only", r.Steps[0].Flags, r.Steps[1].Flags)
	}
	var b bytes.Buffer
	if err := WriteReport(&b, results.Input{Path: "a.json", Run: r}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "B: behind schedule at 20 (400 owed, 3 dropped) users") {
		t.Errorf("report lacks the B note:\n%s", b.String())
	}
}
