package loader_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/loader"
)

// Who may hold a database with whom: the shards of one run share it, an unsharded run
// refuses any shard's holder and a shard refuses an unsharded run, each naming the
// holder's row; ExcludeRuns refuses while any of them holds, and a holder's release
// frees the database and deletes its row.
func TestRunHolders(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := testpg.NewDB(t)
	pool := func() database.DB { return testpg.OpenDB(t, dsn, database.Options{MaxConns: 3}) }
	refused := func(what string, err error, shard int) {
		t.Helper()
		var held *loader.RunHeldError
		if !errors.As(err, &held) || held.Holder == nil || held.Holder.Shard != shard || held.Holder.PID != int64(os.Getpid()) {
			t.Errorf("%s: %v, want shard %d's holder named", what, err, shard)
		}
	}
	s0, err := loader.HoldRun(ctx, pool(), 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	s1, err := loader.HoldRun(ctx, pool(), 1, 2)
	if err != nil {
		t.Fatalf("shard 1 beside shard 0 of its run: %v", err)
	}
	_, err = loader.HoldRun(ctx, pool(), 0, 1)
	refused("an unsharded run beside a sharded one", err, 0)
	s0()
	_, err = loader.HoldRun(ctx, pool(), 0, 1)
	refused("an unsharded run beside shard 1 of another", err, 1)
	_, err = loader.ExcludeRuns(ctx, pool())
	refused("a drop beside shard 1", err, 1)
	s1()

	alone, err := loader.HoldRun(ctx, pool(), 0, 1)
	if err != nil {
		t.Fatalf("an unsharded run on a free database: %v", err)
	}
	_, err = loader.HoldRun(ctx, pool(), 1, 3)
	refused("a shard beside an unsharded run", err, 0)
	_, err = loader.ExcludeRuns(ctx, pool())
	refused("a drop beside an unsharded run", err, 0)
	alone()
	release, err := loader.ExcludeRuns(ctx, pool())
	if err != nil {
		t.Fatalf("a drop on a free database: %v", err)
	}
	release()
	if n := testpg.QueryInt(t, dsn, "SELECT count(*) FROM bb_run"); n != 0 {
		t.Errorf("%d holder rows left after every holder let go", n)
	}
}
