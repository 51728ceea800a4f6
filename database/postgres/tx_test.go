package postgres_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/postgres"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
)

func TestMain(m *testing.M) { os.Exit(testpg.Main(m)) }

// txDB is a one-connection pool on a fresh database with a table t(id, v) holding
// (1, 10) and (2, 20): one connection, so a transaction that left it unusable would
// fail the next one.
func txDB(t *testing.T) *postgres.PG {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	pg, err := postgres.Open(ctx, testpg.NewDB(t), database.Options{MaxConns: 1, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pg.Close)
	if _, err := pg.Exec(ctx, "CREATE TABLE t (id int PRIMARY KEY, v int NOT NULL); INSERT INTO t VALUES (1, 10), (2, 20)"); err != nil {
		t.Fatal(err)
	}
	return pg
}

func value(t *testing.T, pg *postgres.PG, id int) (int, bool) {
	t.Helper()
	var v int
	err := pg.QueryRow(context.Background(), "SELECT v FROM t WHERE id = $1", id).Scan(&v)
	if errors.Is(err, database.ErrNoRows) {
		return 0, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return v, true
}

// The BEGIN goes out with the first statement, whatever kind it is; the transaction
// still has its isolation level from that statement on, commits and rolls back as
// one, and leaves the connection usable after an error.
func TestTxBeginsWithFirstStatement(t *testing.T) {
	pg := txDB(t)
	ctx := context.Background()

	t.Run("first QueryRow sees the isolation level", func(t *testing.T) {
		for _, level := range []database.Isolation{database.RepeatableRead, database.InsertOnlyRepeatableRead} {
			var iso string
			err := pg.InTx(ctx, level, func(tx database.Tx) error {
				return tx.QueryRow(ctx, "SELECT current_setting('transaction_isolation')").Scan(&iso)
			})
			if err != nil || iso != "repeatable read" {
				t.Fatalf("%s: isolation %q, err %v", level, iso, err)
			}
		}
	})

	t.Run("first QueryRow without a row, then a write that commits", func(t *testing.T) {
		err := pg.InTx(ctx, database.ReadCommitted, func(tx database.Tx) error {
			var v int
			if err := tx.QueryRow(ctx, "SELECT v FROM t WHERE id = 3").Scan(&v); !errors.Is(err, database.ErrNoRows) {
				t.Errorf("missing row: %v, want ErrNoRows", err)
			}
			_, err := tx.Exec(ctx, "INSERT INTO t VALUES (3, 30)")
			return err
		})
		if v, ok := value(t, pg, 3); err != nil || !ok || v != 30 {
			t.Fatalf("row 3 = %d, %v after commit (err %v)", v, ok, err)
		}
	})

	t.Run("first Query streams its rows, then the transaction goes on", func(t *testing.T) {
		sum := 0
		err := pg.InTx(ctx, database.ReadCommitted, func(tx database.Tx) error {
			rows, err := tx.Query(ctx, "SELECT v FROM t WHERE id IN (1, 2) ORDER BY id")
			if err != nil {
				return err
			}
			for rows.Next() {
				var v int
				if err := rows.Scan(&v); err != nil {
					rows.Close()
					return err
				}
				sum += v
			}
			if err := rows.Err(); err != nil {
				return err
			}
			n, err := tx.Exec(ctx, "UPDATE t SET v = v + 1 WHERE id IN (1, 2)")
			if n != 2 {
				t.Errorf("update changed %d rows, want 2", n)
			}
			return err
		})
		if v, _ := value(t, pg, 1); err != nil || sum != 30 || v != 11 {
			t.Fatalf("sum %d, row 1 = %d, err %v", sum, v, err)
		}
	})

	t.Run("first Exec then an intended rollback", func(t *testing.T) {
		err := pg.InTx(ctx, database.ReadCommitted, func(tx database.Tx) error {
			if n, err := tx.Exec(ctx, "INSERT INTO t VALUES (4, 40)"); err != nil || n != 1 {
				t.Errorf("insert: %d rows, %v", n, err)
			}
			return database.ErrRollback
		})
		if _, ok := value(t, pg, 4); !errors.Is(err, database.ErrRollback) || ok {
			t.Fatalf("err %v, row 4 present %v", err, ok)
		}
	})

	t.Run("a failing first statement of each kind", func(t *testing.T) {
		for name, first := range map[string]func(database.Tx) error{
			"Exec":     func(tx database.Tx) error { _, err := tx.Exec(ctx, "INSERT INTO t VALUES (1, 1)"); return err },
			"QueryRow": func(tx database.Tx) error { var v int; return tx.QueryRow(ctx, "SELECT v FROM missing").Scan(&v) },
			"Query": func(tx database.Tx) error {
				rows, err := tx.Query(ctx, "SELECT v FROM missing")
				if err == nil {
					rows.Close()
					err = rows.Err()
				}
				return err
			},
			"Pipeline": func(tx database.Tx) error {
				return database.Pipeline(ctx, tx, []database.Queued{{SQL: "SELECT v FROM missing"}})
			},
		} {
			err := pg.InTx(ctx, database.ReadCommitted, func(tx database.Tx) error { return first(tx) })
			if err == nil || database.Classify(err) != database.Fatal {
				t.Errorf("%s: err %v (class %s), want a fatal error", name, err, database.Classify(err))
			}
			// The one connection is back in the pool, outside any transaction.
			if v, ok := value(t, pg, 2); !ok || v != 21 {
				t.Fatalf("after a failed first %s: row 2 = %d, %v", name, v, ok)
			}
		}
	})

	t.Run("a body that sends nothing", func(t *testing.T) {
		if err := pg.InTx(ctx, database.Serializable, func(database.Tx) error { return nil }); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("a pipeline carries writes and their row counts", func(t *testing.T) {
		var changed int64
		var v int
		err := pg.InTx(ctx, database.ReadCommitted, func(tx database.Tx) error {
			return database.Pipeline(ctx, tx, []database.Queued{
				{SQL: "UPDATE t SET v = v * 2 WHERE id IN (1, 2)", Affected: func(n int64) error { changed = n; return nil }},
				{SQL: "SELECT v FROM t WHERE id = $1", Args: []any{1}, Scan: func(r database.Rows) error { return r.Scan(&v) }},
			})
		})
		if err != nil || changed != 2 || v != 22 {
			t.Fatalf("changed %d, row 1 read back %d, err %v", changed, v, err)
		}
	})
}

// plainTx hides the Pipeliner of a transaction: database.Pipeline then sends one
// statement at a time, as it does for SQL Server.
type plainTx struct{ database.Tx }

// The one-at-a-time path gives what the pipeline gives: rows to Scan, row counts to
// Affected, and the first error ends it.
func TestPipelineOneByOneMatches(t *testing.T) {
	pg := txDB(t)
	ctx := context.Background()
	for _, plain := range []bool{false, true} {
		var changed int64
		var sum int
		err := pg.InTx(ctx, database.ReadCommitted, func(tx database.Tx) error {
			if plain {
				tx = plainTx{tx}
			}
			return database.Pipeline(ctx, tx, []database.Queued{
				{SQL: "UPDATE t SET v = v + 1 WHERE id <= $1", Args: []any{2}, Affected: func(n int64) error { changed = n; return nil }},
				{SQL: "SELECT v FROM t ORDER BY id", Scan: func(r database.Rows) error {
					var v int
					err := r.Scan(&v)
					sum += v
					return err
				}},
				{SQL: "UPDATE t SET v = 0 WHERE id = 99", Affected: func(n int64) error {
					if n != 0 {
						t.Errorf("plain %v: missing row changed %d rows", plain, n)
					}
					return database.ErrRollback
				}},
			})
		})
		if !errors.Is(err, database.ErrRollback) || changed != 2 {
			t.Fatalf("plain %v: err %v, changed %d", plain, err, changed)
		}
		if v, _ := value(t, pg, 1); v != 10 || sum != 32 {
			t.Fatalf("plain %v: row 1 = %d after the rollback, sum read %d (want 10, 32)", plain, v, sum)
		}
	}
}
