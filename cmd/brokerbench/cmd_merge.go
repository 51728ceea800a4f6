package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/merge"
	"github.com/brokerbench/brokerbench/session"
)

// mergeOptions are the flags of `brokerbench merge`.
type mergeOptions struct {
	Out string // --out, -o: the merged result file
}

func newMergeCommand(g *globalOptions) *cobra.Command {
	var o mergeOptions
	c := &cobra.Command{
		Use:   "merge SHARD.json... -o RUN.json",
		Short: "Merge the result files of a sharded run (run --shard I/N) into one result file",
		Long: `merge reads the result files of every shard of one run (run --shard I/N, each given
once) and writes one result file of the same format for the whole run, which report and
compare read like any other. Per step, users, transactions, errors, retries, statements and
tps are summed; response and service times come from the union of the shards' histograms
(percentiles are never averaged); lag and faults are summed; each shard's load-driver figures
are kept under "shards"; the storage figures and cache hit ratio are taken once, from shard 0
unless another shard has the only reading, since every shard watched the same database host.

Files from different runs (seed, scale, start time, database product, limits, steps, warm-up
or measured windows) are refused, naming the files and what differs, as are a missing or
repeated shard and a shard file without histograms. Exit codes: 0 merged, 1 a file could not
be read, 2 the files cannot be merged (or a usage error). No database is needed.`,
		Example: `  brokerbench merge results/shard-*.json -o run.json
  brokerbench report run.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMerge(g.Stdout, args, o)
		},
	}
	c.Flags().StringVarP(&o.Out, "out", "o", "", "write the merged result file to `FILE` (required)")
	return c
}

func runMerge(stdout io.Writer, paths []string, o mergeOptions) error {
	if o.Out == "" {
		return usagef("merge needs --out FILE (-o) for the merged result file")
	}
	if err := session.RefuseOutputOverInput([]session.Output{{Flag: "--out", Path: o.Out}}, paths); err != nil {
		return err
	}
	inputs := make([]results.Input, len(paths))
	for i, p := range paths {
		run, err := results.Read(p)
		if err != nil {
			return err
		}
		inputs[i] = results.Input{Path: p, Run: run}
	}
	merged, err := merge.Merge(inputs, driver.Workload())
	var me *merge.MergeError
	if errors.As(err, &me) {
		return usageError{Err: err}
	}
	if err != nil {
		return err
	}
	if err := results.Write(o.Out, merged); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "merged %d shard files (%d steps) into %s; see it with: brokerbench report %s\n",
		len(paths), len(merged.Steps), o.Out, o.Out)
	return nil
}
