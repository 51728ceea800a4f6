package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"
	"golang.org/x/term"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/driver/iostat"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/schema/rnd"
	"github.com/brokerbench/brokerbench/txn"
)

// runOptions are the flags of `brokerbench run`; --config sets the same names.
type runOptions struct {
	Users       string
	Step        time.Duration
	Warmup      time.Duration
	Think       time.Duration
	Rate        float64
	Connections int
	MEEWorkers  int
	Seed        uint64
	Label       string
	Tags        []string
	Out         string
	MetricsAddr string
	Config      string
	NoCheck     bool
	IODevices   []string
	IONodeExp   string
	IOInterval  time.Duration
}

func (o *runOptions) AddFlags(c *cobra.Command) {
	f := c.Flags()
	f.StringVar(&o.Users, "users", "50:300:50", "user levels: a list (10,50,100,300) or a range FROM:TO:STEP (50:300:50)")
	f.DurationVar(&o.Step, "step", 5*time.Minute, "how long each user level runs")
	f.DurationVar(&o.Warmup, "warmup", time.Minute, "the first part of each step, excluded from its figures")
	f.DurationVar(&o.Think, "think", 0, "each user's mean think time between transactions (exponential, truncated at 10x); 0: none")
	f.Float64Var(&o.Rate, "rate", 0, "target customer transaction starts per second for all users together (open loop; late starts count in the response times); 0: as fast as the users go")
	f.IntVar(&o.Connections, "connections", 0, "the users' connection pool size; 0: one per user at the highest level (the market emulator and the timer have their own --mee-workers + 1 connections)")
	f.IntVar(&o.MEEWorkers, "mee-workers", 0, "market-exchange emulator workers (each with its own connection) for Trade-Result and Market-Feed; 0: one per three users at the highest level, 8 to 64")
	f.Uint64Var(&o.Seed, "seed", 0, "seed of the transaction inputs; 0: the load's seed (same inputs for the same database)")
	f.StringVar(&o.Label, "label", "", "the run's name in reports and comparisons, e.g. \"H810 RAID10\"")
	f.StringArrayVar(&o.Tags, "tag", nil, "a `key=value` stored with the run (controller, raid, cache, disks); repeatable")
	f.StringVar(&o.Out, "out", "", "result file (JSON, rewritten after every step); default brokerbench-<time>.json")
	f.StringVar(&o.MetricsAddr, "metrics-addr", "", "serve Prometheus metrics at this address (\":9090\" binds 127.0.0.1:9090; give a host to listen elsewhere)")
	f.StringVar(&o.Config, "config", "", "YAML `file` of run options with the flags' names (users: 50:300:50, step: 5m, tag: [raid=10]); flags given on the command line win")
	f.BoolVar(&o.NoCheck, "no-check", false, "skip the consistency check after the run")
	f.StringArrayVar(&o.IODevices, "io-device", nil, "block device to sample (NAME or NAME=ROLE, role data, wal or data+wal); repeatable; default: the devices under the database's data directory")
	f.StringVar(&o.IONodeExp, "io-node-exporter", "", "sample a remote database host's disks from its node_exporter `URL`")
	f.DurationVar(&o.IOInterval, "io-interval", iostat.DefaultInterval, "period of the storage time series")
}

func newRunCommand(g *globalOptions) *cobra.Command {
	o := &runOptions{}
	c := &cobra.Command{
		Use:   "run",
		Short: "Ramp users through the TPC-E-like workload and measure each step",
		Long: `run drives a loaded database: users run the customer transaction mix, a market-exchange
emulator completes their trades (Trade-Result, Market-Feed), Data-Maintenance runs every minute.
Each user level of --users runs for --step; the first --warmup of each step is not measured.
After every step its row is printed and the result file is rewritten, so an interrupted run
(Ctrl-C) keeps its finished steps. Response times run from each transaction's intended start,
service times from its first statement. The figures are TPC-E-like, not TPC-E results.`,
		Example: `  brokerbench run --db postgres://bench@dbhost/bench --users 50:300:50 --step 5m --warmup 1m \
      --label "H810 RAID10" --tag controller=H810 --tag raid=10 --out h810.json
  brokerbench run --users 10 --think 2.5s --rate 200 --step 2m --warmup 20s
  brokerbench run --config run.yaml --label "H800 RAID5"`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if o.Config != "" {
				if err := applyConfigFile(c, o.Config); err != nil {
					return err
				}
			}
			return runRun(c.Context(), g, o, c)
		},
	}
	o.AddFlags(c)
	addServerMemoryFlag(c, &g.ServerMemory, serverMemoryUsage)
	return c
}

