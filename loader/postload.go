package loader

import (
	"context"
	"fmt"
	"sort"

	"golang.org/x/sync/errgroup"

	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/schema/dialect"
)

// indexMemMB is maintenance_work_mem per index build: enough for the largest sorts at
// the scales a 2-core machine loads, times the builds running at once.
const indexMemMB = 512

// postLoad makes the keys and indexes, then the trade-id sequence:
//   - generic: secondary indexes in parallel, then each table's foreign keys (tables
//     in parallel);
//   - where the dialect can defer keys (PostgreSQL): primary keys in parallel, then
//     all foreign keys unchecked (instant), then the secondary indexes and the key
//     checks together in parallel. The end state is the same.
//
// Largest tables go first so the longest builds start earliest.
func postLoad(ctx context.Context, db dialect.DB, ddl dialect.DDL, o Options) error {
	tables := schema.Tables()
	sort.SliceStable(tables, func(a, b int) bool {
		return ExpectedRows(o.Scale, tables[a].Name) > ExpectedRows(o.Scale, tables[b].Name)
	})
	mt, _ := db.(dialect.Maintainer)
	kd, deferKeys := ddl.(dialect.KeyDeferrer)
	fv, validate := ddl.(dialect.FKValidator)
	if o.Generic {
		mt, deferKeys, validate = nil, false, false
	}
	build := func(ctx context.Context, stmt string) error {
		if mt != nil {
			return wrapStmt(stmt, mt.Maintenance(ctx, stmt, indexMemMB))
		}
		_, err := db.Exec(ctx, stmt)
		return wrapStmt(stmt, err)
	}
	// each runs groups of statements on o.Workers goroutines; a group's statements
	// run in order.
	each := func(groups [][]string, run func(context.Context, string) error) error {
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(o.Workers)
		for _, grp := range groups {
			if len(grp) == 0 {
				continue
			}
			g.Go(func() error {
				for _, stmt := range grp {
					if err := run(gctx, stmt); err != nil {
						return err
					}
				}
				return nil
			})
		}
		return g.Wait()
	}
	exec := func(ctx context.Context, stmt string) error {
		_, err := db.Exec(ctx, stmt)
		return wrapStmt(stmt, err)
	}

	var indexes, fks [][]string
	for _, t := range tables {
		for _, s := range ddl.Indexes(t) {
			indexes = append(indexes, []string{s})
		}
	}
	if deferKeys {
		var pks [][]string
		for _, t := range append(tables, schema.MetaTables()...) {
			if t.Name != schema.LoadMarkerTable {
				pks = append(pks, []string{kd.AddPrimaryKey(t)})
			}
		}
		if err := each(pks, build); err != nil {
			return err
		}
	}
	if validate {
		var add []string
		for _, t := range tables {
			add = append(add, fv.ForeignKeysNotValid(t)...)
			fks = append(fks, fv.ValidateForeignKeys(t))
		}
		if err := each([][]string{add}, exec); err != nil {
			return err
		}
		// Index builds and key checks share one pool; statements on the same table
		// queue on its lock, others run at once.
		var tasks [][]string
		for i := 0; i < max(len(indexes), len(fks)); i++ {
			if i < len(indexes) {
				tasks = append(tasks, indexes[i])
			}
			if i < len(fks) {
				tasks = append(tasks, fks[i])
			}
		}
		if err := each(tasks, func(ctx context.Context, stmt string) error {
			if isIndex(stmt) {
				return build(ctx, stmt)
			}
			return exec(ctx, stmt)
		}); err != nil {
			return err
		}
	} else {
		if err := each(indexes, build); err != nil {
			return err
		}
		for _, t := range tables {
			fks = append(fks, ddl.ForeignKeys(t))
		}
		if err := each(fks, exec); err != nil {
			return err
		}
	}
	stmt := fmt.Sprintf("CREATE SEQUENCE %s START WITH %d", schema.TradeIDSequence, o.Scale.FirstRunTradeID())
	_, err := db.Exec(ctx, stmt)
	return wrapStmt(stmt, err)
}

func isIndex(stmt string) bool { return len(stmt) > 6 && stmt[:6] == "CREATE" }

func wrapStmt(stmt string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", stmt, err)
}

// analyze gathers statistics on every loaded table where the dialect can.
func analyze(ctx context.Context, db dialect.DB, workers int) error {
	mt, ok := db.(dialect.Maintainer)
	if !ok {
		return nil
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for _, t := range append(schema.Tables(), schema.MetaTables()...) {
		g.Go(func() error { return wrapStmt("analyze "+t.Name, mt.Analyze(gctx, t.Name)) })
	}
	return g.Wait()
}

// tableStats reports rows streamed and, where the dialect can say, sizes on disk.
func tableStats(ctx context.Context, db dialect.DB, tr *Tracker) ([]TableStat, error) {
	sz, _ := db.(dialect.Sizer)
	var out []TableStat
	for _, p := range tr.Tables {
		ts := TableStat{Name: p.Name, Rows: p.Rows()}
		if sz != nil {
			h, t, err := sz.TableBytes(ctx, p.Name)
			if err != nil {
				return out, fmt.Errorf("size of %s: %w", p.Name, err)
			}
			ts.HeapBytes, ts.TotalBytes = h, t
		}
		out = append(out, ts)
	}
	return out, nil
}
