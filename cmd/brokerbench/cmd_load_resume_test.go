package main

import (
	"context"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
)

// Bad --shard values and conflicting flags: one line, exit 2, before any connection.
func TestLoadShardBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		say  []string
	}{
		{[]string{"load", "--shard", "x"}, []string{"--shard", "I/N", `"x"`}},
		{[]string{"load", "--shard", "3/3"}, []string{"--shard", "0 <= I < N"}},
		{[]string{"load", "--shard", "-1/2"}, []string{"--shard", "I/N"}},
		{[]string{"load", "--shard", "1/0"}, []string{"--shard", "I/N"}},
		{[]string{"load", "--shard", "1/"}, []string{"--shard", "I/N"}},
		{[]string{"load", "--shard", "1/2", "--drop"}, []string{"--drop", "--shard", "schema drop"}},
		{[]string{"load", "--resume", "--drop"}, []string{"--resume", "--drop"}},
	} {
		code, _, errb := runCLI(t, append([]string{"--db", "postgres://bench@127.0.0.1:1/bench?connect_timeout=1"}, tc.args...)...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2: %s", tc.args, code, errb)
		}
		oneErrorLine(t, errb, tc.say...)
	}
}

// Two shards from the command line, one after the other with the refusals in
// between, are TestSecretManagedNeverShown's load (loadShardsBySize): one load of
// the managed cluster carries the sharded load's checks, load --size's and the
// password's.

// A post-load cut short is finished by --resume: what exists is kept, a missing index
// and foreign key are built, an invalid index is dropped and rebuilt.
func TestLoadResumeFinishesThePostLoad(t *testing.T) {
	t.Parallel()
	dsn := testdb.Loaded(t)
	db := testpg.OpenDB(t, dsn, database.Options{MaxConns: 2})
	ctx := context.Background()
	for _, stmt := range []string{
		"UPDATE bb_load SET completed_at = NULL",
		"DROP INDEX i_t_st_id",
		"ALTER TABLE trade_history DROP CONSTRAINT fk_trade_history_1",
		"ALTER TABLE settlement DROP CONSTRAINT fk_settlement_1",
		"ALTER TABLE settlement ADD CONSTRAINT fk_settlement_1 FOREIGN KEY (se_t_id) REFERENCES trade (t_id) NOT VALID",
		"UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'i_co_name'::regclass",
		"DROP SEQUENCE seq_trade_id",
	} {
		if _, err := db.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	code, out, errb := runCLI(t, "--db", dsn, "load", "--resume", "--quiet")
	if code != 0 {
		t.Fatalf("load --resume: exit %d: %s", code, errb)
	}
	if !strings.Contains(out, "loaded in") {
		t.Errorf("no summary: %s", out)
	}
	var n int
	if err := db.QueryRow(ctx, `SELECT count(*) FROM pg_index WHERE indisvalid AND indexrelid IN ('i_t_st_id'::regclass, 'i_co_name'::regclass)`).Scan(&n); err != nil || n != 2 {
		t.Errorf("valid rebuilt indexes: %d (%v), want 2", n, err)
	}
	if err := db.QueryRow(ctx, `SELECT count(*) FROM pg_constraint WHERE convalidated AND conname IN ('fk_trade_history_1', 'fk_settlement_1')`).Scan(&n); err != nil || n != 2 {
		t.Errorf("validated foreign keys: %d (%v), want 2", n, err)
	}
	code, out, errb = runCLI(t, "--db", dsn, "check")
	if code != 0 || !strings.HasPrefix(out, "OK: ") {
		t.Errorf("check after the resumed post-load: exit %d\n%s\n%s", code, out, errb)
	}
}
