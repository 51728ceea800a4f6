package main

import (
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/internal/iostat"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/txn"
)

// runOptions are the options of one run: `brokerbench run` fills them from its
// flags and --config, quickstart from its own choices. A run session reads them and
// never changes them; what it derives (the emulator's size, the result file's name)
// it keeps itself.
type runOptions struct {
	Users       string
	Step        time.Duration
	Warmup      time.Duration
	Think       time.Duration
	Rate        float64
	Pace        string // "nominal" or ""
	Connections int

	EmulatorWorkers int // 0: the session derives the emulator's size from the plan

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
	CaptureIO   string        // --capture-io DIR (run_capture.go)
	LimitOpts   limitOptions  // --limit, --find-max and its bounds (run_limits.go)
	Shard       string        // --shard I/N (run_shard.go)
	StartAt     string        // --start-at, RFC 3339 (run_shard.go)
	RepeatOpts  repeatOptions // --repeat, --repeat-cold (run_repeat.go)
	Settle      string        // --settle: auto, off or a budget (run_settle.go)
	Frames      string        // --frames client|server (txn.ParseFrames)
	LostGrace   time.Duration
}

// bindFlags declares the options as flags on fs, with their defaults. It is the one
// list of the options' names, defaults and formats: the run command parses its
// flags with it, defaultRunOptions and optionsMap reuse it.
func (o *runOptions) bindFlags(f *pflag.FlagSet) {
	f.StringVar(&o.Users, "users", "50:300:50", "user levels: a list (10,50,100,300) or a range FROM:TO:STEP (50:300:50)")
	f.DurationVar(&o.Step, "step", 5*time.Minute, "how long each user level runs")
	f.DurationVar(&o.Warmup, "warmup", time.Minute, "the first part of each step, excluded from its figures")
	f.DurationVar(&o.Think, "think", 0, "each user's mean think time between transactions (exponential, truncated at 10x); 0: none")
	f.Float64Var(&o.Rate, "rate", 0, "target transaction starts per second in total: the users', the market emulator's and the timer's (open loop; late starts count in the response times); 0: as fast as the users go")
	f.StringVar(&o.Pace, "pace", "", "\"nominal\": each user starts on a schedule drawn in advance, its mean interval set from the step's user count so the users offer the nominal tpsE of the loaded customers (customers/500) whatever the response times; instead of --think and --rate")
	f.IntVar(&o.Connections, "connections", 0, "the users' connection pool size; 0: one per user at the highest level (the market emulator and the timer have their own --emulator-workers + 1 connections)")
	f.IntVar(&o.EmulatorWorkers, "emulator-workers", 0, "market-exchange emulator workers (each with its own connection) for Trade-Result and Market-Feed; 0: one per three users at the highest level, 8 to 64")
	aliasFlag(f, "mee-workers", "emulator-workers") // MEE: TPC-E's name for the emulator
	f.Uint64Var(&o.Seed, "seed", 0, "seed of the transaction inputs; 0: the load's seed (same inputs for the same database)")
	f.StringVar(&o.Label, "label", "", "the run's name in reports and comparisons, e.g. \"H810 RAID10\"")
	f.StringArrayVar(&o.Tags, "tag", nil, "a `key=value` stored with the run (controller, raid, cache, disks); repeatable")
	f.StringVar(&o.Out, "out", "", "result file (JSON, rewritten after every step); default brokerbench-<time>.json")
	f.StringVar(&o.MetricsAddr, "metrics-addr", "", "serve Prometheus metrics at this address (\":9090\" binds 127.0.0.1:9090; give a host to listen elsewhere)")
	f.StringVar(&o.Config, "config", "", "YAML `file` of run options with the flags' names (users: 50:300:50, step: 5m, tag: [raid=10]); flags given on the command line win")
	f.BoolVar(&o.NoCheck, "no-check", false, "skip the consistency check after the run")
	f.StringArrayVar(&o.IODevices, "io-device", nil, "block device to sample (NAME or NAME=ROLE, role data, wal or data+wal); repeatable; default: the devices under the database's data directory")
	f.StringVar(&o.IONodeExp, "io-node-exporter", "", "sample a remote database host's disks, CPU, memory and network from its node_exporter `URL`")
	f.DurationVar(&o.IOInterval, "io-interval", iostat.DefaultInterval, "period of the storage and host time series")
	f.StringVar(&o.CaptureIO, "capture-io", "", "record every block request of the disks under the database's data and WAL directories over each step's measured window, a replayable trace per step in `DIR`/step-N (needs root or CAP_SYS_ADMIN and the database on this host)")
	o.LimitOpts.bindFlags(f)
	o.RepeatOpts.bindFlags(f)
	f.StringVar(&o.Settle, "settle", settleAuto, "before the first step, hold its users in windows (--warmup long, 5s to 30s) until tps and reads per transaction hold still (the last 3 windows within 10 % of each other and 5 % of the 3 before), for at most this `budget` (5m); \"auto\": 5m before the first of --repeat 2 or more, none for one run; \"off\": never")
	f.StringVar(&o.Shard, "shard", "", "drive shard `I/N` of a sharded run (I from 0): its share of every step's users and of --rate, its own slice of the customers and input streams; merge the shards' files afterwards")
	f.DurationVar(&o.LostGrace, "reconnect-grace", driver.DefaultLostGrace, "how long every connection may fail, or the server answer nothing (not even a SELECT 1 on a connection of its own), before the run declares the server lost and stops (the step is cut, finished steps kept, no check, exit 1); a server back sooner is reconnected to and its step flagged server-outage or server-stall")
	f.StringVar(&o.Frames, "frames", string(txn.ClientFrames), "where the transactions' frames run: \"client\" sends every statement from brokerbench; \"server\" calls one stored routine per transaction that runs the same statements in the database (installed by load, or by run on an older load)")
	f.StringVar(&o.StartAt, "start-at", "", "start the first step at this `TIME` (RFC 3339, e.g. 2026-12-01T04:30:00Z) so the shards' steps line up; waits until then")
}

