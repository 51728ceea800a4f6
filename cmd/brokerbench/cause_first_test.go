package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
)

// TestCauseBeforeTheStop: load, run and quickstart, each starting the managed server
// itself (its --pgdata is stopped), lose it to a killed postmaster. The command's
// cause is what its error line says first; the stop that then fails (pg_ctl finds
// no server to stop) follows in the same line, never on a line before it (it was
// printed first when the command's deferred stop wrote it itself). Each command has
// a private server of its own, so the three run at once.
func TestCauseBeforeTheStop(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		args  []string
		ready func(t *testing.T, ch *child, dsn string) // returns once the command is where the kill should land
		cause string
	}{
		{"run", []string{"run", "--users", "2,2,2", "--step", "4s", "--warmup", "1s", "--rate", "20",
			"--io-device", "none", "--reconnect-grace", "2s", "--out", filepath.Join(dir, "run.json")},
			func(t *testing.T, ch *child, _ string) { ch.waitLine(t, "step 2/3") }, "lost the database server at "},
		{"quickstart", []string{"quickstart", "--users", "2,2,2", "--step", "4s", "--warmup", "1s",
			"--server-memory", "0", "--out", filepath.Join(dir, "quickstart.json")},
			func(t *testing.T, ch *child, _ string) { ch.waitLine(t, "step 2/3") }, "lost the database server at "},
		{"load", []string{"load", "--customers", "1000", "--trade-days", "5", "--drop"},
			func(t *testing.T, _ *child, dsn string) { waitCopying(t, dsn) }, "lost the connection to the server"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := testpg.PrivateCluster(t)
			testdb.LoadedTaken(t, c.URL("postgres"), "brokerbench")
			if err := c.Stop(); err != nil {
				t.Fatal(err)
			}
			ch := startChild(t, append(tc.args, "--pgdata", c.DataDir)...)
			tc.ready(t, ch, c.URL("brokerbench"))
			killPostmaster(t, c.DataDir)
			if code := ch.wait(t); code != exitRuntime {
				t.Fatalf("%s: exit %d, want %d\n%s", tc.name, code, exitRuntime, ch.output())
			}
			stderr := ch.stderrString()
			cause := strings.Index(stderr, tc.cause)
			stop := strings.Index(stderr, "stop managed PostgreSQL")
			if cause < 0 || stop < 0 {
				t.Fatalf("%s: want the cause %q and the failed stop in stderr:\n%s", tc.name, tc.cause, stderr)
			}
			if stop < cause || strings.Contains(stderr[cause:stop], "\n") {
				t.Errorf("%s: the failed stop is not after the cause in its line:\n%s", tc.name, stderr)
			}
		})
	}
}

// waitCopying waits until a load's sessions copy rows into dsn's database. The server
// is down until the load starts it, and restarts once with the load settings, so
// every look connects afresh.
func waitCopying(t *testing.T, dsn string) {
	t.Helper()
	ctx := context.Background()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		db, err := database.Open(ctx, dsn, database.Options{MaxConns: 1, Timeout: 5 * time.Second})
		if err != nil {
			continue
		}
		var copying int
		err = db.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND application_name = 'brokerbench load' AND query ILIKE 'COPY%'`).Scan(&copying)
		db.Close()
		if err == nil && copying > 0 {
			return
		}
	}
	t.Fatal("never saw the load copy rows")
}
