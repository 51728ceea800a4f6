// Package session holds what every session of brokerbench shares, whichever command
// starts it: how a session tells the command that the user made a mistake (exit 2) or
// that it was interrupted after saving what it had (exit 130). The sessions themselves
// (session/run, session/disk, ...) orchestrate the packages below them; cmd/brokerbench
// turns flags into their options and their errors into exit codes.
package session

import (
	"errors"
	"fmt"
)

// UsageError marks a user mistake in the command line or its inputs: exit 2.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

// Usagef returns a UsageError with the formatted message.
func Usagef(format string, args ...any) error { return UsageError{fmt.Errorf(format, args...)} }

// ErrInterrupted ends a session stopped by SIGINT/SIGTERM after it saved what it had.
var ErrInterrupted = errors.New("interrupted")
