package mysql_test

import (
	"context"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/mysql"
	"github.com/brokerbench/brokerbench/internal/testkit/testmdb"
)

// TestServerRecordsTheSessionsIsolation: the result file's settings say the isolation
// brokerbench's sessions start their transactions with, as a session's
// SELECT @@tx_isolation says it (READ-COMMITTED), and innodb_snapshot_isolation as
// they run it (ON), not the server-wide defaults, which the test sets apart
// (REPEATABLE-READ, OFF) for its duration.
func TestServerRecordsTheSessionsIsolation(t *testing.T) {
	dsn := testmdb.DSN(t)
	ctx := context.Background()
	admin := testmdb.Open(t, dsn, database.Options{MaxConns: 1})
	name := "tx_isolation"
	var v any
	if err := admin.QueryRow(ctx, "SELECT @@transaction_isolation").Scan(&v); err == nil {
		name = "transaction_isolation"
	}
	var global string
	var snapshot int
	if err := admin.QueryRow(ctx, "SELECT @@GLOBAL."+name+", @@GLOBAL.innodb_snapshot_isolation").Scan(&global, &snapshot); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec(context.Background(), "SET GLOBAL "+name+" = ?, GLOBAL innodb_snapshot_isolation = ?", global, snapshot)
	})
	if _, err := admin.Exec(ctx, "SET GLOBAL "+name+" = 'REPEATABLE-READ', GLOBAL innodb_snapshot_isolation = OFF"); err != nil {
		t.Fatal(err)
	}

	m, err := mysql.Open(ctx, dsn, database.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	info, err := m.Server(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var session, sessionSnapshot string
	if err := m.DB.QueryRowContext(ctx, "SELECT @@"+name+", IF(@@innodb_snapshot_isolation, 'ON', 'OFF')").Scan(&session, &sessionSnapshot); err != nil {
		t.Fatal(err)
	}
	if session != "READ-COMMITTED" || sessionSnapshot != "ON" {
		t.Fatalf("a session runs with %s %s, innodb_snapshot_isolation %s; want READ-COMMITTED and ON (session.go)", name, session, sessionSnapshot)
	}
	if got := info.Settings[name]; got != session {
		t.Errorf("settings say %s %q; a session says %q", name, got, session)
	}
	if got := info.Settings["innodb_snapshot_isolation"]; got != sessionSnapshot {
		t.Errorf("settings say innodb_snapshot_isolation %q; a session says %q", got, sessionSnapshot)
	}
}
