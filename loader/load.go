// Package loader generates the brokerage database and bulk-loads it: per-table-group
// generators that are pure functions of (seed, scale, batch), an orchestrator that runs
// batches on workers and streams each table through one bulk operation, and the
// post-load steps (indexes, foreign keys, the trade-id sequence, statistics). Policy
// lives here; the mechanism (COPY, bulk copy, DDL, row encoding) in the database's
// engine (package database and its sub-packages).
//
// Besides the 33 workload tables a load writes two of brokerbench's own:
//   - bb_load (schema.LoadMarkerTable): one row with customers, trade days, seed,
//     generator version, start and completion time (NULL until the load finished),
//     tool version and workers. ReadMarker reads it; run and check take scale and
//     seed from it and refuse an unfinished load.
//   - bb_opening_balance (schema.OpeningBalanceTable): each account's balance before
//     the generated trades. CUSTOMER_ACCOUNT.ca_bal is that balance plus the sum of
//     the account's CASH_TRANSACTION.ct_amt, after the load and (because run-time
//     Trade-Results add both) after any run; check verifies it.
//
// and the sequence seq_trade_id (schema.TradeIDSequence), which starts at
// Scale.FirstRunTradeID for run-time Trade-Orders.
package loader

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// DefaultSeed is the seed of a load that names none: fixed, so two loads at the same
// scale hold the same data.
const DefaultSeed uint64 = 20050103

// MaxConnections is the pool size a load needs: one connection per table stream plus a
// few for the orchestrator. Open the database with at least this many.
const MaxConnections = 48

// Options describe a load.
type Options struct {
	Scale   schema.Scale
	Seed    uint64
	Workers int // generator goroutines; 0: the number of cores
	// Drop replaces an existing schema; without it Load refuses to touch one.
	Drop bool
	// ToolVersion is recorded in the marker.
	ToolVersion string
	// Generic disables the database's fast paths (tests use it to cover the generic path).
	Generic bool
}

// Phase names, in order, as the summary prints them.
const (
	PhaseCreate   = "create"
	PhaseGenerate = "generate and copy"
	PhaseIndex    = "indexes and keys"
	PhaseAnalyze  = "analyze"
)

// Stats summarise a finished load.
type Stats struct {
	Tables  []TableStat
	Phases  []PhaseTime
	Elapsed time.Duration
}

// TableStat is one table after the load.
type TableStat struct {
	Name string
	Rows int64
	// HeapBytes is the table's size on disk without indexes (heap and TOAST), and
	// TotalBytes with them; both 0 when the database cannot say.
	HeapBytes, TotalBytes int64
}

// PhaseTime is how long a phase took.
type PhaseTime struct {
	Name     string
	Duration time.Duration
}

// ErrSchemaExists is returned when tables are present and Options.Drop is false.
var ErrSchemaExists = errors.New("schema already present")

// ErrUnfinished is returned when a previous load did not finish and Drop is false.
var ErrUnfinished = errors.New("unfinished load")

