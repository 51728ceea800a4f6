package loader

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"golang.org/x/sync/errgroup"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// indexMemMB is maintenance_work_mem per index build: enough for the largest sorts at
// the scales docs/load-speed.md measures, times the builds running at once.
const indexMemMB = 512

// postLoader makes the keys and indexes. Each table's primary key (where the database
// defers it) and secondary indexes are built as soon as the table's stream commits,
// overlapping with the streams still running; finish then adds the foreign keys and
// the trade-id sequence:
//   - where the database can add keys unchecked (PostgreSQL), all keys are added
//     unchecked (instant) and checked in parallel, one goroutine per table, so the
//     checks do not queue behind each other's share-row-exclusive locks;
//   - otherwise each table's keys are added in turn, tables in parallel.
//
// The end state is the same either way.
type postLoader struct {
	ctx    context.Context
	db     database.DB
	ddl    database.DDL
	o      Options
	mt     database.Maintainer
	kd     database.KeyDeferrer
	ki     database.KeyIndexer // only with kd
	fv     database.FKValidator
	g      *errgroup.Group
	gctx   context.Context
	cancel context.CancelFunc
	slots  chan struct{}
	// cat is what a previous post-load of this load built (resumed loads): it is
	// skipped. Nil for a fresh load.
	cat catalog
}

// abort stops builds still running (the load failed) and waits for them, so none
// outlives Load and its pool.
func (p *postLoader) abort() {
	p.cancel()
	_ = p.g.Wait()
}

func newPostLoader(ctx context.Context, db database.DB, ddl database.DDL, o Options) *postLoader {
	p := &postLoader{ctx: ctx, db: db, ddl: ddl, o: o, slots: make(chan struct{}, o.Workers)}
	var cctx context.Context
	cctx, p.cancel = context.WithCancel(ctx)
	p.g, p.gctx = errgroup.WithContext(cctx)
	if !o.Generic {
		p.mt, _ = db.(database.Maintainer)
		p.kd, _ = ddl.(database.KeyDeferrer)
		if p.kd != nil {
			p.ki, _ = ddl.(database.KeyIndexer)
		}
		p.fv, _ = ddl.(database.FKValidator)
	}
	return p
}

// tableLoaded starts the table's key and index builds; it never blocks the caller
// (a sink), the builds wait for one of o.Workers slots.
func (p *postLoader) tableLoaded(t schema.Table) {
	// Statements of one group run in turn; groups run at once. Builds that would lock
	// each other out share a group, so no build holds a slot waiting for a lock.
	var groups [][]string
	switch {
	case p.ki != nil:
		if p.needKey(t) && !p.cat.exists(database.ObjectIndex, "pk_"+t.Name) {
			groups = append(groups, []string{p.ki.PrimaryKeyIndex(t)})
		}
		for _, s := range p.indexes(t) {
			groups = append(groups, []string{s})
		}
	case p.kd != nil:
		var grp []string
		if p.needKey(t) {
			grp = append(grp, p.kd.AddPrimaryKey(t))
		}
		if grp = append(grp, p.indexes(t)...); len(grp) > 0 {
			groups = append(groups, grp)
		}
	default:
		for _, s := range p.indexes(t) {
			groups = append(groups, []string{s})
		}
	}
	for _, grp := range groups {
		p.g.Go(func() error {
			select {
			case p.slots <- struct{}{}:
			case <-p.gctx.Done():
				return context.Cause(p.gctx)
			}
			defer func() { <-p.slots }()
			for _, stmt := range grp {
				if err := p.build(p.gctx, stmt); err != nil {
					return err
				}
			}
			return nil
		})
	}
}

func (p *postLoader) build(ctx context.Context, stmt string) error {
	if p.mt != nil {
		return wrapStmt(stmt, p.mt.Maintenance(ctx, stmt, indexMemMB))
	}
	_, err := p.db.Exec(ctx, stmt)
	return wrapStmt(stmt, err)
}

// finish waits for the builds, then adds the foreign keys and the sequence.
func (p *postLoader) finish() error {
	if err := p.g.Wait(); err != nil {
		return err
	}
	tables := schema.Tables()
	sort.SliceStable(tables, func(a, b int) bool {
		return p.o.Scale.Rows(tables[a].Name) > p.o.Scale.Rows(tables[b].Name)
	})
	ctx := p.ctx
	exec := func(ctx context.Context, stmt string) error {
		_, err := p.db.Exec(ctx, stmt)
		return wrapStmt(stmt, err)
	}
	// each runs groups of statements on o.Workers goroutines; a group runs in order.
	each := func(groups [][]string) error {
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(p.o.Workers)
		for _, grp := range groups {
			g.Go(func() error {
				for _, stmt := range grp {
					if err := p.build(gctx, stmt); err != nil {
						return err
					}
				}
				return nil
			})
		}
		return g.Wait()
	}
	if p.ki != nil {
		for _, t := range append(tables, schema.MetaTables()...) {
			if t.Name == schema.LoadMarkerTable || !p.needKey(t) {
				continue
			}
			if err := exec(ctx, p.ki.AttachPrimaryKey(t)); err != nil {
				return err
			}
		}
	}
	var fks [][]string
	if p.fv != nil {
		for _, t := range tables {
			// Through the Maintainer where there is one: MySQL adds a key unchecked
			// only with the session's foreign_key_checks off.
			for _, stmt := range p.foreignKeys(t, p.fv.ForeignKeysNotValid(t), false) {
				if err := p.build(ctx, stmt); err != nil {
					return err
				}
			}
			fks = append(fks, p.foreignKeys(t, p.fv.ValidateForeignKeys(t), true))
		}
	} else {
		for _, t := range tables {
			fks = append(fks, p.foreignKeys(t, p.ddl.ForeignKeys(t), false))
		}
	}
	if err := each(fks); err != nil {
		return err
	}
	if p.cat.exists(database.ObjectSequence, schema.TradeIDSequence) {
		return nil
	}
	return exec(ctx, p.ddl.CreateSequence(schema.TradeIDSequence, p.o.Scale.FirstRunTradeID()))
}

func isIndex(stmt string) bool { return len(stmt) > 6 && stmt[:6] == "CREATE" }

func wrapStmt(stmt string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", stmt, err)
}

// analyze gathers statistics on every loaded table where the database can.
func analyze(ctx context.Context, db database.DB, workers int) error {
	mt, ok := db.(database.Maintainer)
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

// tableStats reports rows streamed and, where the database can say, sizes on disk.
// A database that lacks the size views, or a login that may not read them
// (database.ErrUnavailable), leaves every size 0 and unknown says why: the load has
// succeeded, only its summary is shorter.
func tableStats(ctx context.Context, db database.DB, tr *Tracker) (out []TableStat, unknown string, err error) {
	sz, _ := db.(database.Sizer)
	for _, p := range tr.Tables {
		ts := TableStat{Name: p.Name, Rows: p.Rows()}
		if sz != nil {
			h, t, err := sz.TableBytes(ctx, p.Name)
			switch {
			case errors.Is(err, database.ErrUnavailable):
				unknown, sz = err.Error(), nil
			case err != nil:
				return out, "", fmt.Errorf("size of %s: %w", p.Name, err)
			}
			ts.HeapBytes, ts.TotalBytes = h, t
		}
		out = append(out, ts)
	}
	return out, unknown, nil
}
