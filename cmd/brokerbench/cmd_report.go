package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/report"
	"github.com/brokerbench/brokerbench/session"
)

// reportOptions are the flags of `brokerbench report`.
type reportOptions struct {
	CSV  string // --csv FILE ("-" for stdout)
	HTML string // --html FILE
	JSON bool   // --json: print the run instead of the tables
}

func (o *reportOptions) AddFlags(c *cobra.Command) {
	f := c.Flags()
	f.StringVar(&o.CSV, "csv", "", "also write one CSV row per step to `FILE` (- for standard output); columns in docs/result-format.md")
	f.StringVar(&o.HTML, "html", "", "also write a self-contained HTML report with charts to `FILE`")
	f.BoolVar(&o.JSON, "json", false, "print the result file's run as JSON instead of the tables")
}

func newReportCommand(g *globalOptions) *cobra.Command {
	var o reportOptions
	c := &cobra.Command{
		Use:   "report RESULT.json [REPEAT.json...]  |  report STUDYDIR",
		Short: "Print one run's per-step and per-transaction tables; export CSV, JSON or HTML",
		Long: `report reads one result file written by 'brokerbench run' and prints the per-step table
(users, tps, tpsE, response times, errors, retries, storage IOPS and latency, flags for partial
steps and for steps where the load driver was the bottleneck), the tps knee, and one
per-transaction table per step. It reads only the file: no database is needed. A
storage-profile file (brokerbench disk) prints its profile × outstanding-I/O table instead.
Given several files of one configuration (run --repeat N writes them), it shows per user count
each figure's mean over the runs, min / median / max and the 95 % interval of the mean, and
the HTML report draws box plots. Given a study folder (brokerbench study), it prints the
study's report as compare does.`,
		Example: `  brokerbench report h810.json
  brokerbench report h810.json --html h810.html --csv h810.csv
  brokerbench report h810-r1.json h810-r2.json h810-r3.json --html h810.html`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := session.RefuseOutputOverInput([]session.Output{{Flag: "--csv", Path: o.CSV}, {Flag: "--html", Path: o.HTML}}, args); err != nil {
				return err
			}
			if len(args) == 1 && isFolder(args[0]) { // a study folder (compare_study.go)
				return runReportStudy(g.Stdout, args[0], o)
			}
			if len(args) > 1 {
				return runRepeatsReport(g.Stdout, args, o)
			}
			return runReport(g.Stdout, args[0], o)
		},
	}
	o.AddFlags(c)
	return c
}

func runReport(stdout io.Writer, path string, o reportOptions) error {
	run, err := results.Read(path)
	if err != nil {
		return err
	}
	in := results.Input{Path: path, Run: run}
	if o.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(run); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	} else if compare.IsDisk(in) {
		if err := report.WriteDiskReport(stdout, in); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	} else if err := report.WriteReport(stdout, in); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	csvOut := report.WriteStepsCSV
	htmlOut := func(w io.Writer, in results.Input) error { return report.WriteReportHTML(w, in, driver.Workload()) }
	if compare.IsDisk(in) {
		csvOut, htmlOut = report.WriteDiskCSV, report.WriteDiskReportHTML
	}
	if o.CSV != "" {
		if err := session.WriteOutput(stdout, o.CSV, func(w io.Writer) error { return csvOut(w, []results.Input{in}) }); err != nil {
			return err
		}
	}
	if o.HTML != "" {
		if err := session.WriteOutput(stdout, o.HTML, func(w io.Writer) error { return htmlOut(w, in) }); err != nil {
			return err
		}
	}
	return nil
}

// runRepeatsReport reports several runs of one configuration together.
func runRepeatsReport(stdout io.Writer, paths []string, o reportOptions) error {
	if o.JSON {
		return usagef("report --json prints one run; give one file")
	}
	side, err := readSide(paths)
	if err != nil {
		return err
	}
	for _, in := range side.All() {
		if compare.IsDisk(in) {
			return usagef("report: %s is a storage profile; report takes several files only as repeats of one OLTP run", in.Path)
		}
	}
	if err := report.WriteRepeatsReport(stdout, side); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if o.CSV != "" {
		if err := session.WriteOutput(stdout, o.CSV, func(w io.Writer) error { return report.WriteStepsCSV(w, []results.Input{side}) }); err != nil {
			return err
		}
	}
	if o.HTML != "" {
		if err := session.WriteOutput(stdout, o.HTML, func(w io.Writer) error { return report.WriteRepeatsReportHTML(w, side) }); err != nil {
			return err
		}
	}
	return nil
}
