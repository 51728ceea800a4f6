package main

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/run"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"
)

// maxConfigBytes bounds --config, a few dozen flags: far above any real one, small
// enough that /dev/zero or a wrong file costs a moment, not gigabytes of memory.
const maxConfigBytes = 1 << 20

func newRunCommand(g *globalOptions) *cobra.Command {
	o := &run.Options{Record: optionsMap}
	prof := &run.Profile{}
	c := &cobra.Command{
		Use:   "run",
		Short: "Ramp users through the TPC-E-like workload and measure each step",
		Long: `run drives a loaded database: users run the customer transaction mix, a market-exchange
emulator completes their trades (Trade-Result, Market-Feed), Data-Maintenance runs every minute.
Each user level of --users runs for --step; the first --warmup of each step is not measured.
After every step its row is printed and the result file is rewritten, so an interrupted run
(Ctrl-C) keeps its finished steps. Response times run from each transaction's intended start,
service times from its first statement. The figures are TPC-E-like, not TPC-E results.
Every step is judged against 90th-percentile response-time limits (--limit overrides one).
--find-max holds --users and searches the highest --rate at which every limit holds.
--shard I/N runs one of N drivers of one run (each on its own machine, I from 0): its share of
every step's users and of --rate, its own customers (whole load units when there are at least
N, else a range of customers), its own emulator and input streams; shard 0 alone runs
Trade-Cleanup and Data-Maintenance. Give every shard the same --start-at so the steps line up;
each measures its clock against the database server's and refuses an offset beyond --warmup.
brokerbench merge makes one result file of the shards' files.`,
		Example: `  brokerbench run --db postgres://bench@dbhost/bench --users 50:300:50 --step 5m --warmup 1m \
      --label "H810 RAID10" --tag controller=H810 --tag raid=10 --out h810.json
  brokerbench run --users 10 --think 2.5s --rate 200 --step 2m --warmup 20s
  brokerbench run --config run.yaml --label "H800 RAID5"
  brokerbench run --users 8 --step 2m --warmup 30s --repeat 3 --out h810.json   # h810-r1.json ... h810-r3.json
  brokerbench run --find-max --users 32 --step 2m --warmup 30s --limit trade-status.p90=500ms
  brokerbench run --config run.yaml --shard 2/4 --start-at 2026-12-01T04:30:00Z --out shard-2.json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if o.Config != "" {
				if err := applyConfigFile(c, o.Config); err != nil {
					return err
				}
			}
			defer prof.Start(g.Logf)()
			return run.Run(c.Context(), g, *o)
		},
	}
	bindRunFlags(c.Flags(), o)
	addServerMemoryFlag(c, &g.ServerMemory, serverMemoryUsage)
	bindProfileFlags(c.Flags(), prof)
	return c
}

// applyConfigFile sets every flag the YAML file names, unless the command line gave
// it. An unknown key is a usage error: a typo must not silently run the defaults.
func applyConfigFile(c *cobra.Command, path string) error {
	data, err := session.ReadBounded("--config", path, maxConfigBytes)
	if err != nil {
		return err
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
		if t := aliasTarget(c.Flags(), f); t != f {
			fmt.Fprintf(c.ErrOrStderr(), "brokerbench: --config %s: %s is an old name of %s: use %s\n", path, k, t.Name, t.Name)
			f = t
		}
		if given(c.Flags(), f) {
			continue
		}
		if err := setFlagFromYAML(f, m[k]); err != nil {
			return usagef("--config %s: %s: %v", path, k, err)
		}
		if err := checkNumericFlag(f); err != nil {
			return usagef("--config %s: %v", path, err)
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
