package target

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/pgmanaged"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/session"
)

// TestOpenGivenServer: a --db server is taken as it is (nothing started, nothing
// stopped), described by SupportedServer, and refuses a memory cap in one usage line.
func TestOpenGivenServer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := testpg.NewDB(t)
	tgt, err := Open(ctx, &session.Globals{DB: dsn, Engine: ManagedPostgres}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tgt.DSN != dsn || tgt.IsManaged() || tgt.MemoryCap() != 0 {
		t.Errorf("a --db target: DSN %q managed %v cap %d", database.Redact(tgt.DSN), tgt.IsManaged(), tgt.MemoryCap())
	}
	db, err := database.Open(ctx, tgt.DSN, database.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	info, err := SupportedServer(ctx, db)
	db.Close()
	if err != nil || info.Product == "" || info.Version == "" {
		t.Errorf("SupportedServer: %+v, %v", info, err)
	}
	var stderr bytes.Buffer
	if err := tgt.CloseAfter(nil, &stderr); err != nil || stderr.Len() > 0 {
		t.Errorf("closing a --db target: %v, said %q", err, stderr.String())
	}
	_, err = Open(ctx, &session.Globals{DB: dsn, Engine: ManagedPostgres, ServerMemory: "1GB"}, nil)
	var u session.UsageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "--server-memory caps a managed server only") {
		t.Errorf("--server-memory with --db: %v, want the usage error", err)
	}
}

// TestOpenManagedInPGData: with no --db and a --pgdata, Open starts a managed
// PostgreSQL there with the benchmark database in it; Close stops it and keeps the
// cluster on disk, and a second Open starts the same cluster again.
func TestOpenManagedInPGData(t *testing.T) {
	t.Parallel()
	if _, err := pgmanaged.FindBinaries(); err != nil {
		t.Skip("no PostgreSQL server binaries: ", err)
	}
	base := testpg.ServerDir(t, "bb-target-")
	g := &session.Globals{PGData: filepath.Join(base, "pgdata"), Engine: ManagedPostgres}
	ctx := context.Background()
	var logged []string
	logf := func(f string, a ...any) { logged = append(logged, f) }
	for round := 1; round <= 2; round++ {
		tgt, err := Open(ctx, g, logf)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if !tgt.IsManaged() || tgt.Shown() != "managed PostgreSQL in "+g.PGData {
			_ = tgt.Close()
			t.Fatalf("round %d: managed %v, shown %q", round, tgt.IsManaged(), tgt.Shown())
		}
		inBench := testpg.QueryInt(t, tgt.DSN, "SELECT count(*) FROM pg_database WHERE datname = 'brokerbench' AND datname = current_database()")
		if err := tgt.Close(); err != nil {
			t.Fatalf("round %d: close: %v", round, err)
		}
		if inBench != 1 {
			t.Fatalf("round %d: the target's DSN is not the brokerbench database", round)
		}
		if _, err := pgmanaged.Attach(g.PGData); err == nil {
			t.Fatalf("round %d: the cluster still runs after Close", round)
		}
		if _, err := os.Stat(filepath.Join(g.PGData, "PG_VERSION")); err != nil {
			t.Fatalf("round %d: the --pgdata cluster was not kept: %v", round, err)
		}
	}
	if len(logged) == 0 {
		t.Error("starting the managed server logged nothing")
	}
}
