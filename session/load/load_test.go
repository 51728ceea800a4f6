package load

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/session"
)

// TestRunLoadsWithoutTheCommandLine drives a load session through its Go API on a
// real server: the smallest scale, into an empty database. The tables hold the rows
// the scale fixes, the marker records the scale, seed and tool the session was given,
// and the summary is printed on the console's stdout.
func TestRunLoadsWithoutTheCommandLine(t *testing.T) {
	t.Parallel()
	dsn := testpg.NewDB(t)
	var stdout, stderr bytes.Buffer
	g := &session.Globals{DB: dsn, Tool: "session-test", Console: session.Console{Stdout: &stdout, Stderr: &stderr}}
	sc := schema.Scale{Customers: schema.LoadUnit, TradeDays: schema.MinTradeDays}
	o := &Options{Customers: sc.Customers, TradeDays: sc.TradeDays, Seed: 7, Workers: 2}
	if err := Run(context.Background(), g, o); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	db := testpg.OpenDB(t, dsn, database.Options{MaxConns: 1})
	m, err := loader.ReadMarker(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if m.Scale != sc || m.Seed != 7 || m.ToolVersion != "session-test" || m.CompletedAt == nil {
		t.Errorf("marker %+v, want scale %+v, seed 7, tool session-test, completed", m, sc)
	}
	if n := testpg.QueryInt(t, dsn, "SELECT count(*) FROM customer"); int64(n) != sc.Customers {
		t.Errorf("customer holds %d rows, want %d", n, sc.Customers)
	}
	if n := testpg.QueryInt(t, dsn, "SELECT count(*) FROM customer_account"); n < int(sc.Customers) {
		t.Errorf("customer_account holds %d rows, fewer than the %d customers", n, sc.Customers)
	}
	out := stdout.String()
	for _, want := range []string{"customer ", "all ", "seed 7\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary does not say %q:\n%s", want, out)
		}
	}
	if !strings.Contains(stderr.String(), "loading 1000 customers, 5 trade days, seed 7, 2 workers into ") {
		t.Errorf("the console did not announce the load:\n%s", stderr.String())
	}
}

// A scale the workload cannot use is a usage error before any server is touched.
func TestRunRefusesABadScaleFirst(t *testing.T) {
	var stdout, stderr bytes.Buffer
	g := &session.Globals{DB: "postgres://nobody@127.0.0.1:1/none?connect_timeout=1", Console: session.Console{Stdout: &stdout, Stderr: &stderr}}
	err := Run(context.Background(), g, &Options{Customers: 999, TradeDays: schema.MinTradeDays, Workers: 1})
	var u session.UsageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "--customers must be a positive multiple of 1000") {
		t.Errorf("999 customers: %v, want the usage error", err)
	}
	if stdout.Len()+stderr.Len() > 0 {
		t.Errorf("a refused load printed %q %q", stdout.String(), stderr.String())
	}
}