// runPlan checks the options and turns them into the driver's plan (usage errors).
func (o *runOptions) plan() (driver.Plan, error) {
	users, err := driver.ParseUsers(o.Users)
	if err != nil {
		return driver.Plan{}, usageError{err}
	}
	p := driver.Plan{Users: users, Step: o.Step, Warmup: o.Warmup}
	if err := p.Validate(); err != nil {
		return p, usageError{err}
	}
	switch {
	case o.Rate < 0:
		return p, usagef("--rate must not be negative, got %g", o.Rate)
	case o.Think < 0:
		return p, usagef("--think must not be negative, got %s", o.Think)
	case o.Connections < 0:
		return p, usagef("--connections must not be negative, got %d", o.Connections)
	case o.MEEWorkers < 0:
		return p, usagef("--mee-workers must not be negative, got %d", o.MEEWorkers)
	case o.IOInterval <= 0:
		return p, usagef("--io-interval must be positive, got %s", o.IOInterval)
	}
	if err := checkListenAddr(o.MetricsAddr); err != nil {
		return p, err
	}
	return p, nil
}

// checkListenAddr refuses a --metrics-addr that can never be bound before anything
// starts: a typo must not cost a connection or a managed server's start first.
func checkListenAddr(addr string) error {
	if addr == "" {
		return nil
	}
	_, port, err := net.SplitHostPort(metricsListenAddr(addr))
	if err != nil {
		return usagef("--metrics-addr %q: want HOST:PORT or :PORT", addr)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return usagef("--metrics-addr %q: port %q is not a number from 0 to 65535", addr, port)
	}
	return nil
}

func parseTags(tags []string) (map[string]string, error) {
	if len(tags) == 0 {
		return nil, nil
	}
	m := map[string]string{}
	for _, t := range tags {
		k, v, ok := strings.Cut(t, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, usagef("--tag %q: want key=value", t)
		}
		m[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return m, nil
}

// applyConfigFile sets every flag the YAML file names, unless the command line gave
// it. An unknown key is a usage error: a typo must not silently run the defaults.
func applyConfigFile(c *cobra.Command, path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return usagef("--config: %v", err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		return usagef("--config %s: %v", path, err)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		f := c.Flags().Lookup(k)
		if f == nil {
			f = c.InheritedFlags().Lookup(k)
		}
		if f == nil || k == "config" {
			return usagef("--config %s: unknown option %q (the file takes the flags' names, e.g. users, step, warmup, label, tag)", path, k)
		}
		if f.Changed {
			continue
		}
		if err := setFlagFromYAML(f, m[k]); err != nil {
			return usagef("--config %s: %s: %v", path, k, err)
		}
	}
	return nil
}

func setFlagFromYAML(f *pflag.Flag, v any) error {
	repeatable := strings.HasSuffix(f.Value.Type(), "Array") || strings.HasSuffix(f.Value.Type(), "Slice")
	var vals []string
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			vals = append(vals, fmt.Sprint(e))
		}
		if !repeatable {
			vals = []string{strings.Join(vals, ",")}
		}
	case map[string]any:
		if !repeatable {
			return errors.New("takes one value, not a map")
		}
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range x {
				if !yield(k) {
					return
				}
			}
		}) {
			vals = append(vals, k+"="+fmt.Sprint(x[k]))
		}
	case nil:
		return nil
	default:
		vals = []string{fmt.Sprint(x)}
	}
	for _, s := range vals {
		if err := f.Value.Set(s); err != nil {
			return err
		}
	}
	f.Changed = true
	return nil
}

