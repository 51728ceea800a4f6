package mysql_test

import (
	"context"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testmdb"
)

// TestConnectionsOnMariaDB: the server's connection room reads max_connections and
// Threads_connected, the asking session among them.
func TestConnectionsOnMariaDB(t *testing.T) {
	db := testmdb.Open(t, testmdb.DSN(t), database.Options{MaxConns: 1})
	var max int
	if err := db.QueryRow(context.Background(), "SELECT @@max_connections").Scan(&max); err != nil {
		t.Fatal(err)
	}
	room, err := database.Connections(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if room.Max != max || room.Used < 1 || room.Free() != max-room.Used {
		t.Errorf("room %+v (%s), max_connections %d", room, room, max)
	}
}
