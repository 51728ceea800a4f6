package txn

import (
	"context"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
)

// readThenUpdate must leave what the one-by-one order (read a row, write it, read the
// next) leaves: with distinct ids the reads go out together before the writes, and a
// repeated id must see its own earlier write, so it keeps the one-by-one order.
func TestReadThenUpdateKeepsTheOneByOneValues(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	db := testpg.OpenDB(t, testpg.NewDB(t), database.Options{MaxConns: 1})
	e := NewExecutor(db, PostgresSQL(), testdb.Scale, 42, 0).(*executor)
	for _, c := range []struct {
		name string
		ids  []int64
		want map[int64]string
	}{
		{"distinct ids", []int64{1, 2}, map[int64]string{1: "ax", 2: "bx"}},
		{"a repeated id", []int64{1, 2, 1}, map[int64]string{1: "axx", 2: "bx"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := db.Exec(ctx, "DROP TABLE IF EXISTS rtu; CREATE TABLE rtu (id bigint PRIMARY KEY, v text NOT NULL); INSERT INTO rtu VALUES (1, 'a'), (2, 'b')"); err != nil {
				t.Fatal(err)
			}
			out := Outcome{Kind: TradeUpdate}
			var updates int
			err := e.inTx(ctx, &out, database.RepeatableRead, func(tx database.Tx) error {
				vals := make([]string, len(c.ids))
				var err error
				updates, err = e.readThenUpdate(ctx, tx, tradeReads{at: frameStmt{TradeUpdate, 1, "value"}, ids: c.ids, sql: "SELECT v FROM rtu WHERE id = $1",
					dest: func(i int) []any { return []any{&vals[i]} }},
					func(i int) error {
						return execOne(ctx, tx, frameStmt{TradeUpdate, 1, "update value"}, "UPDATE rtu SET v = $1 WHERE id = $2", vals[i]+"x", c.ids[i])
					})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if updates != len(c.ids) {
				t.Errorf("%d updates reported, want %d", updates, len(c.ids))
			}
			if out.Statements != 2*len(c.ids) {
				t.Errorf("%d statements counted, want %d", out.Statements, 2*len(c.ids))
			}
			for id, want := range c.want {
				var got string
				if err := db.QueryRow(ctx, "SELECT v FROM rtu WHERE id = $1", id).Scan(&got); err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("row %d = %q, want %q", id, got, want)
				}
			}
		})
	}

	t.Run("a missing row is the frame's failed check", func(t *testing.T) {
		out := Outcome{Kind: TradeUpdate}
		err := e.inTx(ctx, &out, database.RepeatableRead, func(tx database.Tx) error {
			var v string
			_, err := e.readThenUpdate(ctx, tx, tradeReads{at: frameStmt{TradeUpdate, 1, "value"}, ids: []int64{1, 9}, sql: "SELECT v FROM rtu WHERE id = $1",
				dest: func(int) []any { return []any{&v} }}, func(int) error { return nil })
			return err
		})
		if !IsCheck(err) {
			t.Fatalf("missing row: %v, want a failed check", err)
		}
	})
}
