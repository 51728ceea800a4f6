package main

import (
	"context"
	"fmt"

	"github.com/brokerbench/brokerbench/internal/memcap"
	"github.com/brokerbench/brokerbench/internal/pgmanaged"
	"github.com/brokerbench/brokerbench/session/target"
	"github.com/spf13/cobra"
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
		RunE: func(c *cobra.Command, _ []string) error { return runPGStart(c.Context(), g) },
	}
	addServerMemoryFlag(start, &g.ServerMemory, serverMemoryUsage)
	pg.AddCommand(start, &cobra.Command{
		Use: "stop", Short: "Stop the managed cluster in --pgdata (its data is kept)", Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return runPGStop(g) },
	}, &cobra.Command{
		Use: "status", Short: "Say whether the managed cluster in --pgdata runs, and its URL", Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return runPGStatus(g) },
	})
	return pg
}

// needPGData refuses a pg subcommand without --pgdata.
func needPGData(g *globalOptions) error {
	if g.PGData == "" {
		return usagef("--pgdata DIR is required: the folder that holds the cluster")
	}
	return nil
}

// runPGStart starts the cluster in --pgdata, or says it already runs, and prints its
// URL.
func runPGStart(ctx context.Context, g *globalOptions) error {
	if err := needPGData(g); err != nil {
		return err
	}
	capBytes, capGiven, err := target.ParseServerMemory(g.ServerMemory, target.ManagedPostgres)
	if err != nil {
		return err
	}
	// One an earlier brokerbench started without a password is not attached
	// to: Start converts it.
	if cl, err := pgmanaged.Attach(g.PGData); err == nil && !cl.Unprotected() {
		if err := target.CheckAttachedCap(cl, capBytes, capGiven); err != nil {
			return err
		}
		fmt.Fprintf(g.Stdout, "already running: %s\n", cl.PassfileURL("brokerbench"))
		g.Logf("%s", connectHint(cl))
		return nil
	}
	cl, err := pgmanaged.Start(ctx, pgmanaged.Options{DataDir: g.PGData, Log: g.Logf, MemoryCap: capBytes, KeepMemoryCap: !capGiven})
	if err != nil {
		return err
	}
	if err := target.EnsureDatabase(ctx, cl, "brokerbench"); err != nil {
		return err
	}
	// Scripts read the URL from standard output: it stays one line.
	fmt.Fprintf(g.Stdout, "%s\n", cl.PassfileURL("brokerbench"))
	g.Logf("%s", connectHint(cl))
	return nil
}

// attachPG attaches to the running cluster in --pgdata.
func attachPG(g *globalOptions) (*pgmanaged.Cluster, error) {
	if err := needPGData(g); err != nil {
		return nil, err
	}
	return pgmanaged.Attach(g.PGData)
}

// runPGStop stops the cluster in --pgdata; its data stays.
func runPGStop(g *globalOptions) error {
	cl, err := attachPG(g)
	if err != nil {
		return err
	}
	return cl.Stop()
}

// runPGStatus says whether the cluster in --pgdata runs, with its URL and memory cap.
func runPGStatus(g *globalOptions) error {
	cl, err := attachPG(g)
	if err != nil {
		return err
	}
	if cl.Unprotected() {
		fmt.Fprintf(g.Stdout, "running without a password: %s\n", cl.PassfileURL("brokerbench"))
		g.Logf("%s", target.UnprotectedWarning(cl))
		return nil
	}
	fmt.Fprintf(g.Stdout, "running: %s\n", cl.PassfileURL("brokerbench"))
	switch {
	case cl.CapLifted():
		g.Logf("server memory capped at %s (cgroup %s), lifted while a load runs", memcap.FormatSize(cl.MemoryCap), cl.MemoryGroup())
	case cl.MemoryCap > 0:
		g.Logf("server memory capped at %s (cgroup %s)", memcap.FormatSize(cl.MemoryCap), cl.MemoryGroup())
	}
	return nil
}

// connectHint tells a person how to connect with psql: the password stays in its file.
func connectHint(cl *pgmanaged.Cluster) string {
	return fmt.Sprintf("connect with psql: %s (that file holds the password; only its owner can read it)",
		cl.PsqlCommand("brokerbench"))
}
