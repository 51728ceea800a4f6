package mysql_test

import (
	"context"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/mysql"
	"github.com/brokerbench/brokerbench/internal/testmdb"
)

// TestSnapshotIsolation: brokerbench's sessions run with innodb_snapshot_isolation
// on, and the server's notes say a changed row makes a transaction rerun. A server
// without the variable (taken here by naming one no server has) is connected to
// all the same, and its notes say updates can be lost.
func TestSnapshotIsolation(t *testing.T) {
	dsn := testmdb.DSN(t)
	ctx := context.Background()
	check := func(wantOn bool, wantNote string) {
		t.Helper()
		m, err := mysql.Open(ctx, dsn, database.Options{MaxConns: 2})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		var on int
		if err := m.DB.QueryRowContext(ctx, "SELECT @@SESSION.innodb_snapshot_isolation").Scan(&on); err != nil {
			t.Fatal(err)
		}
		info, err := m.Server(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.SnapshotChecks() != wantOn || (on == 1) != wantOn || !strings.Contains(strings.Join(info.Notes, "\n"), wantNote) {
			t.Errorf("snapshot checks %v, session variable %d, notes %q; want on=%v and a note saying %q", m.SnapshotChecks(), on, info.Notes, wantOn, wantNote)
		}
	}
	check(true, "the transaction is rerun, as on PostgreSQL")
	defer mysql.NameSnapshotVariable("innodb_no_such_variable")()
	check(false, "can overwrite a newer one unseen")
}
