package txn

import (
	"errors"
	"fmt"
)

// CheckError is a violated output check of the reference (tpce.md §6 "checks", §10.9):
// the transaction ran, but what it found or changed is not what a correct database
// gives. It counts as an error of that transaction, not as a retry or a rollback.
type CheckError struct {
	Kind  Kind
	Frame int
	What  string
}

func (e *CheckError) Error() string {
	return fmt.Sprintf("%s frame %d check failed: %s", e.Kind, e.Frame, e.What)
}

func checkf(k Kind, frame int, format string, args ...any) error {
	return &CheckError{Kind: k, Frame: frame, What: fmt.Sprintf(format, args...)}
}

// IsCheck reports whether err is a violated output check.
func IsCheck(err error) bool {
	var c *CheckError
	return errors.As(err, &c)
}

// GiveUpError is a transaction that kept failing with retryable errors (serialization
// failures, deadlocks) until the retry bound.
type GiveUpError struct {
	Kind     Kind
	Attempts int
	Last     error
}

func (e *GiveUpError) Error() string {
	return fmt.Sprintf("%s gave up after %d attempts: %v", e.Kind, e.Attempts, e.Last)
}

// GiveUpError deliberately has no Unwrap: database.Classify would see the last
// serialization failure and call the give-up retryable, and the driver must count it
// as an error instead.
