package driver

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseUsers(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
		err  string
	}{
		{in: "10,50,100,300", want: []int{10, 50, 100, 300}},
		{in: " 4 , 2 ", want: []int{4, 2}},
		{in: "50:300:50", want: []int{50, 100, 150, 200, 250, 300}},
		{in: "2:16", want: []int{2, 4, 6, 8, 10, 12, 14, 16}},
		{in: "10:25:10", want: []int{10, 20, 25}}, // the typed top level is always run
		{in: "7", want: []int{7}},
		{in: "5:5:1", want: []int{5}},
		{in: "", err: "empty"},
		{in: "10,x", err: `"x" is not a user count`},
		{in: "0", err: "between 1 and"},
		{in: "300:50:50", err: "backwards"},
		{in: "1:2:3:4", err: "FROM:TO"},
		{in: "1:100000:1", err: "more than 1000 steps"},
		{in: "1:200000", err: "between 1 and"},
	} {
		got, err := ParseUsers(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseUsers(%q) error = %v, want it to say %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseUsers(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestPlanSteps(t *testing.T) {
	p := Plan{Users: []int{50, 100, 60}, Step: 5 * time.Minute, Warmup: time.Minute}
	want := []StepPlan{
		{Index: 0, Users: 50, Start: 0, MeasureFrom: time.Minute, End: 5 * time.Minute},
		{Index: 1, Users: 100, Start: 5 * time.Minute, MeasureFrom: 6 * time.Minute, End: 10 * time.Minute},
		{Index: 2, Users: 60, Start: 10 * time.Minute, MeasureFrom: 11 * time.Minute, End: 15 * time.Minute},
	}
	if got := p.Steps(); !slices.Equal(got, want) {
		t.Fatalf("Steps() = %+v\nwant %+v", got, want)
	}
	if p.Duration() != 15*time.Minute || p.MaxUsers() != 100 {
		t.Errorf("Duration %s, MaxUsers %d", p.Duration(), p.MaxUsers())
	}
	for _, s := range p.Steps() {
		if s.Measured() != 4*time.Minute {
			t.Errorf("step %d measures %s", s.Index, s.Measured())
		}
	}
}

func TestPlanValidate(t *testing.T) {
	for _, tc := range []struct {
		p   Plan
		err string
	}{
		{Plan{Users: []int{1}, Step: time.Second}, ""},
		{Plan{Users: nil, Step: time.Second}, "no user levels"},
		{Plan{Users: []int{1}, Step: 0}, "--step must be positive"},
		{Plan{Users: []int{1}, Step: time.Second, Warmup: time.Second}, "shorter than --step"},
		{Plan{Users: []int{1}, Step: time.Second, Warmup: -1}, "negative"},
		{Plan{Users: []int{0}, Step: time.Second}, "outside"},
	} {
		err := tc.p.Validate()
		if (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("Validate(%+v) = %v, want %q", tc.p, err, tc.err)
		}
	}
}
