package main

import (
	"fmt"

	"github.com/brokerbench/brokerbench/internal/pgmanaged"
	"github.com/spf13/cobra"
)

func newPGCommand(g *globalOptions) *cobra.Command {
	pg := &cobra.Command{
		Use:   "pg",
		Short: "Start, stop or show a managed local PostgreSQL kept between commands",
		Long: `pg start runs a local PostgreSQL cluster in --pgdata (created with initdb when empty) and
leaves it running, so load, run and check can use it: pass the same --pgdata to them, or the
URL it prints as --db. pg stop stops it; the data stays in the folder.`,
		// A bare or unknown subcommand is a usage mistake, not a request for help.
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return usagef("pg needs a subcommand: start, stop or status (see 'brokerbench pg --help')")
		},
	}
	need := func() error {
		if g.PGData == "" {
			return usagef("--pgdata DIR is required: the folder that holds the cluster")
		}
		return nil
	}
	start := &cobra.Command{
		Use: "start", Short: "Start the managed cluster in --pgdata", Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := need(); err != nil {
				return err
			}
			capBytes, capGiven, err := parseServerMemory(g.ServerMemory)
			if err != nil {
				return err
			}
			if cl, err := pgmanaged.Attach(g.PGData); err == nil {
				if err := checkAttachedCap(cl, capBytes, capGiven); err != nil {
					return err
				}
				fmt.Fprintf(g.Stdout, "already running: %s\n", cl.URL("brokerbench"))
				return nil
			}
			logf := g.logf
			cl, err := pgmanaged.Start(c.Context(), pgmanaged.Options{DataDir: g.PGData, Log: logf, MemoryCap: capBytes})
			if err != nil {
				return err
			}
			if err := ensureDatabase(c.Context(), cl, "brokerbench"); err != nil {
				return err
			}
			fmt.Fprintf(g.Stdout, "%s\n", cl.URL("brokerbench"))
			return nil
		},
	}
	addServerMemoryFlag(start, &g.ServerMemory, serverMemoryUsage)
	pg.AddCommand(start, &cobra.Command{
		Use: "stop", Short: "Stop the managed cluster in --pgdata (its data is kept)", Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := need(); err != nil {
				return err
			}
			cl, err := pgmanaged.Attach(g.PGData)
			if err != nil {
				return err
			}
			return cl.Stop()
		},
	}, &cobra.Command{
		Use: "status", Short: "Say whether the managed cluster in --pgdata runs, and its URL", Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := need(); err != nil {
				return err
			}
			cl, err := pgmanaged.Attach(g.PGData)
			if err != nil {
				return err
			}
			fmt.Fprintf(g.Stdout, "running: %s\n", cl.URL("brokerbench"))
			return nil
		},
	})
	return pg
}
