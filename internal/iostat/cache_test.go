package iostat

import (
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
)

// TestPostgresHitRatio reads a table that stays in shared_buffers, many times: the
// window's hit ratio from pg_stat_database must be high, and the reads and writes
// per transaction are set from the same window.
func TestPostgresHitRatio(t *testing.T) {
	dsn := testpg.NewDB(t)
	ctx := t.Context()
	db := testpg.OpenDB(t, dsn, database.Options{MaxConns: 1})
	for _, q := range []string{"CREATE TABLE hot (id int8 PRIMARY KEY, pad text)",
		"INSERT INTO hot SELECT g, md5(g::text) FROM generate_series(1, 2000) g", "SELECT count(*) FROM hot"} {
		if _, err := db.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(ctx, Options{DB: db, Interval: time.Hour, Devices: nil})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.dbIndex() < 0 {
		t.Fatal("no database source opened")
	}
	a := s.Mark()
	for range 50 {
		if _, err := db.Exec(ctx, "SELECT count(*) FROM hot WHERE pad <> ''"); err != nil {
			t.Fatal(err)
		}
	}
	// A backend's statistics reach pg_stat_database when it goes idle, at most every
	// 10 s; on 15+ pg_stat_force_next_flush() makes its next statement flush them.
	// Older servers are waited for.
	_, _ = db.Exec(ctx, "SELECT pg_stat_force_next_flush()")
	_, _ = db.Exec(ctx, "SELECT 1")
	var hr float64
	var ok bool
	deadline := time.Now().Add(30 * time.Second)
	for {
		b := s.Mark()
		hr, ok = s.HitRatio(a, b)
		if (ok && hr > 0.9) || time.Now().After(deadline) {
			t.Logf("hit ratio %.4f (known %v) after waiting %s", hr, ok, time.Until(deadline.Add(-30*time.Second)).Abs().Round(time.Millisecond))
			io := s.Window(a, b, 50, 0)
			if io.ReadsPerTxn == nil || io.WritesPerTxn == nil {
				t.Errorf("reads/writes per transaction not set: %+v", io)
			}
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !ok || hr <= 0.9 || hr > 1 {
		t.Fatalf("hit ratio %v (known %v), want above 0.9 for a table read 50 times from shared_buffers", hr, ok)
	}
	if _, ok := s.LiveHitRatio(); !ok {
		t.Error("no live hit ratio after several marks")
	}
}
