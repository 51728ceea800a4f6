package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/pgmanaged"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
)

// TestConnectionsChecked: a server allowing 20 connections and a run of 30 users.
// Given with --db (not brokerbench's), the run is refused in one line with the
// figures before it opens anything; as a managed cluster (--pgdata), its
// max_connections is raised, said so, and the run completes.
func TestConnectionsChecked(t *testing.T) {
	t.Parallel()
	c := testpg.PrivateCluster(t)
	testdb.LoadedTaken(t, c.URL("postgres"), "brokerbench")
	if err := c.SetMaxConnections(context.Background(), 20); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "conns.json")
	args := []string{"--users", "30", "--step", "2s", "--warmup", "1s", "--rate", "20", "--io-device", "none", "--no-check", "--out", out}

	code, stdout, stderr := runMain(append([]string{"run", "--db", c.URL("brokerbench")}, args...)...)
	if code != exitRuntime {
		t.Fatalf("30 users on 20 connections: exit %d, want %d\n%s\n%s", code, exitRuntime, stdout, stderr)
	}
	oneErrorLine(t, stderr, "the run needs 45 connections (the users' pool of 30, the emulator's 11, 4 of its own", "max_connections 20 - 3 reserved - ", "free")
	t.Logf("refused: %s", strings.TrimSpace(stderr))
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the refused run left a result file (%v)", err)
	}

	code, stdout, stderr = runMain(append([]string{"run", "--pgdata", c.DataDir}, args...)...)
	if code != exitOK {
		t.Fatalf("the managed run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "max_connections") {
			t.Logf("managed: %s", l)
		}
	}
	if !strings.Contains(stderr, "raised the managed server's max_connections from 20 to ") {
		t.Errorf("the raise was not said:\n%s", stderr)
	}
	cl, err := pgmanaged.Attach(c.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	db := testpg.OpenDB(t, cl.URL("postgres"), database.Options{MaxConns: 1})
	room, err := database.Connections(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if room.Max < 45 {
		t.Errorf("max_connections %d after the raise, want room for the run's 45", room.Max)
	}
}
