// Package loader generates the brokerage database and bulk-loads it: per-table-group
// generators that are pure functions of (seed, scale, batch), an orchestrator that runs
// batches on workers and streams each table in segments, one bulk operation each, and the
// post-load steps (indexes, foreign keys, the trade-id sequence, statistics). Policy
// lives here; the mechanism (COPY, bulk copy, DDL, row encoding) in the database's
// engine (package database and its sub-packages).
//
// Besides the 33 workload tables a load writes three of brokerbench's own:
//   - bb_load (schema.LoadMarkerTable): one row with customers, trade days, seed,
//     generator version, start and completion time (NULL until the load finished),
//     tool version and workers. ReadMarker reads it; run and check take scale and
//     seed from it and refuse an unfinished load.
//   - bb_opening_balance (schema.OpeningBalanceTable): each account's balance before
//     the generated trades. CUSTOMER_ACCOUNT.ca_bal is that balance plus the sum of
//     the account's CASH_TRANSACTION.ct_amt, after the load and (because run-time
//     Trade-Results add both) after any run; check verifies it.
//   - bb_load_segment (SegmentTable): one row per committed (table, segment), written in
//     the segment's transaction; resumed and sharded loads read it (docs/load-resume.md).
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
	// Resume continues an unfinished load from its committed segments (docs/load-resume.md);
	// its scale and seed come from the marker.
	Resume bool
	// Shard, with Count above 1, loads only that shard's segments of a load that Count
	// processes share (shard.go). Shards join the unfinished load the first one created.
	Shard Shard
	// ScaleGiven and SeedGiven say Scale and Seed were chosen on purpose: a load that
	// continues or joins one whose marker records others is refused. Otherwise it takes
	// the marker's.
	ScaleGiven, SeedGiven bool
	// afterSegment, when set, hears of every segment this load commits (tests stop
	// loads with it).
	afterSegment func(table string, seg int64)
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
	Tables []TableStat
	// SizesUnknown, when set, says why the tables' sizes are 0: the database could
	// not report them (docs/sqlserver.md §7).
	SizesUnknown string
	Phases       []PhaseTime
	Elapsed      time.Duration
	// Resumed counts this process's segments (a shard's own) that an earlier run had
	// committed, which it kept.
	Resumed int
	// Note, when set, says why this process ended without finishing the load (a shard
	// that leaves the post-load to another, or finds the load complete); Tables is then
	// empty.
	Note string
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

