package database

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"
)

// DefaultConnectTimeout bounds connecting, logging in and the first query of every
// connection on both engines, unless the DSN's connect_timeout (seconds) or
// Options.Timeout says otherwise (docs/faults.md).
const DefaultConnectTimeout = 10 * time.Second

// UnlockWait bounds the release of a lock a session holds (the run's lock, a load's):
// a stopped server never answers it, and the command that held the lock must still
// end. Short is safe: a connection whose release got no answer is closed, and its
// session's locks go with it.
const UnlockWait = 2 * time.Second

// ConnectError says why a connect to product at target failed: the caller's context
// ended (an interrupt: the error wraps context.Canceled), the server did not answer
// within timeout, or err.
func ConnectError(ctx, connectCtx context.Context, product, target string, timeout time.Duration, err error) error {
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("connect to %s at %s: %w", product, target, ctx.Err())
	case connectCtx.Err() != nil, errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("connect to %s at %s: %w", product, target, &ConnectTimeoutError{Timeout: timeout})
	}
	return fmt.Errorf("connect to %s at %s: %w", product, target, err)
}

// ConnectTimeoutError is a server that did not finish the connect (TCP, TLS, login,
// first query) within the timeout: not that product, or hung.
type ConnectTimeoutError struct{ Timeout time.Duration }

func (e *ConnectTimeoutError) Error() string {
	return fmt.Sprintf("no answer within %s (is that the database server, and is it up? connect_timeout=SECONDS in the URL changes the wait)", e.Timeout)
}

// DSNError is a DSN that cannot be parsed: a mistake on the command line (exit 2),
// not a failed connect. Its message says why and never holds the password.
type DSNError struct{ Msg string }

func (e *DSNError) Error() string { return e.Msg }

// InvalidDSN returns a *DSNError.
func InvalidDSN(format string, args ...any) error {
	return &DSNError{Msg: fmt.Sprintf(format, args...)}
}
