package testpg

import (
	"context"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
)

// TestFaultsAreReal: a terminated backend's next query fails with a connection-class
// error and the pool recovers; a query sent to a paused server is answered only once
// it runs again.
func TestFaultsAreReal(t *testing.T) {
	dsn := NewDB(t)
	ctx := context.Background()
	db := OpenDB(t, dsn, database.Options{MaxConns: 1})
	if _, err := db.Exec(ctx, "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	if n := TerminateBackends(t, dsn); n != 1 {
		t.Fatalf("terminated %d backends, want 1", n)
	}
	_, err := db.Exec(ctx, "SELECT 1")
	if err == nil {
		t.Fatal("query on a terminated backend succeeded")
	}
	if c := database.Classify(err); c != database.Connection {
		t.Fatalf("terminated backend: %s, want connection class", ErrorSummary(err))
	}
	if _, err := db.Exec(ctx, "SELECT 1"); err != nil {
		t.Fatalf("pool did not reconnect: %v", err)
	}
	if Cluster(t) == nil {
		t.Skip("pause needs the managed cluster")
	}
	stopped, stall := PauseAsync(t, 1500*time.Millisecond)
	<-stopped
	if _, err := db.Exec(ctx, "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	answered := time.Now()
	// The query was sent while the server was confirmed stopped: no answer can
	// come before the server runs again.
	if s := stall(); s.Duration() < 1500*time.Millisecond || answered.Before(s.Until) {
		t.Fatalf("server stopped %s to %s; the query sent in the pause was answered at %s",
			s.From.Format("15:04:05.000"), s.Until.Format("15:04:05.000"), answered.Format("15:04:05.000"))
	}
}