// Load creates the schema (or continues an unfinished load, Options.Resume and
// Options.Shard), generates and streams every table segment by segment, and runs the
// post-load steps. tr (from NewTracker) reports progress; it may be nil.
func Load(ctx context.Context, db database.DB, o Options, tr *Tracker) (Stats, error) {
	var st Stats
	if o.Workers <= 0 {
		o.Workers = runtime.NumCPU()
	}
	if o.Shard.sharded() && (o.Shard.Index < 0 || o.Shard.Index >= o.Shard.Count) {
		return st, fmt.Errorf("shard %s: the index must be 0 to %d", o.Shard, o.Shard.Count-1)
	}
	if o.Shard.sharded() && o.Drop {
		return st, errors.New("a shard cannot drop the schema: another shard may be loading it; drop it first (brokerbench schema drop)")
	}
	// A fresh load creates the schema from o.Scale, so it must be valid first; a resumed
	// one may leave it out and take the marker's.
	if !o.Resume || o.ScaleGiven {
		if err := o.Scale.Validate(); err != nil {
			return st, err
		}
	}
	eng, err := database.Of(db)
	if err != nil {
		return st, err
	}
	lk, okLock := db.(database.Locker)
	if _, okSeg := db.(database.SegmentLoader); !okLock || !okSeg {
		return st, fmt.Errorf("%s cannot load in segments", eng.Product)
	}
	ddl := eng.DDL
	start := time.Now()
	phaseTracker := tr
	if phaseTracker == nil {
		phaseTracker = &Tracker{}
	}
	phase := func(name string, fn func() error) error {
		phaseTracker.setPhase(name)
		t0 := time.Now()
		err := fn()
		st.Phases = append(st.Phases, PhaseTime{Name: name, Duration: time.Since(t0)})
		return err
	}

	var prep prepared
	if err := phase(PhaseCreate, func() (err error) { prep, err = prepare(ctx, db, ddl, lk, o); return err }); err != nil {
		return st, err
	}
	if prep.complete {
		st.Note = fmt.Sprintf("shard %s: the load in %s is complete", o.Shard, db.Target())
		st.Elapsed = time.Since(start)
		return st, nil
	}
	o = prep.o
	if err := o.Scale.Validate(); err != nil {
		return st, err
	}
	if tr == nil {
		tr = NewTracker(o.Scale)
		tr.setPhase(phaseTracker.Phase())
		phaseTracker = tr
	}
	all := plan(newKeyspace(o.Scale, o.Seed))
	planned := plannedSegments(all)
	mine := jobsFor(all, o.Scale, o.Shard)
	st.Resumed = prep.progress.count(plannedSegments(mine))
	for name, n := range prep.progress.tableRows() {
		if p := tr.table(name); p != nil {
			p.add(n, 0)
		}
	}
	// One process loads the whole database: keys and indexes of a table are built as
	// soon as its last segment commits. Shards leave all of it to the post-load.
	var post *postLoader
	loaded := func(schema.Table) {}
	if !o.Shard.sharded() {
		post = newPostLoader(ctx, db, ddl, o)
		defer post.abort()
		if prep.resumed {
			if post.cat, err = readCatalog(ctx, db); err != nil {
				return st, err
			}
		}
		loaded = post.tableLoaded
	}
	if err := phase(PhaseGenerate, func() error {
		return generate(ctx, db, mine, prep.progress, o, tr, loaded, eng.SQL)
	}); err != nil {
		return st, fmt.Errorf("generate and copy: %w", err)
	}
	if o.Shard.sharded() {
		claimed, note, err := claimPostLoad(ctx, db, lk, eng.SQL, o, planned)
		if err != nil || !claimed {
			st.Note, st.Elapsed = note, time.Since(start)
			return st, err
		}
		post = newPostLoader(ctx, db, ddl, o)
		defer post.abort()
		if post.cat, err = readCatalog(ctx, db); err != nil {
			return st, err
		}
		for _, t := range loadedTables() {
			post.tableLoaded(t)
		}
	}
	// The counts come from the database's record of every segment, whoever loaded it.
	pr, err := readProgress(ctx, db)
	if err != nil {
		return st, err
	}
	if missing := len(planned) - pr.count(planned); missing > 0 {
		return st, fmt.Errorf("%d of %d segments are not in the database after the load", missing, len(planned))
	}
	rows := pr.tableRows()
	for _, p := range tr.Tables {
		p.rows.Store(rows[p.Name])
	}
	if err := verifyCounts(o.Scale, tr); err != nil {
		return st, err
	}
	if err := phase(PhaseIndex, post.finish); err != nil {
		return st, fmt.Errorf("indexes and keys: %w", err)
	}
	if err := phase(PhaseFreeze, func() error { return freezeTables(ctx, db, o, planned, prep.resumed) }); err != nil {
		return st, fmt.Errorf("freeze: %w", err)
	}
	if err := phase(PhaseAnalyze, func() error { return analyze(ctx, db, o.Workers) }); err != nil {
		return st, fmt.Errorf("analyze: %w", err)
	}
	if _, err := db.Exec(ctx, "UPDATE "+schema.LoadMarkerTable+" SET completed_at = CURRENT_TIMESTAMP WHERE load_id = 1"); err != nil {
		return st, fmt.Errorf("mark the load complete: %w", err)
	}
	tr.setPhase("done")
	st.Elapsed = time.Since(start)
	st.Tables, st.SizesUnknown, err = tableStats(ctx, db, tr)
	return st, err
}

