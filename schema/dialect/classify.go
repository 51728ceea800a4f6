package dialect

import (
	"context"
	"errors"
	"io"
	"syscall"
)

// Classify says how the load driver must treat err, by error code and type only.
func Classify(err error) Class {
	switch {
	case err == nil:
		return Fatal
	case errors.Is(err, ErrRollback):
		return Rollback
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return Canceled
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.EPIPE):
		return Connection
	}
	if c, ok := classifySQLServer(err); ok {
		return c
	}
	return classifyPostgres(err)
}
