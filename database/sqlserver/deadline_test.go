package sqlserver

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/netfault"
)

// TestConnectDeadline: a port that accepts and never answers (not SQL Server, or a
// hung one) fails the connect with the timeout error, naming the host and port,
// where go-mssqldb alone waited for ever in its pre-login read.
func TestConnectDeadline(t *testing.T) {
	t.Parallel()
	s := netfault.NewSilent(t)
	for _, tc := range []struct {
		name, dsn string
		opts      database.Options
	}{
		{"Options.Timeout", "sqlserver://u:secretpw@" + s.Addr + "?database=x", database.Options{Timeout: 200 * time.Millisecond}},
		{"connect_timeout", "sqlserver://u:secretpw@" + s.Addr + "?database=x&connect_timeout=0.2", database.Options{}},
	} {
		_, err := Open(context.Background(), tc.dsn, tc.opts)
		var te *database.ConnectTimeoutError
		if !errors.As(err, &te) {
			t.Fatalf("%s: got %v, want a connect timeout", tc.name, err)
		}
		if te.Timeout != 200*time.Millisecond {
			t.Errorf("%s: timeout %s", tc.name, te.Timeout)
		}
		if msg := err.Error(); !strings.Contains(msg, s.Addr) || strings.Contains(msg, "secretpw") {
			t.Errorf("%s: %q: want the host and port, never the password", tc.name, msg)
		}
	}
}

// TestConnectInterrupted: an interrupt (the context ending) while the login waits
// on a silent server ends the connect with context.Canceled, long before the
// timeout.
func TestConnectInterrupted(t *testing.T) {
	t.Parallel()
	s := netfault.NewSilent(t)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-s.Accepted
		cancel()
	}()
	_, err := Open(ctx, "sqlserver://u:pw@"+s.Addr+"?database=x", database.Options{Timeout: time.Hour})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

func TestConnectTimeoutParam(t *testing.T) {
	for _, bad := range []string{"abc", "0", "-1", "NaN", "Inf", "1e9"} {
		if _, _, err := takeConnectTimeout("sqlserver://u@h?connect_timeout=" + bad); err == nil {
			t.Errorf("connect_timeout=%s accepted", bad)
		}
	}
	clean, d, err := takeConnectTimeout("sqlserver://u@h?database=x&Connect_Timeout=30")
	if err != nil || d != 30*time.Second || strings.Contains(clean, "onnect") {
		t.Errorf("got %q %s %v", clean, d, err)
	}
}
