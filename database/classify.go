package database

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"
)

// Classify says how the load driver must treat err, by error code and type only:
// first the rules every database shares, then each registered engine's own, then
// network errors.
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
	for _, e := range Engines() {
		if c, ok := e.Classify(err); ok {
			return c
		}
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return Connection
	}
	return Fatal
}

// RoutineCheck reports whether err is an output check a server routine failed (the
// routine's own error code, Engine.RoutineCheck), with its frame and what failed.
func RoutineCheck(err error) (frame int, what string, ok bool) {
	if err == nil {
		return 0, "", false
	}
	for _, e := range Engines() {
		if e.RoutineCheck == nil {
			continue
		}
		if f, w, ok := e.RoutineCheck(err); ok {
			return f, w, true
		}
	}
	return 0, "", false
}
