package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/postgres"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
)

// TestServerRecordsTheSessionsIsolation: the result file's
// default_transaction_isolation is the sessions' (here the database's own setting,
// serializable), not the server's default, and it is what the read-only
// read-committed transactions, which name no level (autocommit), run under.
func TestServerRecordsTheSessionsIsolation(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dsn := testpg.NewDB(t)
	admin := testpg.OpenDB(t, dsn, database.Options{MaxConns: 1})
	if _, err := admin.Exec(ctx, `DO $$ BEGIN
EXECUTE format('ALTER DATABASE %I SET default_transaction_isolation = serializable', current_database());
END $$`); err != nil {
		t.Fatal(err)
	}
	pg, err := postgres.Open(ctx, dsn, database.Options{MaxConns: 1, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	info, err := pg.Server(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ran string
	if err := pg.InTx(ctx, database.ReadOnlyCommitted, func(tx database.Tx) error {
		return tx.QueryRow(ctx, "SELECT current_setting('transaction_isolation')").Scan(&ran)
	}); err != nil {
		t.Fatal(err)
	}
	if got := info.Settings["default_transaction_isolation"]; got != "serializable" || got != ran {
		t.Errorf("settings say default_transaction_isolation %q, a read-only transaction ran %q; want both serializable", got, ran)
	}
}
