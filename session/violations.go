package session

import "fmt"

// ViolationsError ends a session that found the database inconsistent (check, or
// run's check after its steps) after it printed the violations: exit 1.
type ViolationsError struct{ N int }

func (e ViolationsError) Error() string {
	if e.N == 1 {
		return "1 consistency violation"
	}
	return fmt.Sprintf("%d consistency violations", e.N)
}