// metricsListenAddr binds loopback when only a port is given.
func metricsListenAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		if !strings.Contains(addr, ":") {
			return net.JoinHostPort("127.0.0.1", addr)
		}
		return addr
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// runOptionsMap is every run option for the result file, the DSN without password.
func runOptionsMap(c *cobra.Command, shownDB string) map[string]any {
	out := map[string]any{}
	visit := func(f *pflag.Flag) {
		switch {
		case f.Name == "db":
			out["db"] = shownDB
		case strings.HasSuffix(f.Value.Type(), "Array"):
			if sv, ok := f.Value.(pflag.SliceValue); ok {
				out[f.Name] = sv.GetSlice()
			}
		default:
			out[f.Name] = f.Value.String()
		}
	}
	c.Flags().VisitAll(visit)
	c.InheritedFlags().VisitAll(visit)
	delete(out, "help")
	return out
}

// liveWriter prints the live line: rewritten in place on a terminal, plain lines
// otherwise (logs, CI), nothing when quiet.
type liveWriter struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	quiet bool
	shown bool
}

func newLiveWriter(g *globalOptions) *liveWriter {
	lw := &liveWriter{w: g.Stderr, quiet: g.Quiet}
	if f, ok := g.Stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		lw.tty = true
	}
	return lw
}

func (l *liveWriter) line(s string) {
	if l.quiet {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tty {
		// A line wider than the terminal wraps, and \r would then leave its
		// first part behind on every redraw.
		if f, ok := l.w.(*os.File); ok {
			if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 1 && len(s) >= w {
				s = s[:w-1]
			}
		}
		fmt.Fprintf(l.w, "\r\033[K%s", s)
		l.shown = true
		return
	}
	fmt.Fprintln(l.w, s)
}

// clear removes the live line before other output.
func (l *liveWriter) clear() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tty && l.shown {
		fmt.Fprint(l.w, "\r\033[K")
		l.shown = false
	}
}

func (l *liveWriter) logf(format string, args ...any) {
	if l.quiet {
		return
	}
	l.clear()
	l.mu.Lock()
	fmt.Fprintf(l.w, format+"\n", args...)
	l.mu.Unlock()
}

// ioAdapter gives the driver its view of the I/O sampler. It keeps the last closed
// window's cache hit ratio for OnStep, which the driver calls right after closing it.
type ioAdapter struct {
	s        *iostat.Sampler
	hitRatio *float64
}

func (a *ioAdapter) Begin() func(txns, commits int64) *results.StepIO {
	m := a.s.Mark()
	return func(txns, commits int64) *results.StepIO {
		end := a.s.Mark()
		a.hitRatio = nil
		if r, ok := a.s.HitRatio(m, end); ok {
			a.hitRatio = &r
		}
		return a.s.Window(m, end, txns, commits)
	}
}

func (a *ioAdapter) Live() (results.IOFigures, bool) {
	f := a.s.Live()
	return f, a.s.Source() != iostat.SourceNone
}

// runResult is what a finished (or interrupted) run hands back to quickstart.
type runResult struct {
	Path string
	Run  *results.Run
}

func runRun(ctx context.Context, g *globalOptions, o *runOptions, c *cobra.Command) error {
	_, err := runRunResult(ctx, g, o, c)
	return err
}

func runRunResult(ctx context.Context, g *globalOptions, o *runOptions, c *cobra.Command) (*runResult, error) {
	plan, err := o.plan()
	if err != nil {
		return nil, err
	}
	tags, err := parseTags(o.Tags)
	if err != nil {
		return nil, err
	}
	lw := newLiveWriter(g)
	tgt, err := openTarget(ctx, g, lw.logf)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err := tgt.Close(); err != nil {
			fmt.Fprintf(g.Stderr, "brokerbench: stop managed PostgreSQL: %v\n", err)
		}
	}()
	return runOnTarget(ctx, g, o, c, tgt, lw, plan, tags)
}