// prepare decides under the load lock what Load does (inspect) and creates the schema
// when it is to: the first of several shards creates it, the others find it.
func prepare(ctx context.Context, db database.DB, ddl database.DDL, lk database.Locker, o Options) (prepared, error) {
	unlock, err := lk.Lock(ctx, loadLock)
	if err != nil {
		return prepared{}, fmt.Errorf("take the load lock in %s: %w", db.Target(), err)
	}
	defer unlock()
	p, err := inspect(ctx, db, o)
	if err != nil || !p.create {
		return p, err
	}
	if err := p.o.Scale.Validate(); err != nil { // --resume with nothing to resume loads afresh
		return p, err
	}
	if p.drop {
		if err := Drop(ctx, db); err != nil {
			return p, err
		}
	}
	return p, create(ctx, db, ddl, p.o)
}

// create creates every table (the workload's without their keys where the database
// bulk-loads faster so, brokerbench's own with theirs) and records the load's
// parameters in the marker.
func create(ctx context.Context, db database.DB, ddl database.DDL, o Options) error {
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
	if _, err := db.Exec(ctx, ddl.CreateTable(segmentTable())); err != nil {
		return fmt.Errorf("create table %s: %w", SegmentTable, err)
	}
	return writeMarker(ctx, db, o)
}

// generate runs jobs on o.Workers goroutines and streams each table's segments, one
// bulk operation per segment (tableStream), skipping the segments done committed
// before; loaded hears of every table whose segments this call leaves all committed
// (those it had nothing to do for at once).
func generate(ctx context.Context, db database.DB, jobs []job, done progress, o Options, tr *Tracker, loaded func(schema.Table), sql func(string) string) error {
	// The database's own row format when it has one (LoadSegment takes it as Binary).
	var format *database.RowFormat
	if !o.Generic {
		eng, err := database.Of(db)
		if err != nil {
			return err
		}
		format = eng.RowFormat
	}
	// Only the only process of a load that finds nothing committed may TRUNCATE its
	// tables: a shard, or a resume run by mistake beside one, would wipe what another
	// process committed.
	freeze := !o.Shard.sharded() && len(done.committed) == 0
	streams := map[string]*tableStream{}
	for _, t := range loadedTables() {
		streams[t.Name] = &tableStream{table: t, prog: tr.table(t.Name), sinks: map[int64]*sink{}, freeze: freeze}
	}
	jobs = segmentMajor(jobs)
	var todo []job
	for _, j := range jobs {
		seg, any := segmentOf(j), false
		for _, name := range j.tables {
			if _, ok := done.committed[segKey{name, seg}]; ok {
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
	g, gctx := errgroup.WithContext(ctx)
	for _, ts := range streams {
		if len(ts.order) == 0 {
			ts.prog.done.Store(true)
			loaded(ts.table) // committed before, or no job writes it (trade_request)
			continue
		}
		g.Go(func() error {
			if err := ts.run(gctx, db, sql, o.afterSegment); err != nil {
				return err
			}
			ts.prog.done.Store(true)
			loaded(ts.table)
			return nil
		})
	}
	runJob := func(j job) error {
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
		if err := j.run(gctx, e); err != nil {
			return fmt.Errorf("%s: %w", j, err)
		}
		if err := e.flush(gctx); err != nil {
			return err
		}
		for _, s := range to {
			if s != nil {
				s.done()
			}
		}
		return nil
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
	return g.Wait()
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

// Preflight checks, without changing anything, what Load would do with o: it refuses
// an existing schema (ErrSchemaExists, naming --drop), an unfinished load without
// Resume (ErrUnfinished, naming --resume and --drop, with the segments committed) and
// a continuation whose flags disagree with the marker (ErrMarkerMismatch). It returns
// o with the scale and seed Load will use. Commands call it to fail before announcing
// a load.
func Preflight(ctx context.Context, db database.DB, o Options) (Options, error) {
	p, err := inspect(ctx, db, o)
	return p.o, err
}

// ExistingTables returns which of brokerbench's tables exist in the database.
func ExistingTables(ctx context.Context, db database.DB) ([]string, error) {
	want := map[string]bool{}
	for _, t := range append(schema.Tables(), schema.MetaTables()...) {
		want[t.Name] = true
	}
	want[SegmentTable] = true
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
	all := append(append(schema.Tables(), schema.MetaTables()...), segmentTable())
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
