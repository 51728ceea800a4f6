package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// STUB: replaced by the results helper, who owns this file.
func newCompareCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "compare",
		Short: "(not built yet)",
		RunE:  func(*cobra.Command, []string) error { return errors.New("compare is not built yet") },
	}
}
