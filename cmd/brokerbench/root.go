package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/target"
)

// globalOptions are the flags every command shares: the sessions' Globals, which
// the persistent flags fill.
type globalOptions = session.Globals

// envOr returns the environment variable's value, or def.
func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

func newRootCommand(g *globalOptions) *cobra.Command {
	root := &cobra.Command{
		Use:   "brokerbench",
		Short: "A TPC-E-like OLTP workload driver for comparing storage and configurations",
		Long: `brokerbench loads a brokerage-style (TPC-E-like) database, ramps virtual users through it,
measures throughput, response times and the storage's IOPS per step, and compares runs.
Its figures are TPC-E-like, not TPC-E results.

With no --db, commands use a managed local PostgreSQL that brokerbench starts itself.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(g.Stdout)
	root.SetErr(g.Stderr)
	pf := root.PersistentFlags()
	pf.StringVar(&g.DB, "db", envOr("BROKERBENCH_DB", ""), "database URL: postgres://..., sqlserver://... or mysql://... (env BROKERBENCH_DB; PG* variables work); empty: a managed local PostgreSQL")
	pf.StringVar(&g.Engine, "engine", envOr("BROKERBENCH_ENGINE", target.ManagedPostgres), "with no --db: the managed server to start, postgres or mariadb (env BROKERBENCH_ENGINE)")
	pf.StringVar(&g.PGData, "pgdata", envOr("BROKERBENCH_PGDATA", ""), "with no --db: keep the managed PostgreSQL cluster in this folder (e.g. on the disk under test)")
	pf.BoolVarP(&g.Quiet, "quiet", "q", false, "print only results and errors")
	// Ranges first, before a command's own checks (and again after run's --config).
	root.PersistentPreRunE = func(c *cobra.Command, _ []string) error {
		warnOldFlagNames(c.Flags(), c.ErrOrStderr())
		return checkNumericFlags(c.Flags())
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{Err: fmt.Errorf("%w (see '%s --help')", err, c.CommandPath())}
	})
	root.AddCommand(
		newQuickstartCommand(g),
		newLoadCommand(g),
		newRunCommand(g),
		newCheckCommand(g),
		newReportCommand(g),
		newCompareCommand(g),
		newDiskCommand(g),
		newCaptureCommand(g),
		newReplayCommand(g),
		newStudyCommand(g),
		newMergeCommand(g),
		newSchemaCommand(g),
		newPGCommand(g),
		newVersionCommand(g),
	)
	return root
}

// Main runs the command line and returns the exit code. A first SIGINT/SIGTERM cancels
// the context so commands can save what they have; a second one exits at once.
func Main(args []string, stdout, stderr io.Writer) int {
	g := &globalOptions{Console: session.Console{Stdout: stdout, Stderr: stderr}, Tool: toolVersion()}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root := newRootCommand(g)
	root.SetArgs(args)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	stateless := ownsNoServerState(root, args)
	go func() {
		if _, ok := <-sigs; !ok {
			return
		}
		if stateless {
			// Nothing to finish or save: report, compare and merge only read files.
			fmt.Fprintln(stderr, "brokerbench: interrupted")
			os.Exit(exitInterrupted)
		}
		fmt.Fprintln(stderr, "brokerbench: interrupted; finishing in-flight work and saving results (press Ctrl-C again to exit at once)")
		cancel()
		if _, ok := <-sigs; ok {
			fmt.Fprintln(stderr, "brokerbench: second interrupt; exiting now")
			os.Exit(exitInterrupted)
		}
	}()
	err := root.ExecuteContext(ctx)
	if err != nil && isCobraUsage(err) {
		err = usageError{Err: err}
	}
	if err != nil {
		fmt.Fprintf(stderr, "brokerbench: %s\n", session.OneLine(err.Error()))
	}
	return exitCode(err)
}

// ownsNoServerState reports whether args run a command that only reads files and
// writes its output (report, compare, merge, version): the first interrupt
// ends it at once, where load and run first finish and save their work.
func ownsNoServerState(root *cobra.Command, args []string) bool {
	c, _, err := root.Find(args)
	if err != nil {
		return false
	}
	switch c.Name() {
	case "report", "compare", "merge", "version":
		return true
	}
	return false
}

// isCobraUsage recognises cobra's own argument errors (unknown command, wrong number
// of arguments), which it returns as plain errors.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "accepts ", "requires at least", "requires at most", "unknown flag", "unknown shorthand", "invalid argument"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
