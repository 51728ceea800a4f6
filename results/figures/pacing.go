package figures

import (
	"fmt"
	"strings"

	"github.com/brokerbench/brokerbench/results"
)

// Whether the users kept up with their pacer (--rate, --pace nominal): a step whose
// intended starts were not made measured less load than it was to offer, so a
// slower database was offered less work than a faster one (docs/workload.md,
// nominal pacing).

// FlagBehindSchedule marks a step whose users could not keep up with the pacer.
const FlagBehindSchedule = "behind-schedule"

// BehindShare is the share of the window's transactions that may be owed or
// dropped before a step is flagged behind schedule: the 2 % by which nominal
// pacing may miss its rate. At least one start per user is always allowed, since
// a user running a transaction that started late owes up to one start at any
// instant without falling behind.
const BehindShare = 0.02

// BehindSchedule tells whether the step's owed and dropped starts exceed what the
// rule allows.
func BehindSchedule(st *results.Step) bool {
	short := float64(st.Lag.Owed + st.Lag.Missed)
	return short > 0 && short > max(float64(st.Users), BehindShare*st.TPS*st.MeasuredS)
}

// BehindNote explains the B flag under the step table when a step has it.
func BehindNote(r *results.Run) string {
	var users []string
	for _, i := range StepOrder(r.Steps) {
		if st := &r.Steps[i]; BehindSchedule(st) {
			users = append(users, fmt.Sprintf("%d (%d owed, %d dropped)", st.Users, st.Lag.Owed, st.Lag.Missed))
		}
	}
	if len(users) == 0 {
		return ""
	}
	return fmt.Sprintf("B: behind schedule at %s users: more than %.0f %% of the window's starts were owed at its end or dropped, "+
		"so the step was offered less than its pacer asked; give more --users (or a longer think time per user).", strings.Join(users, ", "), BehindShare*100)
}
