package postgres_test

import (
	"context"
	"testing"

	"github.com/brokerbench/brokerbench/database"
)

// insertQ is a one-row insert for a pipeline that records its row count.
func insertQ(sql string, n *int64) database.Queued {
	return database.Queued{SQL: sql, Affected: func(k int64) error { *n = k; return nil }}
}

// PipelineCommit sends the last statements and the COMMIT together: the rows are
// committed when every statement succeeds, nothing is when one fails (the server
// skips the COMMIT behind the error), and the connection is usable either way.
func TestPipelineCommit(t *testing.T) {
	pg := txDB(t)
	ctx := context.Background()

	t.Run("after earlier statements, commits", func(t *testing.T) {
		var n int64
		err := pg.InTx(ctx, database.RepeatableRead, func(tx database.Tx) error {
			if _, err := tx.Exec(ctx, "UPDATE t SET v = 11 WHERE id = 1"); err != nil {
				return err
			}
			return tx.(database.Committer).PipelineCommit(ctx, []database.Queued{insertQ("INSERT INTO t VALUES (5, 50)", &n)})
		})
		if err != nil || n != 1 {
			t.Fatalf("err %v, %d rows", err, n)
		}
		if v, ok := value(t, pg, 5); !ok || v != 50 {
			t.Fatalf("row 5 = %d, %v: not committed", v, ok)
		}
		if v, _ := value(t, pg, 1); v != 11 {
			t.Fatalf("row 1 = %d, want the update committed with the inserts", v)
		}
	})

	t.Run("as the first statements, begins and commits", func(t *testing.T) {
		var n int64
		err := pg.InTx(ctx, database.ReadCommitted, func(tx database.Tx) error {
			return tx.(database.Committer).PipelineCommit(ctx, []database.Queued{insertQ("INSERT INTO t VALUES (6, 60)", &n)})
		})
		if v, ok := value(t, pg, 6); err != nil || !ok || v != 60 {
			t.Fatalf("row 6 = %d, %v (err %v)", v, ok, err)
		}
	})

	t.Run("a failing statement stops the commit", func(t *testing.T) {
		var n1, n2 int64
		err := pg.InTx(ctx, database.RepeatableRead, func(tx database.Tx) error {
			if _, err := tx.Exec(ctx, "UPDATE t SET v = 12 WHERE id = 1"); err != nil {
				return err
			}
			return tx.(database.Committer).PipelineCommit(ctx, []database.Queued{
				insertQ("INSERT INTO t VALUES (7, 70)", &n1),
				insertQ("INSERT INTO t VALUES (2, 21)", &n2), // duplicate key
			})
		})
		if err == nil {
			t.Fatal("duplicate key: no error")
		}
		if _, ok := value(t, pg, 7); ok {
			t.Fatal("row 7 committed although a later statement of the pipeline failed")
		}
		if v, _ := value(t, pg, 1); v != 11 {
			t.Fatalf("row 1 = %d: the failed transaction's update was committed", v)
		}
	})

	t.Run("the connection goes on after both", func(t *testing.T) {
		err := pg.InTx(ctx, database.ReadCommitted, func(tx database.Tx) error {
			_, err := tx.Exec(ctx, "INSERT INTO t VALUES (8, 80)")
			return err
		})
		if v, ok := value(t, pg, 8); err != nil || !ok || v != 80 {
			t.Fatalf("row 8 = %d, %v (err %v)", v, ok, err)
		}
	})
}
