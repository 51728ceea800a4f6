package loader

import (
	"context"

	"golang.org/x/sync/errgroup"

	"github.com/brokerbench/brokerbench/database"
)

// PhaseFreeze is the pass that freezes the rows the freezing bulk path did not take.
const PhaseFreeze = "freeze"

// freezeTables freezes, o.Workers at a time, every loaded table whose rows did not all
// arrive frozen: all of them after a sharded or resumed load, else those of more than
// one segment (only a table's first segment may TRUNCATE and COPY FREEZE).
func freezeTables(ctx context.Context, db database.DB, o Options, planned map[segKey]int, resumed bool) error {
	fz, ok := db.(database.Freezer)
	if !ok || o.Generic {
		return nil
	}
	segs := map[string]int{}
	for k := range planned {
		segs[k.table]++
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(o.Workers)
	for _, t := range loadedTables() {
		if segs[t.Name] == 0 || (segs[t.Name] == 1 && !resumed && !o.Shard.sharded()) {
			continue
		}
		g.Go(func() error { return wrapStmt("freeze "+t.Name, fz.Freeze(gctx, t.Name)) })
	}
	return g.Wait()
}
