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

// postLoad builds the secondary indexes (several at once, largest tables first), then
// the foreign keys (one goroutine per table), then the trade-id sequence.
func postLoad(ctx context.Context, db dialect.DB, ddl dialect.DDL, o Options) error {
	tables := schema.Tables()
	sort.SliceStable(tables, func(a, b int) bool {
		return ExpectedRows(o.Scale, tables[a].Name) > ExpectedRows(o.Scale, tables[b].Name)
	})
	var idx []string
	for _, t := range tables {
		idx = append(idx, ddl.Indexes(t)...)
	}
	mt, _ := db.(dialect.Maintainer)
	if o.Generic {
		mt = nil
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(o.Workers)
	for _, stmt := range idx {
		g.Go(func() error {
			if mt != nil {
				return wrapStmt(stmt, mt.Maintenance(gctx, stmt, indexMemMB))
			}
			_, err := db.Exec(gctx, stmt)
			return wrapStmt(stmt, err)
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	g, gctx = errgroup.WithContext(ctx)
	g.SetLimit(o.Workers)
	for _, t := range tables {
		fks := ddl.ForeignKeys(t)
		if len(fks) == 0 {
			continue
		}
		g.Go(func() error {
			for _, stmt := range fks {
				if _, err := db.Exec(gctx, stmt); err != nil {
					return wrapStmt(stmt, err)
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	stmt := fmt.Sprintf("CREATE SEQUENCE %s START WITH %d", schema.TradeIDSequence, o.Scale.FirstRunTradeID())
	_, err := db.Exec(ctx, stmt)
	return wrapStmt(stmt, err)
}

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
