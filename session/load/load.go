package load

import (
	"context"
	"fmt"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/target"
	"github.com/brokerbench/brokerbench/txn"
)

// Run loads the database of g's target as o asks: it checks o (usage errors) before
// anything starts, opens the target, prints the plan, restarts a managed server with
// the load settings for the load, and prints the load's summary. An interrupted or
// broken load says how to continue it.
func Run(ctx context.Context, g *session.Globals, o *Options) (retErr error) {
	if err := o.Validate(); err != nil {
		return err
	}
	t, err := target.Open(ctx, g, g.Logf)
	if err != nil {
		return err
	}
	defer func() { retErr = t.CloseAfter(retErr, g.Stderr) }()
	db, err := openLoadDB(ctx, t, o)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := target.SupportedServer(ctx, db); err != nil {
		return err
	}
	lo, err := planLoad(ctx, g, db, o)
	if err != nil {
		return err
	}
	what := "loading"
	switch {
	case o.shard.Count > 1:
		what = fmt.Sprintf("loading shard %s of", o.shard)
	case o.Resume:
		what = "continuing the load of"
	}
	g.Logf("%s %d customers, %d trade days, seed %d, %d workers into %s", what, lo.Scale.Customers, lo.Scale.TradeDays, lo.Seed, o.Workers, t.Shown())
	if t.Managed != nil && o.shard.Count <= 1 {
		// The server restarts with the load settings: the pool reconnects after it.
		// Shards do not: one shard restarting the server would cut the others' COPYs.
		db.Close()
		end, err := t.BeginManagedLoad(ctx, g.Logf)
		if err != nil {
			return err
		}
		defer func() { retErr = end(retErr) }()
		if db, err = openLoadDB(ctx, t, o); err != nil {
			return err
		}
		defer db.Close()
	}
	return loadAndReport(ctx, g, db, lo, o)
}

// openLoadDB opens the pool a load uses: a connection per table stream besides the
// generator workers'.
func openLoadDB(ctx context.Context, t *target.Target, o *Options) (database.DB, error) {
	return database.Open(ctx, t.DSN, database.Options{MaxConns: loader.MaxConnections + o.Workers, AppName: "brokerbench load"})
}

// planLoad settles the load's scale and seed (from the flags, --size, or the marker
// of the load a --resume or a shard continues) and prints the plan.
func planLoad(ctx context.Context, g *session.Globals, db database.DB, o *Options) (loader.Options, error) {
	model := loader.SizeModelFor(string(db.Name()))
	plan := loader.PlanFor(schema.Scale{Customers: o.Customers, TradeDays: o.TradeDays}, model)
	if o.Size != "" {
		target, _ := bytesize.Parse(o.Size) // validated
		var err error
		if plan, err = loader.PlanForSize(target, model); err != nil {
			return loader.Options{}, session.Usagef("--size %s: %v", o.Size, err)
		}
	}
	// Shards must all load the same data, so theirs is compared with the marker in full;
	// a resumed load only refuses the flags it was given.
	lo := loader.Options{Scale: plan.Scale, Seed: o.Seed, Workers: o.Workers, Drop: o.Drop, Resume: o.Resume, Shard: o.shard,
		ScaleGiven: o.ScaleSet || o.Size != "" || o.shard.Count > 1, SeedGiven: o.SeedSet || o.shard.Count > 1, ToolVersion: g.Tool}
	// Refuse an existing schema, or flags that disagree with the load to continue,
	// before announcing anything: the user gets one line.
	resolved, err := loader.Preflight(ctx, db, lo)
	if err != nil {
		return loader.Options{}, err
	}
	if resolved.Scale != plan.Scale {
		plan = loader.PlanFor(resolved.Scale, model)
	}
	lo.Scale, lo.Seed = resolved.Scale, resolved.Seed
	g.Logf("%s", plan)
	return lo, nil
}

// loadAndReport runs the load with its progress display, and prints its summary or
// what the user does next when it stopped.
func loadAndReport(ctx context.Context, g *session.Globals, db database.DB, lo loader.Options, o *Options) error {
	tr := loader.NewTracker(lo.Scale)
	stop := StartProgress(g.Console, tr)
	st, err := loader.Load(ctx, db, lo, tr)
	stop()
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w: the load was stopped and is unfinished; run %s to continue it or \"brokerbench load --drop\" to start over", session.ErrInterrupted, resumeCommand(o))
		}
		// A server that went away (restart, crash, a killed session) leaves the
		// marker saying unfinished: the user is told what the next load needs.
		if database.Classify(err) == database.Connection {
			return fmt.Errorf("lost the connection to the server; the load is unfinished, run %s to continue it or \"brokerbench load --drop\" to start over: %w", resumeCommand(o), err)
		}
		return err
	}
	if st.Resumed > 0 {
		g.Logf("kept %d segments an earlier run had committed", st.Resumed)
	}
	if st.Note != "" {
		fmt.Fprintln(g.Stdout, st.Note)
		return nil
	}
	printLoadSummary(g.Stdout, st, lo.Seed)
	installRoutines(ctx, db, g.Logf)
	return nil
}

// installRoutines installs the server routines that run --frames server calls
// (docs/workload.md §13) on a database that has them. They are optional to the load:
// a login that may not create them gets a warning, and run --frames server tries
// again (or refuses) later. A server that cannot run them (MySQL) gets a note why.
func installRoutines(ctx context.Context, db database.DB, logf func(string, ...any)) {
	if msg := txn.FramesUnavailableOn(db); msg != "" {
		logf("server routines not installed: %s", msg)
		return
	}
	if err := txn.InstallRoutines(ctx, db, time.Now()); err != nil {
		logf("warning: %v; run --frames server will try again", err)
		return
	}
	logf("installed the server routines (version %d) for run --frames server", txn.RoutinesVersion)
}

// resumeCommand is the command that continues this load.
func resumeCommand(o *Options) string {
	if o.shard.Count > 1 {
		return fmt.Sprintf("\"brokerbench load --shard %s --resume\"", o.shard)
	}
	return "\"brokerbench load --resume\""
}
