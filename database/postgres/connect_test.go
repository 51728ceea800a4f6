package postgres

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/netfault"
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

// TestInvalidDSNSaysWhy: a DSN pgx cannot parse is refused with pgx's reason, and
// never with its password, whichever form carries it.
func TestInvalidDSNSaysWhy(t *testing.T) {
	for _, c := range []struct{ dsn, reason string }{
		{"postgres://bench:Zq9pw!x@localhost:99999/bench", "invalid port"},
		{"postgres://bench:Zq9pw!x@localhost:http/bench", "invalid port"},
		{"host=localhost port=0 user=bench password=Zq9pw!x", "invalid port"},
		{"postgres://bench:Zq9pw!x@localhost/bench?sslmode=bogus", "sslmode is invalid"},
	} {
		_, err := Open(context.Background(), c.dsn, database.Options{})
		if err == nil || !strings.Contains(err.Error(), c.reason) || strings.Contains(err.Error(), "Zq9pw!x") {
			t.Errorf("%s: %v; want the reason %q and no password", c.dsn, err, c.reason)
		}
	}
}
