package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/memcap"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/session/target"
	"github.com/brokerbench/brokerbench/txn"
)

// loadOptions are the flags of `brokerbench load`.
type loadOptions struct {
	Customers int64
	TradeDays int
	Size      string // --size: a target size on disk; picks Customers and TradeDays
	Seed      uint64
	Workers   int
	Drop      bool
	Resume    bool
	Shard     string // --shard I/N; shard is its parsed form
	shard     loader.Shard
	// scaleSet: --customers or --trade-days was given, which --size replaces;
	// seedSet: --seed was given. A resumed load refuses them when they disagree with
	// the unfinished load's marker.
	scaleSet, seedSet bool
}

func (o *loadOptions) AddFlags(c *cobra.Command) {
	f := c.Flags()
	f.Int64Var(&o.Customers, "customers", 1000, "customers to load, a multiple of 1000 (one load unit)")
	f.IntVar(&o.TradeDays, "trade-days", schema.DefaultTradeDays, fmt.Sprintf("initial trade days of history, %d to %d (TPC-E: %d)",
		schema.MinTradeDays, schema.MaxTradeDays, schema.MaxTradeDays))
	f.StringVar(&o.Size, "size", "", "target size on disk with indexes, e.g. 50GB ("+memcap.SizeUnits+"): picks customers and trade days")
	f.Uint64Var(&o.Seed, "seed", loader.DefaultSeed, "seed of the data generator; the same seed and scale give the same data")
	f.IntVar(&o.Workers, "workers", runtime.NumCPU(), "generator goroutines")
	f.BoolVar(&o.Drop, "drop", false, "drop the brokerbench load in the database first (refused without its marker, while others' objects depend on it or a run holds it)")
	f.BoolVar(&o.Resume, "resume", false, "continue an unfinished load from the segments it committed (scale and seed from its marker)")
	f.StringVar(&o.Shard, "shard", "", "load shard I of N (0-based, e.g. 1/3; a Kubernetes completion index is I): its share of the segments; the last shard to finish builds keys and indexes")
}

// parseShard reads --shard I/N.
func parseShard(s string) (loader.Shard, error) {
	i, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	idx, err1 := strconv.Atoi(i)
	cnt, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || cnt < 1 || cnt > maxShards || idx < 0 || idx >= cnt {
		return loader.Shard{}, fmt.Errorf("--shard takes I/N with 0 <= I < N <= %d (e.g. 0/3, the first of three), got %q", maxShards, s)
	}
	return loader.Shard{Index: idx, Count: cnt}, nil
}

// maxShards bounds --shard's N: more shards than that would each hold a connection
// per table for a few segments.
const maxShards = 256

// validate returns usage errors (exit 2) for values the workload cannot use.
func (o *loadOptions) validate() error {
	if o.Customers <= 0 || o.Customers%schema.LoadUnit != 0 {
		return usagef("--customers must be a positive multiple of %d, got %d", schema.LoadUnit, o.Customers)
	}
	if o.TradeDays < schema.MinTradeDays || o.TradeDays > schema.MaxTradeDays {
		return usagef("--trade-days must be %d to %d (fewer leave some transactions without time windows; TPC-E loads %d), got %d",
			schema.MinTradeDays, schema.MaxTradeDays, schema.MaxTradeDays, o.TradeDays)
	}
	if o.Size != "" {
		if o.scaleSet {
			return usagef("--size picks customers and trade days: give either --size or --customers/--trade-days")
		}
		n, err := memcap.ParseSize(o.Size)
		if err != nil {
			return usagef("--size: %v", err)
		}
		if n == 0 {
			return usagef("--size: want a size above 0, e.g. 50GB")
		}
		if strings.Trim(o.Size, "0123456789. ") == "" {
			// Bytes are a memory size's unit, never a database's: 50 is 50GB forgotten.
			return usagef("--size %s: give a unit, e.g. %sGB", o.Size, strings.TrimSpace(o.Size))
		}
	}
	if o.Workers < 1 {
		return usagef("--workers must be at least 1, got %d", o.Workers)
	}
	if o.Resume && o.Drop {
		return usagef("--resume continues the unfinished load and --drop starts over: give one of them")
	}
	if o.Shard != "" {
		sh, err := parseShard(o.Shard)
		if err != nil {
			return usagef("%v", err)
		}
		if sh.Count > 1 && o.Drop {
			return usagef("--drop with --shard would let one shard drop what another loads: drop the schema first (brokerbench schema drop)")
		}
		o.shard = sh
	}
	if o.Seed > math.MaxInt64 {
		return usagef("--seed must be below 2^63, got %d", o.Seed)
	}
	return nil
}