// paceNominal is --pace's one value (driver.NominalThink).
const paceNominal = "nominal"

// defaultRunOptions are the options of a `run` given no flags.
func defaultRunOptions() runOptions {
	var o runOptions
	o.bindFlags(pflag.NewFlagSet("run", pflag.ContinueOnError))
	return o
}

// optionsMap is the result file's record of the options: every run option under
// its flag's name and in its flag's format, and the global options, the DSN shown
// without its password.
func (o runOptions) optionsMap(g *globalOptions, shownDB string) map[string]any {
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	var v runOptions
	v.bindFlags(fs) // the flags point into v...
	v = o           // ...which now holds o's values (bindFlags wrote the defaults)
	out := map[string]any{"db": shownDB, "engine": g.Engine, "pgdata": g.PGData, "quiet": strconv.FormatBool(g.Quiet)}
	fs.VisitAll(func(f *pflag.Flag) {
		if sv, ok := f.Value.(pflag.SliceValue); ok && strings.HasSuffix(f.Value.Type(), "Array") {
			out[f.Name] = sv.GetSlice()
			return
		}
		// Any flag may take a URL with a password in it (--io-node-exporter).
		out[f.Name] = database.RedactURL(f.Value.String())
	})
	return out
}

// plan checks the options and turns them into the driver's plan (usage errors).
func (o runOptions) plan() (driver.Plan, error) {
	users, err := driver.ParseUsers(o.Users)
	if err != nil {
		return driver.Plan{}, usageError{Err: err}
	}
	p := driver.Plan{Users: users, Step: o.Step, Warmup: o.Warmup}
	if err := p.Validate(); err != nil {
		return p, usageError{Err: err}
	}
	switch {
	case o.Rate < 0:
		return p, usagef("--rate must not be negative, got %g", o.Rate)
	case o.Think < 0:
		return p, usagef("--think must not be negative, got %s", o.Think)
	case o.Connections < 0:
		return p, usagef("--connections must not be negative, got %d", o.Connections)
	case o.EmulatorWorkers < 0:
		return p, usagef("--emulator-workers must not be negative, got %d", o.EmulatorWorkers)
	case len(o.Label) > results.MaxTextBytes:
		return p, usagef("--label is %d bytes long; at most %d", len(o.Label), results.MaxTextBytes)
	case o.LostGrace <= 0:
		return p, usagef("--reconnect-grace must be positive, got %s", o.LostGrace)
	case o.IOInterval <= 0:
		return p, usagef("--io-interval must be positive, got %s", o.IOInterval)
	case o.Pace != "" && o.Pace != paceNominal:
		return p, usagef("--pace takes %q, got %q", paceNominal, o.Pace)
	case o.Pace == paceNominal && (o.Think > 0 || o.Rate > 0 || o.LimitOpts.FindMax):
		return p, usagef("--pace nominal sets the think time itself: give it without --think, --rate and --find-max")
	}
	if o.CaptureIO != "" {
		if len(o.IODevices) > 0 || o.IONodeExp != "" {
			return p, usagef("--capture-io captures the disks under the database's directories, as the storage sampler finds them: leave out --io-device and --io-node-exporter")
		}
		if err := checkCaptureDir(o.CaptureIO); err != nil {
			return p, err
		}
	}
	if _, err := txn.ParseFrames(o.Frames); err != nil {
		return p, usagef("--%v", err)
	}
	if err := checkListenAddr(o.MetricsAddr); err != nil {
		return p, err
	}
	if err := o.LimitOpts.check(o.Rate, p.Users); err != nil {
		return p, err
	}
	if err := checkResultFileBound(p, o.LimitOpts); err != nil {
		return p, err
	}
	if err := refuseOutputOverInput([]output{{"--out", o.Out}}, []string{o.Config}); err != nil {
		return p, err
	}
	if err := o.RepeatOpts.check(o.Shard); err != nil {
		return p, err
	}
	return p, nil
}

// ioDisabled: "--io-device none" turns storage sampling off.
func (o runOptions) ioDisabled() bool {
	return len(o.IODevices) == 1 && o.IODevices[0] == "none"
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
	if len(tags) > results.MaxTags {
		return nil, usagef("%d --tag flags; a result file holds at most %d", len(tags), results.MaxTags)
	}
	m := map[string]string{}
	for _, t := range tags {
		k, v, ok := strings.Cut(t, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, usagef("--tag %q: want key=value", t)
		}
		if len(k) > results.MaxTextBytes || len(v) > results.MaxTextBytes {
			return nil, usagef("--tag %.40q…: keys and values are at most %d bytes", t, results.MaxTextBytes)
		}
		m[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return m, nil
}
