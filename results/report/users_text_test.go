package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
)

func TestAtUsers(t *testing.T) {
	for _, tc := range []struct {
		users []int
		want  string
	}{
		{[]int{4, 8}, "at 4, 8 users"},
		{[]int{8}, "at 8 users"},
		{[]int{8, 8, 8}, "3 times at 8 users"},
		{[]int{4, 6, 8, 8, 10}, "at 4, 6 users, 2 times at 8 users, at 10 users"},
	} {
		if got := figures.AtUsers(tc.users); got != tc.want {
			t.Errorf("atUsers(%v) = %q, want %q", tc.users, got, tc.want)
		}
	}
}

// --find-max's probes all hold one user count: the report's and compare's notes
// name it once with how many steps were at it, not "at 8, 8, 8 users".
func TestNotesSayARepeatedUserCountOnce(t *testing.T) {
	mem := readFixture(t, "memory_resident.json")
	mem.Run.Steps = append(mem.Run.Steps, mem.Run.Steps[1])
	for i := range mem.Run.Steps {
		mem.Run.Steps[i].Users = 8
		mem.Run.Steps[i].Rate = float64(100 * (i + 1))
	}
	var b bytes.Buffer
	if err := WriteReport(&b, mem); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "M: memory-resident (3 times at 8 users)") || strings.Contains(b.String(), "8, 8") {
		t.Errorf("report:\n%s", b.String())
	}
	c, err := compare.Compare([]results.Input{mem, readFixture(t, "storage_bound.json")})
	if err != nil {
		t.Fatal(err)
	}
	if w := c.RegimeWarnings(); len(w) == 0 || !strings.Contains(w[0], ": 3 times at 8 users the step read its data from memory") {
		t.Errorf("compare warnings %q", w)
	}
}