func newLoadCommand(g *globalOptions) *cobra.Command {
	o := &loadOptions{}
	c := &cobra.Command{
		Use:   "load",
		Short: "Create the schema and bulk-load a generated TPC-E-like brokerage database",
		Long: `load creates the 33 tables, generates their rows deterministically from --seed and streams
them in parallel through the database's bulk path, then builds indexes and foreign keys and
gathers statistics. It refuses to touch an existing brokerbench schema unless --drop is given.

Size it by --customers and --trade-days, or by --size (e.g. --size 50GB), which picks them
from sizes measured on this schema: TPC-E's 300 trade days and as many thousands of customers
as the size needs, the history shortened to stay within the size. Every load prints its plan
(customers, trade days, estimated size and time) before it starts.

A load commits in segments (a fifth of 1000 customers each). One that stopped (Ctrl-C, a lost
connection, a server restart) continues with --resume, which takes scale and seed from the
unfinished load and gives exactly the rows a clean load gives; --drop starts over instead.
--shard I/N loads shard I's share of the segments from one of N processes or machines (a
Kubernetes Indexed Job: I is the completion index): the first shard creates the schema, every
shard gets the same --customers, --trade-days and --seed, and the shard that commits the last
segment builds the keys and indexes and marks the load complete. A shard that stopped is rerun
alone with --resume.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			o.scaleSet = c.Flags().Changed("customers") || c.Flags().Changed("trade-days")
			o.seedSet = c.Flags().Changed("seed")
			if err := o.validate(); err != nil {
				return err
			}
			return runLoad(c.Context(), g, o)
		},
	}
	o.AddFlags(c)
	addServerMemoryFlag(c, &g.ServerMemory, serverMemoryUsage)
	return c
}

func runLoad(ctx context.Context, g *globalOptions, o *loadOptions) (retErr error) {
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
func openLoadDB(ctx context.Context, t *target.Target, o *loadOptions) (database.DB, error) {
	return database.Open(ctx, t.DSN, database.Options{MaxConns: loader.MaxConnections + o.Workers, AppName: "brokerbench load"})
}

// planLoad settles the load's scale and seed (from the flags, --size, or the marker
// of the load a --resume or a shard continues) and prints the plan.
func planLoad(ctx context.Context, g *globalOptions, db database.DB, o *loadOptions) (loader.Options, error) {
	model := loader.SizeModelFor(string(db.Name()))
	plan := loader.PlanFor(schema.Scale{Customers: o.Customers, TradeDays: o.TradeDays}, model)
	if o.Size != "" {
		target, _ := memcap.ParseSize(o.Size) // validated
		var err error
		if plan, err = loader.PlanForSize(target, model); err != nil {
			return loader.Options{}, usagef("--size %s: %v", o.Size, err)
		}
	}
	// Shards must all load the same data, so theirs is compared with the marker in full;
	// a resumed load only refuses the flags it was given.
	lo := loader.Options{Scale: plan.Scale, Seed: o.Seed, Workers: o.Workers, Drop: o.Drop, Resume: o.Resume, Shard: o.shard,
		ScaleGiven: o.scaleSet || o.Size != "" || o.shard.Count > 1, SeedGiven: o.seedSet || o.shard.Count > 1, ToolVersion: toolVersion()}
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
func loadAndReport(ctx context.Context, g *globalOptions, db database.DB, lo loader.Options, o *loadOptions) error {
	tr := loader.NewTracker(lo.Scale)
	stop := startProgress(g, tr)
	st, err := loader.Load(ctx, db, lo, tr)
	stop()
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w: the load was stopped and is unfinished; run %s to continue it or \"brokerbench load --drop\" to start over", errInterrupted, resumeCommand(o))
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
func resumeCommand(o *loadOptions) string {
	if o.shard.Count > 1 {
		return fmt.Sprintf("\"brokerbench load --shard %s --resume\"", o.shard)
	}
	return "\"brokerbench load --resume\""
}

// startProgress shows per-table bars on a terminal, a line every 10 s otherwise, and
// nothing with --quiet. The returned function stops it.
func startProgress(g *globalOptions, tr *loader.Tracker) func() {
	if g.Quiet {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	if f, ok := g.Stderr.(*os.File); ok && isSizedTerminal(f) {
		go func() {
			defer close(finished)
			barsProgress(f, tr, done)
		}()
	} else {
		go func() {
			defer close(finished)
			linesProgress(g.Stderr, tr, done, 10*time.Second)
		}()
	}
	return func() {
		close(done)
		<-finished
	}
}

// isSizedTerminal: bars need a terminal with a width (a pty without a size, as some
// CI runners give, renders nothing; lines work there).
func isSizedTerminal(f *os.File) bool {
	if !term.IsTerminal(int(f.Fd())) {
		return false
	}
	w, _, err := term.GetSize(int(f.Fd()))
	return err == nil && w > 0
}

func barsProgress(w io.Writer, tr *loader.Tracker, done <-chan struct{}) {
	p := mpb.New(mpb.WithOutput(w), mpb.WithWidth(40), mpb.WithRefreshRate(200*time.Millisecond))
	bars := make([]*mpb.Bar, len(tr.Tables))
	for i, t := range tr.Tables {
		bars[i] = p.AddBar(max(t.Expected, 1),
			mpb.PrependDecorators(decor.Name(fmt.Sprintf("%-19s", t.Name))),
			mpb.AppendDecorators(decor.CountersNoUnit("%d / %d")))
	}
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	update := func(final bool) {
		for i, t := range tr.Tables {
			n := t.Rows()
			if t.Done() || final {
				// Estimated tables end where they end.
				bars[i].SetTotal(max(n, 1), true)
				continue
			}
			if n >= t.Expected && !schema.RowsExact(t.Name) {
				bars[i].SetTotal(n+1, false) // an estimate was low; the bar is not done yet
			}
			bars[i].SetCurrent(n)
		}
	}
	for {
		select {
		case <-done:
			update(true)
			p.Wait()
			return
		case <-tick.C:
			update(false)
		}
	}
}

func linesProgress(w io.Writer, tr *loader.Tracker, done <-chan struct{}, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	start := time.Now()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
			var rows, exp, bytes int64
			for _, t := range tr.Tables {
				rows += t.Rows()
				exp += t.Expected
				bytes += t.Bytes()
			}
			fmt.Fprintf(w, "load: %s, %s: %d of ~%d rows (%.0f%%), %.0f MB streamed\n",
				time.Since(start).Round(time.Second), tr.Phase(), rows, exp, 100*float64(rows)/float64(max(exp, 1)), float64(bytes)/1e6)
		}
	}
}

func printLoadSummary(w io.Writer, st loader.Stats, seed uint64) {
	fmt.Fprintf(w, "%-20s %12s %10s %10s\n", "table", "rows", "heap MB", "total MB")
	// sizes renders the size columns: "-" where the database could not tell them.
	sizes := func(heap, total int64) string {
		if st.SizesUnknown != "" {
			return fmt.Sprintf("%10s %10s", "-", "-")
		}
		return fmt.Sprintf("%10.1f %10.1f", mb(heap), mb(total))
	}
	var rows, heap, total int64
	for _, t := range st.Tables {
		fmt.Fprintf(w, "%-20s %12d %s\n", t.Name, t.Rows, sizes(t.HeapBytes, t.TotalBytes))
		rows += t.Rows
		heap += t.HeapBytes
		total += t.TotalBytes
	}
	fmt.Fprintf(w, "%-20s %12d %s\n", "all", rows, sizes(heap, total))
	if st.SizesUnknown != "" {
		fmt.Fprintf(w, "sizes unknown: %s\n", st.SizesUnknown)
	}
	for _, p := range st.Phases {
		fmt.Fprintf(w, "phase %-18s %8.1f s\n", p.Name, p.Duration.Seconds())
	}
	sec := st.Elapsed.Seconds()
	if st.SizesUnknown != "" {
		fmt.Fprintf(w, "loaded in %.1f s: %.0f rows/s; seed %d\n", sec, float64(rows)/sec, seed)
		return
	}
	fmt.Fprintf(w, "loaded in %.1f s: %.0f rows/s, %.1f MB/s of table heap (%.1f MB/s with indexes); seed %d\n",
		sec, float64(rows)/sec, mb(heap)/sec, mb(total)/sec, seed)
}

// mb is bytes in MB, powers of 1,000, as the plan, the progress lines and --size
// count them.
func mb(b int64) float64 { return float64(b) / 1e6 }