// runOnTarget runs the plan against an open target (quickstart brings its own).
func runOnTarget(ctx context.Context, g *globalOptions, o *runOptions, c *cobra.Command, tgt *target, lw *liveWriter, plan driver.Plan, tags map[string]string) (*runResult, error) {
	out := o.Out
	if out == "" {
		out = "brokerbench-" + time.Now().Format("20060102-150405") + ".json"
	}
	conns := o.Connections
	if conns == 0 {
		conns = plan.MaxUsers()
	}
	if o.MEEWorkers == 0 {
		o.MEEWorkers = driver.MEEWorkersFor(plan.MaxUsers())
	}
	db, err := database.Open(ctx, tgt.DSN, database.Options{MaxConns: conns, AppName: "brokerbench run"})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	// The emulator and the timer get their own pool: queued users must never starve
	// the Trade-Results (with 10,000 users on 100 connections they would).
	marketDB, err := database.Open(ctx, tgt.DSN, database.Options{MaxConns: o.MEEWorkers + 1, AppName: "brokerbench market"})
	if err != nil {
		return nil, err
	}
	defer marketDB.Close()
	marker, err := loader.ReadMarker(ctx, db)
	if err != nil {
		return nil, err
	}
	sqlStmts, err := txn.StatementsFor(db.Name())
	if err != nil {
		return nil, err
	}
	srv, err := db.Server(ctx)
	if err != nil {
		return nil, fmt.Errorf("describe the server at %s: %w", db.Target(), err)
	}
	seed := o.Seed
	if seed == 0 {
		seed = marker.Seed
	}

	run := &results.Run{
		Format: results.FormatVersion, Label: o.Label, Tags: tags,
		Database: results.Database{Product: srv.Product, Version: srv.Version, Edition: srv.Edition, Settings: srv.Settings, Managed: tgt.Managed != nil},
		Scale:    results.Scale{Customers: marker.Scale.Customers, TradeDays: marker.Scale.TradeDays},
		Seed:     seed, Options: runOptionsMap(c, tgt.Shown()), Tool: toolVersion(),
		StartedAt: time.Now().UTC(), Steps: []results.Step{},
	}
	run.Options["connections_used"] = conns + o.MEEWorkers + 1
	recordStorageRegime(ctx, run, tgt, db, lw.logf)
	// Write the file once before the first step: a bad --out fails now, not after
	// the first step's minutes.
	if err := results.Write(out, run); err != nil {
		return nil, err
	}

	var sampler *iostat.Sampler
	var ioView driver.IOSampler
	var ioAd *ioAdapter
	if !o.ioDisabled() {
		sampler, err = iostat.Open(ctx, iostat.Options{Devices: o.IODevices, NodeExporterURL: o.IONodeExp, Interval: o.IOInterval,
			DataDir: srv.DataDir, WALDir: srv.WALDir, DB: db, Log: lw.logf})
		if err != nil {
			return nil, usageError{err}
		}
		defer sampler.Close()
		sampler.Start(ctx)
		ioAd = &ioAdapter{s: sampler}
		ioView = ioAd
	}

	var metrics *driver.Metrics
	var observe func(results.Interval)
	if o.MetricsAddr != "" {
		metrics = driver.NewMetrics()
		observe = metrics.Observe
		stop, err := serveMetrics(o.MetricsAddr, metrics, lw)
		if err != nil {
			return nil, err
		}
		defer stop()
	}

	withIO := ioView != nil && sampler.Source() != iostat.SourceNone
	var fileErr error
	steps := 0
	cfg := driver.Config{
		Plan: plan, Think: o.Think, Rate: o.Rate,
		Market: driver.DefaultMarket(o.MEEWorkers),
		Scale:  marker.Scale, Seed: seed,
		NewExecutor: func(w int) txn.Executor {
			if w >= driver.MEEWorkerBase {
				return txn.NewExecutor(marketDB, sqlStmts, marker.Scale, seed, w)
			}
			return txn.NewExecutor(db, sqlStmts, marker.Scale, seed, w)
		},
		NewDeck:    func(w int) driver.Deck { return txn.NewDeck(rnd.New(seed, 0xdec, uint64(w))) },
		Pool:       driver.PoolStatsOf(db),
		IO:         ioView,
		OnInterval: observe,
		OnTick: func(l driver.Live) {
			if metrics != nil {
				metrics.SetLive(l)
			}
			lw.line(l.String() + ioAd.liveHitRatio())
		},
		OnStep: func(st *results.Step) {
			st.CacheHitRatio = ioAd.takeHitRatio()
			run.Steps = append(run.Steps, *st)
			results.SetStepFlags(run)
			st = &run.Steps[len(run.Steps)-1]
			if err := results.Write(out, run); err != nil && fileErr == nil {
				fileErr = err
				lw.logf("brokerbench: %v", err)
			}
			lw.clear()
			if steps == 0 {
				fmt.Fprintln(g.Stdout, driver.StepHeader(withIO))
			}
			steps++
			fmt.Fprintln(g.Stdout, driver.StepRow(steps, st, withIO))
		},
		Logf: lw.logf,
	}
	d, err := driver.New(cfg)
	if err != nil {
		return nil, usageError{err}
	}
	lw.logf("run: %s at %d customers (seed %d), users %v, %s steps after %s warm-up, %d + %d connections; results to %s",
		tgt.Shown(), marker.Scale.Customers, seed, plan.Users, plan.Step, plan.Warmup, conns, o.MEEWorkers+1, out)
	_, runErr := d.Run(ctx)
	lw.clear()
	run.FinishedAt = time.Now().UTC()
	interrupted := runErr != nil && ctx.Err() != nil
	run.Interrupted = interrupted
	if err := results.Write(out, run); err != nil {
		return nil, err
	}
	res := &runResult{Path: out, Run: run}
	if runErr != nil && !interrupted {
		return res, fmt.Errorf("run stopped: %w (finished steps are in %s)", runErr, out)
	}
	if fileErr != nil {
		return res, fileErr
	}
	fmt.Fprintln(g.Stdout)
	if err := results.WriteReport(g.Stdout, results.Input{Path: out, Run: run}); err != nil {
		return res, err
	}
	if interrupted {
		fmt.Fprintf(g.Stdout, "\nresults of %d finished step(s) written to %s\n", len(run.Steps), out)
		return res, fmt.Errorf("%w: the run was stopped; results of finished steps are in %s", errInterrupted, out)
	}
	fmt.Fprintf(g.Stdout, "\nresults written to %s\n", out)
	if !o.NoCheck {
		lw.logf("checking the database's consistency (--no-check skips this)")
		v, err := txn.Check(ctx, db, marker.Scale)
		for _, x := range v {
			fmt.Fprintln(g.Stdout, "check: "+x.String())
		}
		if err != nil {
			return res, fmt.Errorf("check after the run: %w", err)
		}
		if len(v) > 0 {
			return res, violationsError{len(v)}
		}
		fmt.Fprintln(g.Stdout, "check: OK")
	}
	return res, nil
}

// ioDisabled: "--io-device none" turns storage sampling off.
func (o *runOptions) ioDisabled() bool {
	return len(o.IODevices) == 1 && o.IODevices[0] == "none"
}

// serveMetrics serves Prometheus metrics until stop is called.
func serveMetrics(addr string, m *driver.Metrics, lw *liveWriter) (stop func(), err error) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(m, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	ln, err := net.Listen("tcp", metricsListenAddr(addr))
	if err != nil {
		return nil, usagef("--metrics-addr %s: %v", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	lw.logf("metrics: http://%s/metrics", ln.Addr())
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}, nil
}
