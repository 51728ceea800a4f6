package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/brokerbench/brokerbench/session/disk"
	"github.com/brokerbench/brokerbench/session/load"
	"github.com/brokerbench/brokerbench/session/replay"
	"github.com/brokerbench/brokerbench/session/run"
	"github.com/brokerbench/brokerbench/session/study"
)

func newStudyCommand(g *globalOptions) *cobra.Command {
	var o study.Options
	c := &cobra.Command{
		Use:   "study FILE [--resume] [--dry-run]",
		Short: "Run a whole comparison from one file: systems x workloads, interleaved repeats, one report",
		Long: `study runs the plan of a YAML study file: every workload (an OLTP run, storage profiles on fio,
a replay of a captured trace) on every system under test (a folder or device for the profiles
and the replay; a managed PostgreSQL's data folder on that storage, or a database URL, for the
runs), repeated, the systems interleaved (A B A B, or shuffled from a recorded seed) so that
drift over the hours falls on every system alike. Each workload's options are its command's
flags by name (users, step, warmup; profile, depths, measure; speed, depth, trace).

It checks the whole file first, for every system, and prints the plan and its estimated time;
a mistake is refused before anything runs. Everything goes into one study folder: each run's
result file (SYSTEM-WORKLOAD-rN.json) and study.json, the record of what ran, in which order,
when, and how it ended. An interrupted study keeps every finished run: --resume continues it
and runs nothing finished again. At the end it writes the report: every figure of every
system against the baseline with its 95 % interval, detectable difference and verdict, the
headlines, the order of the runs and the drift of each system's repeats (report.txt, .html,
.csv, .json in the folder); compare and report read the folder too. See docs/study.md.`,
		Example: `  brokerbench study controllers.yaml --dry-run     # the plan and its estimated time
  brokerbench study controllers.yaml
  brokerbench study controllers.yaml --resume      # after an interruption
  brokerbench compare controllers --html controllers.html`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			for _, name := range []string{"db", "pgdata"} {
				if f := c.Flags().Lookup(name); f != nil && f.Changed {
					return usagef("study: --%s does not apply: each system names its database (db, pgdata or dir in the study file)", name)
				}
			}
			f, _, err := study.ReadFile(args[0])
			if err != nil {
				return err
			}
			p, err := study.Check(f, args[0], flagBinder{}, g)
			if err != nil {
				return err
			}
			return study.Run(c.Context(), g, p, o)
		},
	}
	c.Flags().BoolVar(&o.Resume, "resume", false, "continue the study in its folder: finished runs are kept and not run again")
	c.Flags().BoolVar(&o.DryRun, "dry-run", false, "check the file, print the plan, its order and estimated time, and run nothing")
	return c
}

// flagBinder binds a study workload's options with the flags of the command of
// its kind: the same names, types, defaults and range checks as on the command line.
type flagBinder struct{}

func (flagBinder) Run(opts map[string]any) (run.Options, error) {
	o := run.Options{Record: optionsMap}
	c := &cobra.Command{Use: "run"}
	bindRunFlags(c.Flags(), &o)
	return o, applyOptions(c, "run", opts, "server-memory")
}

func (flagBinder) Disk(opts map[string]any) (disk.Options, error) {
	var o disk.Options
	c := &cobra.Command{Use: "disk"}
	addDiskFlags(c, &o)
	return o, applyOptions(c, "disk", opts)
}

func (flagBinder) Replay(opts map[string]any) (replay.Options, error) {
	var o replay.Options
	c := &cobra.Command{Use: "replay"}
	addReplayFlags(c, &o)
	return o, applyOptions(c, "replay", opts)
}

func (flagBinder) Load(opts map[string]any) (load.Options, error) {
	var o load.Options
	c := &cobra.Command{Use: "load"}
	addLoadFlags(c, &o)
	err := applyOptions(c, "load", opts)
	o.ScaleSet = c.Flags().Changed("customers") || c.Flags().Changed("trade-days")
	o.SeedSet = c.Flags().Changed("seed")
	return o, err
}

// applyOptions sets c's flags from opts, by name, in name order; a name c does not
// have, or one of refused (a system's setting), is an error naming the flags it takes.
func applyOptions(c *cobra.Command, kind string, opts map[string]any, refused ...string) error {
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		if slices.Contains(refused, k) {
			return fmt.Errorf("%s: a system's setting: give it on the system", k)
		}
		f := c.Flags().Lookup(k)
		if f == nil || f.Hidden {
			return fmt.Errorf("unknown %s option %q (the options are %s's flags by name: %s)", kind, k, kind, flagNames(c))
		}
		f = aliasTarget(c.Flags(), f)
		if err := setFlagFromYAML(f, opts[k]); err != nil {
			return fmt.Errorf("%s: %v", k, err)
		}
		if err := checkNumericFlag(f); err != nil {
			return err
		}
	}
	return nil
}

// flagNames lists c's visible flags, the first few, for an error.
func flagNames(c *cobra.Command) string {
	var names []string
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && len(names) < 8 {
			names = append(names, f.Name)
		}
	})
	return strings.Join(names, ", ") + " ..."
}
