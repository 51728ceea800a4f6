package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// STUB: replaced by the driver helper, who owns this file.
func newRunCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "run",
		Short: "(not built yet)",
		RunE:  func(*cobra.Command, []string) error { return errors.New("run is not built yet") },
	}
}
