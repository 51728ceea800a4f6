package testpg

import (
	"testing"

	"github.com/brokerbench/brokerbench/database"
)

// RequestedCheckpoints is the server's count of requested checkpoints
// (pg_stat_checkpointer from PostgreSQL 17, pg_stat_bgwriter before): a test waits on
// it for a CHECKPOINT's report, or counts the checkpoints a command asked for.
func RequestedCheckpoints(t testing.TB, db database.DB) int64 {
	t.Helper()
	var num int
	if err := db.QueryRow(t.Context(), "SELECT current_setting('server_version_num')::int").Scan(&num); err != nil {
		t.Fatal(err)
	}
	q := "SELECT checkpoints_req FROM pg_stat_bgwriter"
	if num >= 170000 {
		q = "SELECT num_requested FROM pg_stat_checkpointer"
	}
	var n int64
	if err := db.QueryRow(t.Context(), q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}
