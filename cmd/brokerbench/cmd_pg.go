package main

import (
	"github.com/spf13/cobra"

	"github.com/brokerbench/brokerbench/session/target"
)

func newPGCommand(g *globalOptions) *cobra.Command {
	pg := &cobra.Command{
		Use:   "pg",
		Short: "Start, stop or show a managed local PostgreSQL kept between commands",
		Long: `pg start runs a local PostgreSQL cluster in --pgdata (created with initdb when empty) and
leaves it running, so load, run and check can use it: pass the same --pgdata to them, or the
URL it prints as --db. The cluster requires a password, kept in brokerbench.pgpass in
--pgdata (readable by you only); the URL names that file, and psql and pgbench accept the
URL too. A cluster an earlier brokerbench made without a password is converted. A folder
that holds anything but a cluster brokerbench made is refused untouched: run a cluster of
your own yourself and give --db URL. pg stop stops it; the data stays in the folder.`,
		// A bare or unknown subcommand is a usage mistake, not a request for help.
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return usagef("pg needs a subcommand: start, stop or status (see 'brokerbench pg --help')")
		},
	}
	start := &cobra.Command{
		Use: "start", Short: "Start the managed cluster in --pgdata", Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return target.StartKept(c.Context(), g) },
	}
	addServerMemoryFlag(start, &g.ServerMemory, serverMemoryUsage)
	pg.AddCommand(start, &cobra.Command{
		Use: "stop", Short: "Stop the managed cluster in --pgdata (its data is kept)", Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return target.StopKept(g) },
	}, &cobra.Command{
		Use: "status", Short: "Say whether the managed cluster in --pgdata runs, and its URL", Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return target.KeptStatus(g) },
	})
	return pg
}
