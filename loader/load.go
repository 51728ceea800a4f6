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
// Scale.FirstRunTradeID for run-time Trade-Orders. A run adds bb_run
// (RunHolderTable), its holder rows. Drop removes all of them, and only from a
// database that holds the marker (drop.go).
package loader

import (
	"context"
	"errors"
	"fmt"
	"time"

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

// prepare decides under the load lock what Load does (inspect) and creates the schema
// when it is to: the first of several shards creates it, the others find it.
func prepare(ctx context.Context, db database.DB, ddl database.DDL, lk database.Locker, o Options) (prepared, error) {
	unlock, err := lk.Lock(ctx, loadLock)
	if err != nil {
		return prepared{}, fmt.Errorf("take the load lock in %s: %w", db.Target(), err)
	}
	defer unlock()
	p, err := inspect(ctx, db, o)
	if err != nil || !(p.create || p.resumed) {
		return p, err
	}
	// A load that changes the schema holds the database's runs off while it does: a
	// run under way would see its tables swapped or dropped under it.
	release, err := ExcludeRuns(ctx, db)
	if err != nil {
		return p, err
	}
	defer release()
	if !p.create {
		return p, nil
	}
	if err := p.o.Scale.Validate(); err != nil { // --resume with nothing to resume loads afresh
		return p, err
	}
	if p.drop {
		if err := dropIn(ctx, db, p.dropSchema); err != nil {
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
	want[RunHolderTable] = true
	eng, err := database.Of(db)
	if err != nil {
		return nil, err
	}
	rows, err := db.Query(ctx, eng.TablesSQL("table_name", ""))
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
