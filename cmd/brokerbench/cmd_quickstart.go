package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/session/load"
	"github.com/brokerbench/brokerbench/session/run"
	"github.com/brokerbench/brokerbench/session/target"
)

// The quickstart's scale: one load unit and the minimum trade days load in about
// half a minute on a laptop and still give every transaction its data.
var quickstartScale = schema.Scale{Customers: 1000, TradeDays: schema.MinTradeDays}

// quickstartOptions are the flags of `brokerbench quickstart`.
type quickstartOptions struct {
	Users  string
	Step   time.Duration
	Warmup time.Duration
	Out    string
	HTML   string
	// ServerMemory is --server-memory: "" caps the managed server at half the loaded
	// database, "0" turns the cap off.
	ServerMemory string
}

func (o *quickstartOptions) AddFlags(c *cobra.Command) {
	f := c.Flags()
	f.StringVar(&o.Users, "users", "2,4,8,16", "user levels of the short ramp")
	f.DurationVar(&o.Step, "step", 20*time.Second, "how long each user level runs")
	f.DurationVar(&o.Warmup, "warmup", 5*time.Second, "the unmeasured start of each step")
	f.StringVar(&o.Out, "out", "", "result file; default quickstart-<time>.json")
	f.StringVar(&o.HTML, "html", "", "HTML report; default the result file's name with .html")
	addServerMemoryFlag(c, &o.ServerMemory, "cap the managed PostgreSQL's memory, page cache included, after the load (e.g. 256MB); "+
		"default: half the loaded database (at least what the run's connections need), so the run reads from the disks; 0: no cap")
}

// runOptions are the options of the run quickstart makes: those of a `run` given
// the quickstart's ramp, its label, a result file named for now, and a storage
// series fine enough for 20-second steps.
func (o *quickstartOptions) runOptions(now time.Time) run.Options {
	ro := defaultRunOptions()
	ro.Users, ro.Step, ro.Warmup, ro.Out = o.Users, o.Step, o.Warmup, o.Out
	ro.Label, ro.IOInterval = "quickstart", 2*time.Second
	if ro.Out == "" {
		ro.Out = "quickstart-" + now.Format("20060102-150405") + ".json"
	}
	return ro
}

func newQuickstartCommand(g *globalOptions) *cobra.Command {
	o := &quickstartOptions{}
	c := &cobra.Command{
		Use:   "quickstart",
		Short: "Start a local PostgreSQL, load a small database, run a short ramp and report it",
		Long: `quickstart is the first command to try. With no --db it starts a managed local PostgreSQL
(removed afterwards, or kept in --pgdata), loads 1,000 customers and 5 trade days, ramps
2, 4, 8 and 16 users for 20 seconds each, prints the per-step table, and writes a result file
and an HTML report. It takes a few minutes. The figures are TPC-E-like, not TPC-E results.

After the load it caps the managed server's memory (page cache included) at half the
database's size, so the database is about twice the memory and the run reads from the disks
as a storage comparison needs; --server-memory sets another cap, 0 none (the cap needs root or
a delegated cgroup; without one quickstart runs uncapped and says so).`,
		Example: `  brokerbench quickstart
  brokerbench quickstart --users 4,8 --step 1m --warmup 15s
  brokerbench quickstart --pgdata /mnt/array-under-test/bbdata`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return runQuickstart(c.Context(), g, o) },
	}
	o.AddFlags(c)
	return c
}

