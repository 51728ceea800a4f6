package main

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/brokerbench/brokerbench/session/quickstart"
)

// addQuickstartFlags declares the flags of `brokerbench quickstart` into o.
func addQuickstartFlags(c *cobra.Command, o *quickstart.Options) {
	f := c.Flags()
	f.StringVar(&o.Users, "users", "2,4,8,16", "user levels of the short ramp")
	f.DurationVar(&o.Step, "step", 20*time.Second, "how long each user level runs")
	f.DurationVar(&o.Warmup, "warmup", 5*time.Second, "the unmeasured start of each step")
	f.StringVar(&o.Out, "out", "", "result file; default quickstart-<time>.json")
	f.StringVar(&o.HTML, "html", "", "HTML report; default the result file's name with .html")
	addServerMemoryFlag(c, &o.ServerMemory, "cap the managed PostgreSQL's memory, page cache included, after the load (e.g. 256MB); "+
		"default: half the loaded database (at least what the run's connections need), so the run reads from the disks; 0: no cap")
}

func newQuickstartCommand(g *globalOptions) *cobra.Command {
	o := &quickstart.Options{}
	c := &cobra.Command{
		Use:   "quickstart",
		Short: "Start a local PostgreSQL, load a small database, run a short ramp and report it",
		Long: `quickstart is the first command to try. With no --db it starts a managed local PostgreSQL
(removed afterwards, or kept in --pgdata), loads 1,000 customers and 5 trade days, ramps
2, 4, 8 and 16 users for 20 seconds each, prints the per-step table, and writes a result file
and an HTML report. It takes a few minutes. The figures are TPC-E-like, not TPC-E results.

After the load it caps the managed server's memory (page cache included) at half the
database's size, so the database is about twice the memory and the run reads from the disks
as a storage comparison needs; --server-memory sets another cap, 0 none (the cap needs root or
a delegated cgroup; without one quickstart runs uncapped and says so).`,
		Example: `  brokerbench quickstart
  brokerbench quickstart --users 4,8 --step 1m --warmup 15s
  brokerbench quickstart --pgdata /mnt/array-under-test/bbdata`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			o.Run = defaultRunOptions()
			return quickstart.Run(c.Context(), g, o)
		},
	}
	addQuickstartFlags(c, o)
	return c
}
