package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/session/load"
)

func newSchemaCommand(g *globalOptions) *cobra.Command {
	var name string
	c := &cobra.Command{
		Use:   "schema",
		Short: "Print the DDL for a database, or drop the schema (schema drop)",
		Long: `schema prints the statements load runs on --database: every table with its primary key, then the
secondary indexes, then the foreign keys (created after the data is in), then the trade-id
sequence. schema drop removes brokerbench's tables and sequence from --db: only from a database
brokerbench loaded (its load marker, in whose schema every object is named), never while a run
holds it, and never cascading: objects of others that depend on them are listed and the drop
refused (docs/faults.md, "Dropping the schema").`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			eng, err := database.Lookup(database.Name(name))
			if err != nil {
				return usagef("--database: %v", err)
			}
			return printDDL(g.Stdout, eng.DDL)
		},
	}
	c.Flags().StringVar(&name, "database", string(database.Postgres), "the database whose DDL to print: "+database.Names())
	aliasFlag(c.Flags(), "dialect", "database")
	c.AddCommand(&cobra.Command{
		Use:   "drop",
		Short: "Drop brokerbench's tables and sequence from the database",
		Args:  cobra.NoArgs,
		RunE:  func(c *cobra.Command, _ []string) error { return load.Drop(c.Context(), g) },
	})
	return c
}

// printDDL writes the schema script of a database. The sequence starts at the first
// run-time id of the smallest scale; load creates it for its own scale.
func printDDL(w io.Writer, ddl database.DDL) error {
	tables := append(schema.Tables(), schema.MetaTables()...)
	var b strings.Builder
	b.WriteString("-- brokerbench schema (TPC-E-like); tables with primary keys\n\n")
	for _, t := range tables {
		b.WriteString(ddl.CreateTable(t) + ";\n\n")
	}
	b.WriteString("-- secondary indexes (created after the data is in)\n")
	for _, t := range tables {
		for _, s := range ddl.Indexes(t) {
			b.WriteString(s + ";\n")
		}
	}
	b.WriteString("\n-- foreign keys (created after the indexes)\n")
	for _, t := range tables {
		for _, s := range ddl.ForeignKeys(t) {
			b.WriteString(s + ";\n")
		}
	}
	sc := schema.Scale{Customers: schema.LoadUnit, TradeDays: schema.DefaultTradeDays}
	fmt.Fprintf(&b, "\n-- run-time trade ids start above the loaded ones (here: %d customers, %d trade days)\n", sc.Customers, sc.TradeDays)
	b.WriteString(ddl.CreateSequence(schema.TradeIDSequence, sc.FirstRunTradeID()) + ";\n")
	_, err := io.WriteString(w, b.String())
	return err
}