// Load creates the schema, generates and streams every table, and runs the post-load
// steps. tr (from NewTracker) reports progress; it may be nil.
func Load(ctx context.Context, db database.DB, o Options, tr *Tracker) (Stats, error) {
	var st Stats
	if err := o.Scale.Validate(); err != nil {
		return st, err
	}
	if o.Workers <= 0 {
		o.Workers = runtime.NumCPU()
	}
	if tr == nil {
		tr = NewTracker(o.Scale)
	}
	eng, err := database.Of(db)
	if err != nil {
		return st, err
	}
	ddl := eng.DDL
	start := time.Now()
	phase := func(name string, fn func() error) error {
		tr.setPhase(name)
		t0 := time.Now()
		err := fn()
		st.Phases = append(st.Phases, PhaseTime{Name: name, Duration: time.Since(t0)})
		return err
	}

	if err := phase(PhaseCreate, func() error { return create(ctx, db, ddl, o) }); err != nil {
		return st, err
	}
	ks := newKeyspace(o.Scale, o.Seed)
	post := newPostLoader(ctx, db, ddl, o)
	defer post.abort()
	if err := phase(PhaseGenerate, func() error { return generate(ctx, db, plan(ks), o, tr, post.tableLoaded) }); err != nil {
		return st, fmt.Errorf("generate and copy: %w", err)
	}
	if err := verifyCounts(o.Scale, tr); err != nil {
		return st, err
	}
	if err := phase(PhaseIndex, post.finish); err != nil {
		return st, fmt.Errorf("indexes and keys: %w", err)
	}
	if err := phase(PhaseAnalyze, func() error { return analyze(ctx, db, o.Workers) }); err != nil {
		return st, fmt.Errorf("analyze: %w", err)
	}
	if _, err := db.Exec(ctx, "UPDATE "+schema.LoadMarkerTable+" SET completed_at = CURRENT_TIMESTAMP WHERE load_id = 1"); err != nil {
		return st, fmt.Errorf("mark the load complete: %w", err)
	}
	tr.setPhase("done")
	st.Elapsed = time.Since(start)
	st.Tables, err = tableStats(ctx, db, tr)
	return st, err
}

// create checks for an existing schema, drops it when asked, creates every table with
// its primary key and records the load's parameters in the marker.
func create(ctx context.Context, db database.DB, ddl database.DDL, o Options) error {
	present, err := Preflight(ctx, db, o.Drop)
	if err != nil {
		return err
	}
	if present {
		if err := Drop(ctx, db); err != nil {
			return err
		}
	}
	kd, deferKeys := ddl.(database.KeyDeferrer)
	deferKeys = deferKeys && !o.Generic
	for _, t := range append(schema.Tables(), schema.MetaTables()...) {
		stmt := ddl.CreateTable(t)
		if deferKeys && t.Name != schema.LoadMarkerTable {
			stmt = kd.CreateTableWithoutKey(t)
		}
		if _, err := db.Exec(ctx, stmt); err != nil {
			return fmt.Errorf("create table %s: %w", t.Name, err)
		}
	}
	return writeMarker(ctx, db, o)
}

