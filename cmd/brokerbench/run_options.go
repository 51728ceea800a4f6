package main

import (
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/internal/iostat"
	"github.com/brokerbench/brokerbench/session/run"
	"github.com/brokerbench/brokerbench/txn"
)

// bindRunFlags declares the run's options (session/run) as flags on f, with their
// defaults. It is the one list of the options' names, defaults and formats: the run
// command parses its flags with it, defaultRunOptions and optionsMap reuse it.
func bindRunFlags(f *pflag.FlagSet, o *run.Options) {
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
	bindLimitFlags(f, &o.LimitOpts)
	bindRepeatFlags(f, &o.RepeatOpts)
	f.StringVar(&o.Settle, "settle", run.SettleAuto, "before the first step, hold its users in windows (--warmup long, 5s to 30s) until tps and reads per transaction hold still (the last 3 windows within 10 % of each other and 5 % of the 3 before), for at most this `budget` (5m); \"auto\": 5m before the first of --repeat 2 or more, none for one run; \"off\": never")
	f.StringVar(&o.Shard, "shard", "", "drive shard `I/N` of a sharded run (I from 0): its share of every step's users and of --rate, its own slice of the customers and input streams; merge the shards' files afterwards")
	f.DurationVar(&o.LostGrace, "reconnect-grace", driver.DefaultLostGrace, "how long every connection may fail, or the server answer nothing (not even a SELECT 1 on a connection of its own), before the run declares the server lost and stops (the step is cut, finished steps kept, no check, exit 1); a server back sooner is reconnected to and its step flagged server-outage or server-stall")
	f.StringVar(&o.Frames, "frames", string(txn.ClientFrames), "where the transactions' frames run: \"client\" sends every statement from brokerbench; \"server\" calls one stored routine per transaction that runs the same statements in the database (installed by load, or by run on an older load)")
	f.StringVar(&o.StartAt, "start-at", "", "start the first step at this `TIME` (RFC 3339, e.g. 2026-12-01T04:30:00Z) so the shards' steps line up; waits until then")
}

// bindLimitFlags declares run's flags for response-time limits and the --find-max search.
func bindLimitFlags(f *pflag.FlagSet, o *run.LimitOptions) {
	f.StringArrayVar(&o.Limits, "limit", nil, "override a 90th-percentile response-time limit: `TXN.p90=DURATION` (trade-status.p90=500ms; =none drops it); repeatable")
	f.BoolVar(&o.FindMax, "find-max", false, "search for the highest offered --rate at which every limit holds and errors stay under 1 % (--users held constant; it starts from a calibration probe without a pacer, or from --rate when given)")
	f.Float64Var(&o.Resolution, "resolution", driver.DefaultSearchResolution*100, "--find-max stops when the lowest failing rate is within this many percent above the highest passing one")
	f.Float64Var(&o.Growth, "growth", driver.DefaultSearchGrowth, "--find-max multiplies the rate by this factor until a probe fails")
	f.IntVar(&o.MaxSteps, "max-steps", driver.DefaultSearchMaxProbes, "--find-max runs at most this many probes, the calibration included (each one --step long)")
}

// bindRepeatFlags declares run's --repeat, --repeat-cold and --replace-disturbed.
func bindRepeatFlags(f *pflag.FlagSet, o *run.RepeatOptions) {
	f.IntVar(&o.Repeat, "repeat", 1, "run the whole plan `N` times, one result file each (--out run.json writes run-r1.json ... run-rN.json, --capture-io DIR into DIR/r1 ... DIR/rN); compare takes them as one side")
	f.BoolVar(&o.Cold, "repeat-cold", false, "restart the managed PostgreSQL before every repeat after the first, so each starts with an empty buffer cache")
	f.IntVar(&o.ReplaceDisturbed, "replace-disturbed", 0, "run a repeat again when a checkpoint, autovacuum, CPU steal or a warming cache disturbed one of its steps, at most `N` times over the series; the disturbed run's file is kept as run-disturbed-rK.json (0: keep every repeat as it came)")
}

// bindProfileFlags declares run's hidden profiling flags (run.Profile): for finding the
// driver's own cost, not part of the run's options or its result file.
func bindProfileFlags(f *pflag.FlagSet, p *run.Profile) {
	f.StringVar(&p.CPU, "cpuprofile", "", "write a CPU profile (pprof) of the whole run to this file")
	f.StringVar(&p.Mem, "memprofile", "", "write an allocation profile (pprof) at the end of the run to this file")
	_ = f.MarkHidden("cpuprofile")
	_ = f.MarkHidden("memprofile")
}

// defaultRunOptions are the options of a `run` given no flags.
func defaultRunOptions() run.Options {
	var o run.Options
	bindRunFlags(pflag.NewFlagSet("run", pflag.ContinueOnError), &o)
	o.Record = optionsMap
	return o
}

// optionsMap is the result file's record of the options (run.Options.Record): every
// run option under its flag's name and in its flag's format, and the global options,
// the DSN shown without its password.
func optionsMap(o run.Options, g *globalOptions, shownDB string) map[string]any {
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	var v run.Options
	bindRunFlags(fs, &v) // the flags point into v...
	v = o                // ...which now holds o's values (bindFlags wrote the defaults)
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
