package target

import (
	"errors"
	"fmt"
	"testing"

	"github.com/brokerbench/brokerbench/session"
)

// followedBy keeps the cause first, and errors.Is still finds it (the command's exit
// code reads it); a cleanup failure alone is the error.
func TestFollowedBy(t *testing.T) {
	later := errors.New("pg_ctl failed")
	cause := fmt.Errorf("%w: the run was stopped", session.ErrInterrupted)
	for _, tc := range []struct {
		cause, later error
		want         string
		interrupted  bool
	}{
		{nil, nil, "", false},
		{cause, nil, "interrupted: the run was stopped", true},
		{nil, later, "stop managed PostgreSQL: pg_ctl failed", false},
		{cause, later, "interrupted: the run was stopped (and then stop managed PostgreSQL: pg_ctl failed)", true},
	} {
		err := followedBy(tc.cause, tc.later, "stop managed PostgreSQL")
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want || errors.Is(err, session.ErrInterrupted) != tc.interrupted {
			t.Errorf("followedBy(%v, %v) = %q, interrupted %v; want %q, interrupted %v", tc.cause, tc.later, got, errors.Is(err, session.ErrInterrupted), tc.want, tc.interrupted)
		}
	}
}
