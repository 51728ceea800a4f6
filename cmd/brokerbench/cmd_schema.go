package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// STUB: replaced by the loader helper, who owns this file.
func newSchemaCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "(not built yet)",
		RunE:  func(*cobra.Command, []string) error { return errors.New("schema is not built yet") },
	}
}
