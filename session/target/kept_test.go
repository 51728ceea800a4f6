package target

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/pgmanaged"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/session"
)

// TestKeptCluster is `pg start`, `pg status` and `pg stop` through the Go API: the
// cluster starts in --pgdata and prints its URL on one line, a second start finds it
// running, status names it, and stop leaves its data on disk.
func TestKeptCluster(t *testing.T) {
	t.Parallel()
	if _, err := pgmanaged.FindBinaries(); err != nil {
		t.Skip("no PostgreSQL server binaries: ", err)
	}
	var u session.UsageError
	if err := StartKept(context.Background(), &session.Globals{}); !errors.As(err, &u) {
		t.Errorf("pg start without --pgdata: %v, want a usage error", err)
	}
	base := testpg.ServerDir(t, "bb-kept-")
	var stdout, stderr bytes.Buffer
	g := &session.Globals{PGData: filepath.Join(base, "pgdata"), Console: session.Console{Stdout: &stdout, Stderr: &stderr}}
	if err := StartKept(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			_ = StopKept(g)
		}
	})
	url := strings.TrimSpace(stdout.String())
	if !strings.HasPrefix(url, "postgres") || strings.Contains(url, "\n") {
		t.Errorf("pg start printed %q, want its URL on one line", stdout.String())
	}
	stdout.Reset()
	if err := StartKept(context.Background(), g); err != nil || stdout.String() != "already running: "+url+"\n" {
		t.Errorf("a second pg start: %v, %q", err, stdout.String())
	}
	stdout.Reset()
	if err := KeptStatus(g); err != nil || stdout.String() != "running: "+url+"\n" {
		t.Errorf("pg status: %v, %q", err, stdout.String())
	}
	if err := StopKept(g); err != nil {
		t.Fatal(err)
	}
	stopped = true
	if err := KeptStatus(g); err == nil {
		t.Error("pg status finds the stopped cluster running")
	}
	if _, err := os.Stat(filepath.Join(g.PGData, "PG_VERSION")); err != nil {
		t.Errorf("pg stop did not keep the cluster's data: %v", err)
	}
}
