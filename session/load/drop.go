package load

import (
	"context"
	"fmt"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/target"
	"github.com/brokerbench/brokerbench/txn"
)

// Drop is `schema drop`: it drops what brokerbench loaded and nothing else: it refuses a
// database without the load marker, one whose tables others' objects depend on
// (loader.PlanDrop) and one a run holds, which it keeps off while it drops.
func Drop(ctx context.Context, g *session.Globals) error {
	logf := g.Logf
	t, err := target.Open(ctx, g, logf)
	if err != nil {
		return err
	}
	defer func() { _ = t.Close() }()
	// One connection for the queries, one for the run lock held, one to try others'.
	db, err := database.Open(ctx, t.DSN, database.Options{MaxConns: 3, AppName: "brokerbench schema drop"})
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := loader.PlanDrop(ctx, db); err != nil {
		return err
	}
	release, err := loader.ExcludeRuns(ctx, db)
	if err != nil {
		return err
	}
	defer release()
	if err := loader.Drop(ctx, db); err != nil {
		return err
	}
	if err := txn.DropRoutines(ctx, db); err != nil {
		return err
	}
	if !g.Quiet {
		fmt.Fprintf(g.Stdout, "dropped the brokerbench schema in %s\n", t.Shown())
	}
	return nil
}
