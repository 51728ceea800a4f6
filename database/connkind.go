package database

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"syscall"
)

// ConnKind says how a connection failed, so a lost server is described by what it
// did (docs/faults.md, "When the server goes away during a run"): it refused the
// connection (nothing listens, or it is starting up or full), it reset one it had
// (it was killed, or ended the session), or it did not answer in time (stopped, or
// a network that drops packets). Only codes and error types decide, never message
// text.
type ConnKind int

const (
	ConnOther   ConnKind = iota // a connection failure of none of the kinds below
	ConnRefused                 // the server or its host said no
	ConnReset                   // an open connection was cut
	ConnTimeout                 // no answer in time
	NumConnKinds
)

// ConnKindNames are the kinds as messages count them: "3 refused".
var ConnKindNames = [NumConnKinds]string{"failed", "refused", "reset", "timed out"}

func (k ConnKind) String() string { return ConnKindNames[k] }

// ConnectionKind sorts a connection failure (Classify gave Connection, or a
// statement deadline passed): first by the errno and error types every engine's
// client shares, then by the engines' own codes (Engine.ConnKind).
func ConnectionKind(err error) ConnKind {
	var ct *ConnectTimeoutError
	var ne net.Error
	switch {
	case err == nil:
		return ConnOther
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return ConnRefused
	case errors.Is(err, syscall.ETIMEDOUT), errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded),
		errors.As(err, &ct), errors.As(err, &ne) && ne.Timeout():
		return ConnTimeout
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return ConnReset
	}
	for _, e := range Engines() {
		if e.ConnKind == nil {
			continue
		}
		if k, ok := e.ConnKind(err); ok {
			return k
		}
	}
	return ConnOther
}
