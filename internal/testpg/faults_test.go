package testpg

import (
	"context"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
)

// TestFaultsAreReal: a terminated backend's next query fails with a connection-class
// error and the pool recovers; a paused server delays a query by about the pause.
func TestFaultsAreReal(t *testing.T) {
	dsn := NewDB(t)
	ctx := context.Background()
	db, err := database.Open(ctx, dsn, database.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(ctx, "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	if n := TerminateBackends(t, dsn); n != 1 {
		t.Fatalf("terminated %d backends, want 1", n)
	}
	_, err = db.Exec(ctx, "SELECT 1")
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
	done := PauseAsync(t, 0, 1500*time.Millisecond)
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	if _, err := db.Exec(ctx, "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	<-done
	if d := time.Since(start); d < time.Second {
		t.Fatalf("query during a 1.5 s pause took %s", d)
	}
}