func runQuickstart(ctx context.Context, g *globalOptions, o *quickstartOptions) (retErr error) {
	ro := o.runOptions(time.Now())
	htmlPath := o.HTML
	if htmlPath == "" {
		htmlPath = strings.TrimSuffix(ro.Out, filepath.Ext(ro.Out)) + ".html"
	}
	s, err := run.New(g, ro)
	if err != nil {
		return err
	}
	capBytes, capGiven, err := target.ParseServerMemory(o.ServerMemory, g.Engine)
	if err != nil {
		return err
	}
	// The same rule openTarget applies: --db or the PG* variables name a server
	// brokerbench does not manage. Said before the load, not after it.
	if capGiven && capBytes > 0 && (g.DB != "" || target.HasPGEnv()) {
		return target.ErrCapNeedsManaged()
	}
	say := func(format string, args ...any) { s.Logf("quickstart: "+format, args...) }

	say("1/4 database: %s", describeQuickstartTarget(g))
	tgt, err := target.Open(ctx, g, s.Logf)
	if err != nil {
		return err
	}
	defer func() { retErr = tgt.CloseAfter(retErr, g.Stderr) }()

	if err := quickstartLoad(ctx, g, tgt, say); err != nil {
		return err
	}
	if err := capQuickstartServer(ctx, tgt, capBytes, capGiven, run.Connections(slices.Max(s.Plan().Users)), say); err != nil {
		return err
	}

	say("3/4 running users %v for %s each (%s warm-up); one live line per second, one row per step", s.Plan().Users, s.Plan().Step, s.Plan().Warmup)
	res, err := s.RunOn(ctx, tgt)
	if err != nil && (res == nil || !errors.Is(err, errInterrupted)) {
		return err
	}
	runErr := err

	say("4/4 report")
	in := results.Input{Path: res.Path, Run: res.Run}
	if err := writeOutput(g.Stdout, htmlPath, func(w io.Writer) error { return results.WriteReportHTML(w, in, driver.Workload()) }); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "\n%s\nHTML report: %s\nresult file: %s\n", diskReadSummary(res.Run), htmlPath, res.Path)
	if runErr != nil {
		return runErr
	}
	fmt.Fprint(g.Stdout, quickstartNext(res.Path))
	return nil
}

func describeQuickstartTarget(g *globalOptions) string {
	switch {
	case g.DB != "":
		return database.Redact(g.DB)
	case g.Engine == target.ManagedMariaDB:
		return "a temporary managed MariaDB (removed at the end)"
	case g.PGData != "":
		return "managed PostgreSQL in " + g.PGData
	}
	return "a temporary managed PostgreSQL (removed at the end; --pgdata DIR keeps it)"
}

// quickstartLoad loads the quickstart scale unless the database already holds a
// finished load (a kept --pgdata cluster, or a --db the user loaded before).
func quickstartLoad(ctx context.Context, g *globalOptions, tgt *target.Target, say func(string, ...any)) error {
	db, err := database.Open(ctx, tgt.DSN, database.Options{MaxConns: loader.MaxConnections + 4, AppName: "brokerbench quickstart"})
	if err != nil {
		return err
	}
	defer db.Close()
	m, err := loader.ReadMarker(ctx, db)
	switch {
	case err == nil:
		say("2/4 the database already holds a load of %d customers, %d trade days (seed %d): using it", m.Scale.Customers, m.Scale.TradeDays, m.Seed)
		return nil
	case errors.Is(err, loader.ErrNoLoad):
	case errors.Is(err, loader.ErrUnfinished) && tgt.IsManaged():
		// Our own cluster with a load that was stopped: replace it.
	default:
		return err
	}
	say("2/4 loading %d customers and %d trade days (about half a minute)", quickstartScale.Customers, quickstartScale.TradeDays)
	tr := loader.NewTracker(quickstartScale)
	stop := load.StartProgress(g.Console, tr)
	st, err := loader.Load(ctx, db, loader.Options{Scale: quickstartScale, Seed: loader.DefaultSeed, Drop: tgt.IsManaged(), ToolVersion: toolVersion()}, tr)
	stop()
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w during the load", errInterrupted)
		}
		return err
	}
	var rows int64
	for _, t := range st.Tables {
		rows += t.Rows
	}
	say("loaded %d rows in %.1f s", rows, st.Elapsed.Seconds())
	return nil
}

func quickstartNext(path string) string {
	return fmt.Sprintf(`
What to try next:
  - Your own database: brokerbench load --db postgres://user@host/db --customers 5000 --trade-days 10
    then brokerbench run --db postgres://user@host/db --users 50:300:50 --step 5m --warmup 1m --label "array A" --out a.json
  - Longer, steadier steps: --step 5m --warmup 1m (short steps are noisy); --think 2.5s for many idle users.
  - Put the managed cluster on the disk under test: brokerbench quickstart --pgdata /mnt/disk/bbdata
  - Compare two runs: brokerbench compare %s b.json --html compare.html
The figures are TPC-E-like, not TPC-E results.
`, path)
}
