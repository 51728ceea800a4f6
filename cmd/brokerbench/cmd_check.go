package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/target"
	"github.com/brokerbench/brokerbench/txn"
	"github.com/spf13/cobra"
)

func newCheckCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "check",
		Short: "Verify the database's consistency invariants, after a load or a run",
		Long: `check verifies what a correct load and a correct run keep: row counts of the tables the
scale fixes, broker trade counts and commission totals against their completed trades, holding
summaries against their lots, a settlement and history for every completed trade, cash balances
against opening balances plus cash transactions, and no trade lost between Trade-Order and
Trade-Result. It prints one line per violation and exits 1 when there is any.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return runCheck(c.Context(), g) },
	}
}

// violationsError ends check with exit code 1 after the violations were printed.
type violationsError = session.ViolationsError

func runCheck(ctx context.Context, g *globalOptions) (retErr error) {
	logf := g.Logf
	tgt, err := target.Open(ctx, g, logf)
	if err != nil {
		return err
	}
	defer func() { retErr = tgt.CloseAfter(retErr, g.Stderr) }()
	db, err := database.Open(ctx, tgt.DSN, database.Options{MaxConns: 2, AppName: "brokerbench check"})
	if err != nil {
		return err
	}
	defer db.Close()
	m, err := loader.ReadMarker(ctx, db)
	if err != nil {
		return err
	}
	v, err := txn.Check(ctx, db, m.Scale)
	for _, x := range v {
		fmt.Fprintln(g.Stdout, x.String())
	}
	if err != nil {
		return err
	}
	if len(v) > 0 {
		return violationsError{N: len(v)}
	}
	fmt.Fprintf(g.Stdout, "OK: %s at %d customers, %d trade days: %s hold\n", db.Target(), m.Scale.Customers, m.Scale.TradeDays,
		strings.Join([]string{"row counts", "broker totals", "holding summaries", "completed trades' settlement and history",
			"cash balances", "no lost trades"}, ", "))
	return nil
}
