package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// STUB: replaced by the loader helper, who owns this file.
func newLoadCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "load",
		Short: "(not built yet)",
		RunE:  func(*cobra.Command, []string) error { return errors.New("load is not built yet") },
	}
}
