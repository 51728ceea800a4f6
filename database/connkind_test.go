package database

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
)

// TestConnectionKind: refusals, resets and timeouts are told apart by errno and
// error type, however deep the client wrapped them.
func TestConnectionKind(t *testing.T) {
	dial := func(err error) error {
		return fmt.Errorf("acquire: %w", &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", err)})
	}
	for _, tc := range []struct {
		err  error
		want ConnKind
	}{
		{dial(syscall.ECONNREFUSED), ConnRefused},
		{dial(syscall.EHOSTUNREACH), ConnRefused},
		{dial(syscall.ETIMEDOUT), ConnTimeout},
		{&net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}, ConnTimeout},
		{fmt.Errorf("x: %w", context.DeadlineExceeded), ConnTimeout},
		{&ConnectTimeoutError{}, ConnTimeout},
		{&net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}, ConnReset},
		{&net.OpError{Op: "write", Net: "tcp", Err: os.NewSyscallError("write", syscall.EPIPE)}, ConnReset},
		{fmt.Errorf("unexpected EOF: %w", io.ErrUnexpectedEOF), ConnReset},
		{fmt.Errorf("something else"), ConnOther},
	} {
		if got := ConnectionKind(tc.err); got != tc.want {
			t.Errorf("ConnectionKind(%v) = %s, want %s", tc.err, got, tc.want)
		}
	}
}
