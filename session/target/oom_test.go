package target

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/memcap"
	"github.com/brokerbench/brokerbench/internal/pgmanaged"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/session"
)

// TestOOMKillNamedAfterTheError: a backend of a capped managed PostgreSQL that
// takes more memory than the cap is ended by the kernel's OOM killer, and its client
// only sees the connection go. The command's error then names the kill and the cap,
// read from the server's memory group before the stop removes it.
func TestOOMKillNamedAfterTheError(t *testing.T) {
	t.Parallel()
	if _, err := pgmanaged.FindBinaries(); err != nil {
		t.Skip("no PostgreSQL server binaries: ", err)
	}
	if _, err := memcap.Find(); err != nil {
		t.Skipf("no usable memory cgroup on this machine: %v", err)
	}
	base := testpg.ServerDir(t, "bb-oom-")
	var stderr bytes.Buffer
	g := &session.Globals{PGData: filepath.Join(base, "pgdata"), ServerMemory: "192MiB", Engine: ManagedPostgres,
		Console: session.Console{Stdout: &bytes.Buffer{}, Stderr: &stderr}}
	ctx := context.Background()
	tgt, err := Open(ctx, g, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tgt.Managed.MemoryGroup() == "" {
		_ = tgt.Close()
		t.Fatal("the managed cluster runs without its memory group")
	}
	if n := tgt.OOMKills() - tgt.oomBase; n != 0 {
		_ = tgt.Close()
		t.Fatalf("%d OOM kills before the query", n)
	}
	hogErr := hog(ctx, tgt.DSN)
	if hogErr == nil {
		_ = tgt.Close()
		t.Fatal("a query building a 600 MB string ran under a 192 MiB cap")
	}
	err = tgt.CloseAfter(hogErr, &stderr)
	if !errors.Is(err, hogErr) {
		t.Errorf("the command's error %v does not lead", err)
	}
	want := "the memory cap's OOM killer ended 1 process(es) of the managed PostgreSQL in " + g.PGData +
		" during the command: its cap of 192 MiB was too small: give --server-memory 288MiB or more, or fewer users"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v\nwant it to say %q", err, want)
	}
}

// hog runs a query whose one backend takes some 600 MB of private memory.
func hog(ctx context.Context, dsn string) error {
	db, err := database.Open(ctx, dsn, database.Options{MaxConns: 1})
	if err != nil {
		return err
	}
	defer db.Close()
	var n int64
	return db.QueryRow(ctx, "SELECT length(string_agg(repeat('x', 1048576), '')) FROM generate_series(1, 600)").Scan(&n)
}
