package loader

import (
	"context"
	"fmt"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// generation is one run of the generators: jobs on o.Workers goroutines, each table's
// segments streamed one bulk operation per segment (tableStream), the segments done
// committed before skipped.
type generation struct {
	db   database.DB
	jobs []job
	done progress
	o    Options
	tr   *Tracker
	// loaded hears of every table whose segments this run leaves all committed (those
	// it had nothing to do for at once).
	loaded func(schema.Table)
	sql    func(string) string // the engine's statement hook
}

// run generates and streams until every job is done or one fails.
func (gn generation) run(ctx context.Context) error {
	format, err := gn.rowFormat()
	if err != nil {
		return err
	}
	streams, todo := gn.streams(format)
	g, gctx := errgroup.WithContext(ctx)
	for _, ts := range streams {
		if len(ts.order) == 0 {
			ts.prog.done.Store(true)
			gn.loaded(ts.table) // committed before, or no job writes it (trade_request)
			continue
		}
		g.Go(func() error {
			if err := ts.run(gctx, gn.db, gn.sql, gn.o.afterSegment); err != nil {
				return err
			}
			ts.prog.done.Store(true)
			gn.loaded(ts.table)
			return nil
		})
	}
	// Ordered jobs run in plan order on one producer of their own, so their table's
	// stream receives them in that order (job.ordered).
	var pool, ordered []job
	for _, j := range todo {
		if j.ordered {
			ordered = append(ordered, j)
		} else {
			pool = append(pool, j)
		}
	}
	g.Go(func() error {
		for _, j := range ordered {
			if err := runJobInto(gctx, j, streams); err != nil {
				return err
			}
		}
		return nil
	})
	var next atomic.Int64
	for w := 0; w < gn.o.Workers; w++ {
		g.Go(func() error {
			for {
				i := next.Add(1) - 1
				if i >= int64(len(pool)) {
					return nil
				}
				if err := runJobInto(gctx, pool[i], streams); err != nil {
					return err
				}
			}
		})
	}
	return g.Wait()
}

// rowFormat is the database's own row format when it has one (LoadSegment takes it as
// Binary), nil for boxed rows.
func (gn generation) rowFormat() (*database.RowFormat, error) {
	if gn.o.Generic {
		return nil, nil
	}
	eng, err := database.Of(gn.db)
	if err != nil {
		return nil, err
	}
	return eng.RowFormat, nil
}

// streams makes each table's stream with a sink per segment some job still writes, and
// returns the jobs with anything left to write, in segment order.
func (gn generation) streams(format *database.RowFormat) (map[string]*tableStream, []job) {
	// Only the only process of a load that finds nothing committed may TRUNCATE its
	// tables: a shard, or a resume run by mistake beside one, would wipe what another
	// process committed.
	freeze := !gn.o.Shard.sharded() && len(gn.done.committed) == 0
	streams := map[string]*tableStream{}
	for _, t := range loadedTables() {
		streams[t.Name] = &tableStream{table: t, prog: gn.tr.table(t.Name), sinks: map[int64]*sink{}, freeze: freeze}
	}
	var todo []job
	for _, j := range segmentMajor(gn.jobs) {
		seg, any := segmentOf(j), false
		for _, name := range j.tables {
			if _, ok := gn.done.committed[segKey{name, seg}]; ok {
				continue
			}
			any = true
			ts := streams[name]
			s := ts.sinks[seg]
			if s == nil {
				s = &sink{table: ts.table, ch: make(chan chunk, sinkQueue), prog: ts.prog, format: format}
				ts.sinks[seg] = s
				ts.order = append(ts.order, seg)
			}
			s.writers.Add(1)
		}
		if any {
			todo = append(todo, j)
		}
	}
	return streams, todo
}

// runJobInto runs one job into its segment's sinks (a table whose segment was committed
// before gets its rows discarded) and tells the sinks it is done.
func runJobInto(ctx context.Context, j job, streams map[string]*tableStream) error {
	seg := segmentOf(j)
	enc := make([]rowEncoder, len(j.tables))
	to := make([]*sink, len(j.tables))
	for k, name := range j.tables {
		if to[k] = streams[name].sinks[seg]; to[k] != nil {
			enc[k] = to[k].newEncoder()
		} else {
			enc[k] = discardRows{}
		}
	}
	e := newEmitter(enc)
	e.ship = func(ctx context.Context, k int, c chunk) error { return to[k].send(ctx, c) }
	if err := j.run(ctx, e); err != nil {
		return fmt.Errorf("%s: %w", j, err)
	}
	if err := e.flush(ctx); err != nil {
		return err
	}
	for _, s := range to {
		if s != nil {
			s.done()
		}
	}
	return nil
}
