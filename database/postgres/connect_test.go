package postgres

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/netfault"
)

// TestConnectDeadline: a port that accepts and never answers fails the connect
// with the timeout error naming host and port, from Options.Timeout or from the
// DSN's connect_timeout; an interrupt during the connect ends it with
// context.Canceled.
func TestConnectDeadline(t *testing.T) {
	t.Parallel()
	s := netfault.NewSilent(t)
	for _, tc := range []struct {
		name, dsn string
		opts      database.Options
		want      time.Duration
	}{
		{"Options.Timeout", "postgres://u:secretpw@" + s.Addr + "/x?sslmode=disable", database.Options{Timeout: 200 * time.Millisecond}, 200 * time.Millisecond},
		{"connect_timeout", "postgres://u:secretpw@" + s.Addr + "/x?sslmode=disable&connect_timeout=1", database.Options{}, time.Second},
	} {
		_, err := Open(context.Background(), tc.dsn, tc.opts)
		var te *database.ConnectTimeoutError
		if !errors.As(err, &te) || te.Timeout != tc.want {
			t.Fatalf("%s: got %v, want a connect timeout of %s", tc.name, err, tc.want)
		}
		if msg := err.Error(); !strings.Contains(msg, s.Addr) || strings.Contains(msg, "secretpw") {
			t.Errorf("%s: %q: want the host and port, never the password", tc.name, msg)
		}
	}

	// Drain what the cases above left, so the signal is this connect's.
	for len(s.Accepted) > 0 {
		<-s.Accepted
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-s.Accepted
		cancel()
	}()
	_, err := Open(ctx, "postgres://u:pw@"+s.Addr+"/x?sslmode=disable", database.Options{Timeout: time.Hour})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted connect: got %v, want context.Canceled", err)
	}
}
