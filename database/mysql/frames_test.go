package mysql_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/mysql"
	"github.com/brokerbench/brokerbench/internal/testkit/testmdb"
	"github.com/brokerbench/brokerbench/txn"
)

// TestServerFramesRefusedWithoutSequences: on a server without sequences (MySQL's
// path, taken on MariaDB with the counter forced), server frames are refused with
// the reason and the way out, and installing the routines creates none, where the
// same server with its sequences has them.
func TestServerFramesRefusedWithoutSequences(t *testing.T) {
	dsn := testmdb.DSN(t)
	ctx := context.Background()
	m, err := mysql.Open(ctx, dsn, database.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if msg := txn.FramesUnavailableOn(m); msg != "" {
		t.Fatalf("MariaDB with its sequences: %q, want server frames available", msg)
	}
	m.UseCounter()
	msg := txn.FramesUnavailableOn(m)
	if !strings.Contains(msg, "sequences") || !strings.Contains(msg, "--frames client") {
		t.Errorf("without sequences: %q, want the reason and --frames client", msg)
	}
	if err := txn.InstallRoutines(ctx, m, time.Now()); err == nil || err.Error() != msg {
		t.Errorf("install without sequences: %v, want %q", err, msg)
	}
	var n int
	if err := m.QueryRow(ctx, "SELECT COUNT(*) FROM information_schema.routines WHERE routine_schema = DATABASE()").Scan(&n); err != nil || n != 0 {
		t.Errorf("%d routines created (%v), want none", n, err)
	}
}
