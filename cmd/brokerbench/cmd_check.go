package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// STUB: replaced by the txn helper, who owns this file.
func newCheckCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "check",
		Short: "(not built yet)",
		RunE:  func(*cobra.Command, []string) error { return errors.New("check is not built yet") },
	}
}
