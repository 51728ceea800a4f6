package main

import (
	"context"
	"errors"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/session"
)

// Exit codes (README.md, Usage).
const (
	exitOK          = 0
	exitRuntime     = 1
	exitUsage       = 2
	exitGate        = 3
	exitUnjudged    = 4
	exitInterrupted = 130
)

// usageError marks a user mistake in the command line: exit 2. The sessions return
// the same type, so a mistake found below the command exits alike.
type usageError = session.UsageError

var usagef = session.Usagef

// gateError is a --fail-if gate that tripped: exit 3.
type gateError struct{ msg string }

func (e gateError) Error() string { return e.msg }

// unjudgedError is a --fail-if gate that reads compare's verdict at a step whose
// change has none (one run a side, too few repeats, too short for an interval):
// exit 4, since a gate that cannot judge must not read as a pass.
type unjudgedError struct{ msg string }

func (e unjudgedError) Error() string { return e.msg }

func exitCode(err error) int {
	var u usageError
	var g gateError
	var uj unjudgedError
	var dsn *database.DSNError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &u), errors.As(err, &dsn):
		return exitUsage
	case errors.As(err, &g):
		return exitGate
	case errors.As(err, &uj):
		return exitUnjudged
	case errors.Is(err, session.ErrInterrupted), errors.Is(err, context.Canceled):
		return exitInterrupted
	}
	return exitRuntime
}
