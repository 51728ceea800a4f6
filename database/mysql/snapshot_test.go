package mysql_test

import (
	"context"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/mysql"
	"github.com/brokerbench/brokerbench/internal/testkit/testmdb"
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

// TestInsertOnlySkipsSnapshotChecks: an insert whose foreign key names a parent row
// another session changed (in another column) after the transaction's snapshot fails
// with 1020 under repeatable read with the snapshot checks (Trade-Order's inserts after
// a Trade-Result updated their broker), and succeeds in an insert-only transaction,
// after which the session has its checks again. A pool on a server without the
// variable runs the insert-only level as plain repeatable read.
func TestInsertOnlySkipsSnapshotChecks(t *testing.T) {
	dsn := testmdb.DSN(t)
	ctx := context.Background()
	open := func() *mysql.DB {
		t.Helper()
		m, err := mysql.Open(ctx, dsn, database.Options{MaxConns: 2})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(m.Close)
		return m
	}
	m := open()
	for _, q := range []string{
		"CREATE TABLE parent (id INT PRIMARY KEY, v INT NOT NULL)",
		"CREATE TABLE child (id INT PRIMARY KEY, pid INT NOT NULL, FOREIGN KEY (pid) REFERENCES parent (id))",
		"INSERT INTO parent VALUES (1, 0)",
	} {
		if _, err := m.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	// insert takes a snapshot, has another session change the parent and commit, then
	// inserts a child of it.
	insert := func(m *mysql.DB, iso database.Isolation, id int) error {
		return m.InTx(ctx, iso, func(tx database.Tx) error {
			var n int
			if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM child").Scan(&n); err != nil {
				return err
			}
			if _, err := m.Exec(ctx, "UPDATE parent SET v = v + 1 WHERE id = 1"); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "INSERT INTO child VALUES (?, 1)", id)
			return err
		})
	}
	if err := insert(m, database.RepeatableRead, 1); mysql.ErrorNumber(err) != 1020 {
		t.Fatalf("repeatable read: %v; want 1020, the foreign-key check failing on the changed parent", err)
	}
	if err := insert(m, database.InsertOnlyRepeatableRead, 2); err != nil {
		t.Fatalf("insert-only repeatable read: %v", err)
	}
	var on int
	if err := m.DB.QueryRowContext(ctx, "SELECT @@innodb_snapshot_isolation").Scan(&on); err != nil || on != 1 {
		t.Errorf("after an insert-only transaction the session's innodb_snapshot_isolation is %d (%v); want 1", on, err)
	}

	defer mysql.NameSnapshotVariable("innodb_no_such_variable")()
	if err := insert(open(), database.InsertOnlyRepeatableRead, 3); err != nil {
		t.Fatalf("insert-only repeatable read without the variable: %v", err)
	}
	var children int
	if err := m.DB.QueryRowContext(ctx, "SELECT COUNT(*) FROM child").Scan(&children); err != nil || children != 2 {
		t.Errorf("%d children (%v); want 2", children, err)
	}
}
