package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testmdb"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/txn"
)

// TestServerFramesOnMariaDB: on MariaDB, load installs the stored procedures of run
// --frames server with their version marker; run --frames server drives every
// transaction of the mix and the market emulator's Trade-Results through them without
// an error and passes check; schema drop removes them with the tables.
func TestServerFramesOnMariaDB(t *testing.T) {
	t.Parallel()
	dsn := testmdb.DSN(t)
	ctx := context.Background()
	if code, _, errb := runCLI(t, "--db", dsn, "load", "--customers", "1000", "--trade-days", "5"); code != 0 {
		t.Fatalf("load: exit %d\n%s", code, errb)
	} else if !strings.Contains(errb, "installed the server routines") {
		t.Errorf("load does not say it installed the procedures:\n%s", errb)
	}
	db := testmdb.Open(t, dsn, database.Options{MaxConns: 1})
	if v, digest, err := txn.InstalledRoutines(ctx, db); err != nil || v != txn.RoutinesVersion || digest == "" {
		t.Fatalf("procedures after load: version %d, digest %q, %v; want version %d", v, digest, err, txn.RoutinesVersion)
	}
	p := filepath.Join(t.TempDir(), "server.json")
	code, out, errOut := runMain("run", "--db", dsn, "--users", "2", "--step", "4s", "--warmup", "1s", "--rate", "40",
		"--frames", "server", "--out", p)
	if code != 0 {
		t.Fatalf("run --frames server: exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "server frames, routines version") || !strings.Contains(out, "check: OK") {
		t.Errorf("run does not say the mode, or the check failed:\n%s\n%s", out, errOut)
	}
	r, err := results.Read(p)
	if err != nil {
		t.Fatal(err)
	}
	// How many of each kind finish in a 3 s window is the machine's business; that
	// every kind runs in server frames is txn's TestMariaDBFramesServerDoesTheClientsWork.
	// Here: the command ran its mix that way, and nothing that ran failed.
	if r.Frames != results.FramesServer || r.Database.Product != "MariaDB" || len(r.Steps) != 1 {
		t.Fatalf("frames %q on %q, %d steps; want server frames on MariaDB, one step", r.Frames, r.Database.Product, len(r.Steps))
	}
	finished := int64(0)
	for name, x := range r.Steps[0].Transactions {
		finished += x.Count
		if x.Errors > 0 {
			t.Errorf("%s: %d errors in server frames", name, x.Errors)
		}
	}
	if finished == 0 {
		t.Errorf("no transaction finished in server frames: %+v", r.Steps[0].Transactions)
	}
	if code, _, errb := runCLI(t, "--db", dsn, "schema", "drop"); code != 0 {
		t.Fatalf("schema drop: exit %d: %s", code, errb)
	}
	var n int
	if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM information_schema.routines
WHERE routine_schema = DATABASE() AND routine_name LIKE 'bb\_%'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d procedures left after schema drop (%v)", n, err)
	}
}