// generate runs the jobs on o.Workers goroutines and streams each table through its
// sink; loaded (may be nil) hears of every table as its stream commits, and of the
// tables no job writes once all streams are done.
func generate(ctx context.Context, db database.DB, jobs []job, o Options, tr *Tracker, loaded func(schema.Table)) error {
	if loaded == nil {
		loaded = func(schema.Table) {}
	}
	// The database's own row format when it has one and a pool that takes it.
	var format *database.RowFormat
	if _, ok := db.(database.BinaryCopier); ok && !o.Generic {
		eng, err := database.Of(db)
		if err != nil {
			return err
		}
		format = eng.RowFormat
	}
	sinks := map[string]*sink{}
	for _, t := range loadedTables() {
		sinks[t.Name] = &sink{table: t, ch: make(chan chunk, sinkQueue), prog: tr.table(t.Name), format: format}
	}
	for _, j := range jobs {
		for _, name := range j.tables {
			sinks[name].writers.Add(1)
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	var empty []schema.Table
	for _, s := range sinks {
		if s.writers.Load() == 0 {
			empty = append(empty, s.table) // trade_request: empty after load
			continue
		}
		g.Go(func() error {
			n, err := s.run(gctx, db)
			if err != nil {
				return fmt.Errorf("load %s: %w", s.table.Name, err)
			}
			if n != s.prog.Rows() {
				return fmt.Errorf("load %s: the database took %d rows of the %d sent", s.table.Name, n, s.prog.Rows())
			}
			s.prog.done.Store(true)
			loaded(s.table)
			return nil
		})
	}
	runJob := func(j job) error {
		enc := make([]rowEncoder, len(j.tables))
		for k, name := range j.tables {
			enc[k] = sinks[name].newEncoder()
		}
		e := newEmitter(enc)
		e.ship = func(ctx context.Context, k int, c chunk) error { return sinks[j.tables[k]].send(ctx, c) }
		if err := j.run(gctx, e); err != nil {
			return fmt.Errorf("%s: %w", j, err)
		}
		if err := e.flush(gctx); err != nil {
			return err
		}
		for _, name := range j.tables {
			sinks[name].done()
		}
		return nil
	}
	// Ordered jobs run in plan order on one producer of their own, so their table's
	// single stream receives them in that order (job.ordered).
	var pool, ordered []job
	for _, j := range jobs {
		if j.ordered {
			ordered = append(ordered, j)
		} else {
			pool = append(pool, j)
		}
	}
	g.Go(func() error {
		for _, j := range ordered {
			if err := runJob(j); err != nil {
				return err
			}
		}
		return nil
	})
	var next atomic.Int64
	for w := 0; w < o.Workers; w++ {
		g.Go(func() error {
			for {
				i := next.Add(1) - 1
				if i >= int64(len(pool)) {
					return nil
				}
				if err := runJob(pool[i]); err != nil {
					return err
				}
			}
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for _, t := range empty {
		loaded(t)
	}
	return nil
}

// verifyCounts checks the tables whose cardinality the scale fixes (docs/workload.md §3.1)
// against what was streamed: a mismatch is a generator bug, caught before any index
// is built on wrong data.
func verifyCounts(sc schema.Scale, tr *Tracker) error {
	for _, p := range tr.Tables {
		if schema.RowsExact(p.Name) && p.Rows() != p.Expected {
			return fmt.Errorf("verify row counts: %s has %d rows, the scale requires %d", p.Name, p.Rows(), p.Expected)
		}
	}
	return nil
}

// Preflight reports whether brokerbench tables exist in db, and refuses (ErrSchemaExists
// or ErrUnfinished, naming --drop) when they do and drop is false. Load runs it first;
// commands call it to fail before announcing a load.
func Preflight(ctx context.Context, db database.DB, drop bool) (present bool, err error) {
	tables, err := ExistingTables(ctx, db)
	if err != nil || len(tables) == 0 {
		return false, err
	}
	if !drop {
		if _, err := ReadMarker(ctx, db); errors.Is(err, ErrUnfinished) {
			return true, err
		}
		return true, fmt.Errorf("%w in %s (%d tables, e.g. %s); pass --drop to replace it", ErrSchemaExists, db.Target(), len(tables), tables[0])
	}
	return true, nil
}

// ExistingTables returns which of brokerbench's tables exist in the database.
func ExistingTables(ctx context.Context, db database.DB) ([]string, error) {
	want := map[string]bool{}
	for _, t := range append(schema.Tables(), schema.MetaTables()...) {
		want[t.Name] = true
	}
	rows, err := db.Query(ctx, "SELECT table_name FROM information_schema.tables")
	if err != nil {
		return nil, fmt.Errorf("list tables in %s: %w", db.Target(), err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		if want[n] {
			out = append(out, n)
		}
	}
	return out, rows.Err()
}

// Drop removes the workload's tables, brokerbench's own tables and the trade-id
// sequence.
func Drop(ctx context.Context, db database.DB) error {
	eng, err := database.Of(db)
	if err != nil {
		return err
	}
	ddl := eng.DDL
	all := append(schema.Tables(), schema.MetaTables()...)
	for i := len(all) - 1; i >= 0; i-- { // referencing tables first
		if _, err := db.Exec(ctx, ddl.DropTable(all[i])); err != nil {
			return fmt.Errorf("drop table %s: %w", all[i].Name, err)
		}
	}
	if _, err := db.Exec(ctx, ddl.DropSequence(schema.TradeIDSequence)); err != nil {
		return fmt.Errorf("drop sequence %s: %w", schema.TradeIDSequence, err)
	}
	return nil
}
