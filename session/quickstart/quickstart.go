package quickstart

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/report"
	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/load"
	"github.com/brokerbench/brokerbench/session/run"
	"github.com/brokerbench/brokerbench/session/target"
)

// The quickstart's scale: one load unit and the minimum trade days load in about
// half a minute on a laptop and still give every transaction its data.
var scale = schema.Scale{Customers: 1000, TradeDays: schema.MinTradeDays}

// Options are the options of `brokerbench quickstart`, as its flags give them.
type Options struct {
	Users  string
	Step   time.Duration
	Warmup time.Duration
	Out    string
	HTML   string
	// ServerMemory is --server-memory: "" caps the managed server at half the loaded
	// database, "0" turns the cap off.
	ServerMemory string
	// Run are the options of a `run` given no flags, which quickstart's run starts
	// from (cmd: defaultRunOptions), so its result file records a run's options.
	Run run.Options
}

// RunOptions are the options of the run quickstart makes: those of a `run` given
// the quickstart's ramp, its label, a result file named for now, and a storage
// series fine enough for 20-second steps.
func (o *Options) RunOptions(now time.Time) run.Options {
	ro := o.Run
	ro.Users, ro.Step, ro.Warmup, ro.Out = o.Users, o.Step, o.Warmup, o.Out
	ro.Label, ro.IOInterval = "quickstart", 2*time.Second
	if ro.Out == "" {
		ro.Out = "quickstart-" + now.Format("20060102-150405") + ".json"
	}
	return ro
}

// Run is `brokerbench quickstart`: the target opened (a managed PostgreSQL unless
// --db), the quickstart scale loaded unless the database holds a load, the managed
// server capped, a short ramp run, and its HTML report written.
func Run(ctx context.Context, g *session.Globals, o *Options) (retErr error) {
	ro := o.RunOptions(time.Now())
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
	// The same rule target.Open applies: --db or the PG* variables name a server
	// brokerbench does not manage. Said before the load, not after it.
	if capGiven && capBytes > 0 && (g.DB != "" || target.HasPGEnv()) {
		return target.ErrCapNeedsManaged()
	}
	say := func(format string, args ...any) { s.Logf("quickstart: "+format, args...) }

	say("1/4 database: %s", describeTarget(g))
	tgt, err := target.Open(ctx, g, s.Logf)
	if err != nil {
		return err
	}
	defer func() { retErr = tgt.CloseAfter(retErr, g.Stderr) }()

	if err := loadOnce(ctx, g, tgt, say); err != nil {
		return err
	}
	if err := capServer(ctx, tgt, capBytes, capGiven, run.Connections(slices.Max(s.Plan().Users)), say); err != nil {
		return err
	}

	say("3/4 running users %v for %s each (%s warm-up); one live line per second, one row per step", s.Plan().Users, s.Plan().Step, s.Plan().Warmup)
	res, err := s.RunOn(ctx, tgt)
	if err != nil && (res == nil || !errors.Is(err, session.ErrInterrupted)) {
		return err
	}
	runErr := err

	say("4/4 report")
	in := results.Input{Path: res.Path, Run: res.Run}
	if err := session.WriteOutput(g.Stdout, htmlPath, func(w io.Writer) error { return report.WriteReportHTML(w, in, driver.Workload()) }); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "\n%s\nHTML report: %s\nresult file: %s\n", diskReadSummary(res.Run), htmlPath, res.Path)
	if runErr != nil {
		return runErr
	}
	fmt.Fprint(g.Stdout, nextSteps(res.Path))
	return nil
}

func describeTarget(g *session.Globals) string {
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

// loadOnce loads the quickstart scale unless the database already holds a
// finished load (a kept --pgdata cluster, or a --db the user loaded before).
func loadOnce(ctx context.Context, g *session.Globals, tgt *target.Target, say func(string, ...any)) error {
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
	say("2/4 loading %d customers and %d trade days (about half a minute)", scale.Customers, scale.TradeDays)
	tr := loader.NewTracker(scale)
	stop := load.StartProgress(g.Console, tr)
	st, err := loader.Load(ctx, db, loader.Options{Scale: scale, Seed: loader.DefaultSeed, Drop: tgt.IsManaged(), ToolVersion: g.Tool}, tr)
	stop()
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w during the load", session.ErrInterrupted)
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

func nextSteps(path string) string {
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
