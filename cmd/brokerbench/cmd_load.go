package main

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/session/load"
)

// addLoadFlags declares the flags of `brokerbench load` into o.
func addLoadFlags(c *cobra.Command, o *load.Options) {
	f := c.Flags()
	f.Int64Var(&o.Customers, "customers", 1000, "customers to load, a multiple of 1000 (one load unit)")
	f.IntVar(&o.TradeDays, "trade-days", schema.DefaultTradeDays, fmt.Sprintf("initial trade days of history, %d to %d (TPC-E: %d)",
		schema.MinTradeDays, schema.MaxTradeDays, schema.MaxTradeDays))
	f.StringVar(&o.Size, "size", "", "target size on disk with indexes, e.g. 50GB ("+bytesize.Units+"): picks customers and trade days")
	f.Uint64Var(&o.Seed, "seed", loader.DefaultSeed, "seed of the data generator; the same seed and scale give the same data")
	f.IntVar(&o.Workers, "workers", runtime.NumCPU(), "generator goroutines")
	f.BoolVar(&o.Drop, "drop", false, "drop the brokerbench load in the database first (refused without its marker, while others' objects depend on it or a run holds it)")
	f.BoolVar(&o.Resume, "resume", false, "continue an unfinished load from the segments it committed (scale and seed from its marker)")
	f.StringVar(&o.Shard, "shard", "", "load shard I of N (0-based, e.g. 1/3; a Kubernetes completion index is I): its share of the segments; the last shard to finish builds keys and indexes")
}

func newLoadCommand(g *globalOptions) *cobra.Command {
	o := &load.Options{}
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
			o.ScaleSet = c.Flags().Changed("customers") || c.Flags().Changed("trade-days")
			o.SeedSet = c.Flags().Changed("seed")
			return load.Run(c.Context(), g, o)
		},
	}
	addLoadFlags(c, o)
	addServerMemoryFlag(c, &g.ServerMemory, serverMemoryUsage)
	return c
}
