package driver

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// MaxUsers bounds a user level: far above what one client machine should drive, low
// enough that a typo (50:30000) is caught before it opens thousands of connections.
const MaxUsers = 100_000

// Plan is the load shape as data: each user level is held for Step, and the first
// Warmup of each step is excluded from its figures.
type Plan struct {
	Users  []int
	Step   time.Duration
	Warmup time.Duration
}

// StepPlan is one step of a plan, as offsets from the run's start.
type StepPlan struct {
	Index       int // 0-based
	Users       int
	Start       time.Duration // users are set to Users here
	MeasureFrom time.Duration // end of the warm-up: the measured window opens
	End         time.Duration // the measured window closes; the next step starts
	Settle      bool          // a settling window (Level.Settle), not a step
}

// Measured is the length of the step's measured window.
func (s StepPlan) Measured() time.Duration { return s.End - s.MeasureFrom }

// Steps computes the staircase. It is pure: the driver sleeps until these offsets.
func (p Plan) Steps() []StepPlan {
	out := make([]StepPlan, len(p.Users))
	for i, u := range p.Users {
		start := time.Duration(i) * p.Step
		out[i] = StepPlan{Index: i, Users: u, Start: start, MeasureFrom: start + p.Warmup, End: start + p.Step}
	}
	return out
}

// Duration is the whole plan's length.
func (p Plan) Duration() time.Duration { return time.Duration(len(p.Users)) * p.Step }

// MaxUsers is the highest user level of the plan.
func (p Plan) MaxUsers() int {
	m := 0
	for _, u := range p.Users {
		m = max(m, u)
	}
	return m
}

// Validate reports a plan that cannot run, in the words of the flags.
func (p Plan) Validate() error {
	if len(p.Users) == 0 {
		return errors.New("--users: no user levels")
	}
	for _, u := range p.Users {
		if u < 1 || u > MaxUsers {
			return fmt.Errorf("--users: %d users is outside 1..%d", u, MaxUsers)
		}
	}
	if p.Step <= 0 {
		return fmt.Errorf("--step must be positive, got %s", p.Step)
	}
	if p.Warmup < 0 {
		return fmt.Errorf("--warmup must not be negative, got %s", p.Warmup)
	}
	if p.Warmup >= p.Step {
		return fmt.Errorf("--warmup (%s) must be shorter than --step (%s): nothing would be measured", p.Warmup, p.Step)
	}
	return nil
}

// ParseUsers reads a list of user levels ("10,50,100,300") or a range
// ("50:300:50" = 50, 100, ..., 300; "from:to" steps by from). A range whose step does
// not land on its end keeps the end as the last level, so the top level the user
// typed is always run.
func ParseUsers(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, errors.New("--users is empty; give a list (10,50,100) or a range (50:300:50)")
	}
	if strings.Contains(s, ":") {
		return parseRange(s)
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > MaxUsers {
			return nil, fmt.Errorf("--users %q: %q is not a user count between 1 and %d", s, strings.TrimSpace(f), MaxUsers)
		}
		out = append(out, n)
	}
	return out, nil
}

func parseRange(s string) ([]int, error) {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return nil, fmt.Errorf("--users %q: a range is FROM:TO or FROM:TO:STEP", s)
	}
	var v [3]int
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > MaxUsers {
			return nil, fmt.Errorf("--users %q: %q is not a number between 1 and %d", s, strings.TrimSpace(p), MaxUsers)
		}
		v[i] = n
	}
	from, to, step := v[0], v[1], v[2]
	if len(parts) == 2 {
		step = from
	}
	if to < from {
		return nil, fmt.Errorf("--users %q: the range runs backwards (%d > %d)", s, from, to)
	}
	if (to-from)/step+1 > 1000 {
		return nil, fmt.Errorf("--users %q: more than 1000 steps", s)
	}
	var out []int
	for n := from; n <= to; n += step {
		out = append(out, n)
	}
	if out[len(out)-1] != to {
		out = append(out, to)
	}
	return out, nil
}
