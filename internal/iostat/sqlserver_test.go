package iostat_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/sqlserver"
	"github.com/brokerbench/brokerbench/internal/iostat"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
)

// TestSQLServerSource opens the sampler on a SQL Server (BROKERBENCH_SQLSERVER_DSN)
// with no local device: the source must be SQL Server's file statistics, split into
// data and wal, or, without VIEW SERVER (PERFORMANCE) STATE or on a server without
// the views, a logged message that says which and source "none".
func TestSQLServerSource(t *testing.T) {
	dsn := testdb.SQLServerDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db := testpg.OpenDB(t, dsn, database.Options{MaxConns: 2})
	var notes []string
	s, err := iostat.Open(ctx, iostat.Options{DB: db, Interval: time.Second, ProcRoot: t.TempDir(), SysRoot: t.TempDir(),
		Log: func(f string, a ...any) { notes = append(notes, fmt.Sprintf(f, a...)) }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Source() != sqlserver.IOSource {
		joined := strings.Join(notes, "; ")
		// Only a missing grant, told by error number, is a skip; any other failure
		// of the views (a broken query) fails the test.
		if s.Source() == iostat.SourceNone && strings.Contains(joined, "not readable (missing permission)") {
			t.Skipf("login lacks VIEW SERVER (PERFORMANCE) STATE; the fallback works: %s", joined)
		}
		// A server without the views (a T-SQL server that is not Microsoft's), told
		// by what it answered: its gap, and the fallback to "none" works.
		if s.Source() == iostat.SourceNone && strings.Contains(joined, "the database has no I/O views") {
			t.Skipf("the server has no I/O views; the fallback works: %s", joined)
		}
		t.Fatalf("source %q, want %s; notes: %s", s.Source(), sqlserver.IOSource, joined)
	}
	var names []string
	for _, d := range s.Devices() {
		names = append(names, d.Name+"="+d.Role)
	}
	if got := strings.Join(names, ","); got != "data=data,wal=wal" {
		t.Errorf("devices %s", got)
	}
}

// TestSQLServerIOCountersGrow writes to the log and checks the counters move
// forward between two readings.
func TestSQLServerIOCountersGrow(t *testing.T) {
	dsn := testdb.SQLServerDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db := testpg.OpenDB(t, dsn, database.Options{MaxConns: 2})
	op, ok := db.(database.IOStatsOpener)
	if !ok {
		t.Fatal("the SQL Server dialect offers no I/O statistics")
	}
	r, err := op.OpenIOStats(ctx)
	if errors.Is(err, database.ErrPermission) {
		t.Skipf("login lacks VIEW SERVER (PERFORMANCE) STATE: %v", err)
	}
	if errors.Is(err, database.ErrUnavailable) {
		t.Skipf("the server has no I/O views: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	a, err := r.ReadIO(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, "CREATE TABLE io_probe (id INT NOT NULL PRIMARY KEY, pad VARCHAR(4000) NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		if _, err := db.Exec(ctx, "INSERT INTO io_probe (id, pad) VALUES (@p1, REPLICATE('x', 4000))", i); err != nil {
			t.Fatal(err)
		}
	}
	b, err := r.ReadIO(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if a.Reset != b.Reset || b.Reset == "" {
		t.Errorf("epoch %q -> %q", a.Reset, b.Reset)
	}
	if !a.HasWAL || b.WALBytes-a.WALBytes < 50*4000 {
		t.Errorf("log bytes %d -> %d: 50 committed 4 KB inserts must be in the log", a.WALBytes, b.WALBytes)
	}
	if b.Groups[1].WriteOps <= a.Groups[1].WriteOps {
		t.Errorf("log writes did not grow: %d -> %d", a.Groups[1].WriteOps, b.Groups[1].WriteOps)
	}
	if !b.At.After(a.At) {
		t.Errorf("server time %v -> %v", a.At, b.At)
	}
}
