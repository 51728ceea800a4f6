package mysql_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	driver "github.com/go-sql-driver/mysql"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testmdb"
)

// lineCatcher is a driver logger that keeps what it is given.
type lineCatcher struct {
	mu    sync.Mutex
	lines []string
}

func (c *lineCatcher) Print(v ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lines = append(c.lines, fmt.Sprint(v...))
}

// TestDriverLogSilent: the server kills the session under an idle pooled
// connection, as a dying MariaDB does to all of them. The driver finds it broken
// when the pool reuses it and logs that ("[mysql] packets.go: closing bad idle
// connection"), which reached stderr raw; brokerbench's connectors give the driver
// a logger of their own, so nothing reaches the default one, and the pool
// reconnects.
func TestDriverLogSilent(t *testing.T) {
	dsn := testmdb.DSN(t)
	caught := &lineCatcher{}
	if err := driver.SetLogger(caught); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = driver.SetLogger(&driver.NopLogger{}) }()
	ctx := context.Background()
	db := testmdb.Open(t, dsn, database.Options{MaxConns: 1})
	admin := testmdb.Open(t, dsn, database.Options{MaxConns: 1})
	var id int64
	if err := db.QueryRow(ctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(ctx, fmt.Sprintf("KILL CONNECTION %d", id)); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		var n int
		if err := admin.QueryRow(ctx, "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ?", id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("session %d still listed a minute after KILL", id)
		}
	}
	var again int64
	if err := db.QueryRow(ctx, "SELECT CONNECTION_ID()").Scan(&again); err != nil {
		t.Fatalf("the pool did not reconnect: %v", err)
	}
	if again == id {
		t.Fatalf("the killed session %d answered", id)
	}
	caught.mu.Lock()
	defer caught.mu.Unlock()
	if len(caught.lines) > 0 {
		t.Errorf("the driver logged %q", caught.lines)
	}
}
