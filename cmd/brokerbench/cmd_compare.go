package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/report"
	"github.com/brokerbench/brokerbench/session"
)

// compareOptions are the flags of `brokerbench compare`.
type compareOptions struct {
	FailIf []string // --fail-if EXPR, repeatable
	// AllowUnjudged: a gate that reads the verdict at a step without one prints
	// its line but does not fail the command (exit 4).
	AllowUnjudged bool
	// AllowDisturbed judges repeats whose windows were disturbed unevenly
	// (a checkpoint, autovacuum, CPU steal or a warming cache in some of them).
	AllowDisturbed bool
	CSV            string
	HTML           string
	JSON           string
}

func (o *compareOptions) AddFlags(c *cobra.Command) {
	f := c.Flags()
	f.StringArrayVar(&o.FailIf, "fail-if", nil, "exit 3 if `EXPR` holds for a run after the first at a matched step, e.g. \"tps<-10%\", \"p95>+20%\", \"errors>0\", \"trade-result.p90>2s\" (repeatable)")
	f.BoolVar(&o.AllowUnjudged, "allow-unjudged", false, "a \"significant\" or verdict gate (\"tps worse\") whose figure has no verdict (one run a side, too few repeats, too short) prints its line but does not exit 4")
	f.BoolVar(&o.AllowDisturbed, "allow-disturbed", false, "judge repeats even when a checkpoint, autovacuum, CPU steal or a warming cache disturbed some of their windows and not the others (the verdict says so)")
	f.StringVar(&o.CSV, "csv", "", "also write one CSV row per (run, step) to `FILE` (- for standard output)")
	f.StringVar(&o.HTML, "html", "", "also write a self-contained HTML comparison with charts to `FILE`")
	f.StringVar(&o.JSON, "json", "", "also write every change with its 95 % interval, detectable difference and verdict, and what differs, as JSON to `FILE` (- for standard output)")
}

func newCompareCommand(g *globalOptions) *cobra.Command {
	var o compareOptions
	c := &cobra.Command{
		Use:   "compare BASE.json OTHER.json [MORE.json...]  |  compare A1.json A2.json... -- B1.json B2.json... [-- C1.json...]  |  compare STUDYDIR",
		Short: "Compare runs step by step against the first; gate CI on regressions",
		Long: `compare matches the runs' steps by user count and prints every figure side by side with its
change against the first file (the base): tps, tpsE, average and percentile response times,
each transaction's p95, read/write IOPS, MB/s and await, I/O per transaction. Steps without a
counterpart are listed. A headline per run sums it up at the highest shared user count.
"What differs" comes first: the storage stack under the database (file system, dm/LVM, md
RAID, partitions, disks, write cache, scheduler...), the database's I/O settings, the tags.

Every change has a 95 % interval, the smallest difference the data can show (detectable),
and a verdict: better, worse, within noise (marked ~), or no verdict with the reason. With
one run per side the interval comes from inside the runs (batch means of the per-second
samples; a block bootstrap of the per-second histograms for response times): it covers only
the noise within each run, so it gives no verdict. Files of repeated runs (run --repeat) are
given as one side each, sides separated by --; their figures are then the repeats' means,
shown with min / median / max, and the interval comes from the run-to-run spread (Welch t on
the logarithms); a verdict needs at least 3 runs a side.

--fail-if EXPR is METRIC OP VALUE. METRIC: tps, tps_e, avg, p50, p90, p95, p99, errors, retries,
read_iops, write_iops, iops, read_mbps, write_mbps, read_await, write_await, io_per_txn, or
TRANSACTION.FIGURE (trade-result.p90; figures avg, p50, p90, p95, p99, max). OP: < > <= >=.
VALUE: a change against the base such as -10% or +20%, or an absolute value (times take a
unit: 250ms, 2s; without one they are milliseconds). A change gate followed by "significant"
trips only when the whole 95 % interval is past the threshold ("tps<-10% significant");
"METRIC worse" trips when the change is judged worse (significant, any size). Every run after
the first is checked at every step it shares with the base. A "significant" or verdict gate
whose figure has no verdict there (one run a side: its interval covers only the noise within
each run; fewer than 3 repeats a side; too short for an interval) cannot judge: a line names
the figure and the reason, and compare exits 4 unless --allow-unjudged is given. Exit codes:
0 no gate tripped, 2 bad expression, 3 a gate tripped, 4 a gate could not judge.

Storage-profile files (brokerbench disk) are matched by profile and outstanding I/Os, and
gated with disk.METRIC (disk.iops<-10%, disk.read_p99>+20%; docs/disk-profiles.md); given as
sides of repeats (A1-disk.json A2-disk.json A3-disk.json -- B1-disk.json ...) they are judged
as runs are, with an interval, detectable difference and verdict. Given
with OLTP result files of the same systems, the runs are compared first, then the profiles;
--csv and --html then write the profiles' half to a sibling file (FILE-disk.csv).

Given one study folder (brokerbench study), compare reads its record and every finished run,
compares each workload across the systems (each system one side of its repeats, the baseline
first) and prints one report: headlines, a table per workload with the systems as columns,
the runs in the order they ran, the drift check. Run gates apply to its OLTP workloads,
disk.METRIC gates to its profiles and replays.`,
		Example: `  brokerbench compare h800.json h810.json --html report.html
  brokerbench compare baseline.json new.json --fail-if "tps<-10%" --fail-if "errors>0"
  brokerbench compare --fail-if "tps<-10% significant" --fail-if "p95 worse" base-r1.json base-r2.json base-r3.json -- new-r1.json new-r2.json new-r3.json
  brokerbench compare h800-r1.json h800-r2.json h800-r3.json -- h810-r1.json h810-r2.json h810-r3.json
  brokerbench compare h800.json h810.json h800-disk.json h810-disk.json --fail-if "disk.iops<-10%"
  brokerbench compare controllers-study/ --html controllers.html --fail-if "tps_e worse"`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 { // a study folder (compare_study.go)
				return runCompareStudy(g.Stdout, args[0], o)
			}
			sides, err := splitSides(args, cmd.ArgsLenAtDash())
			if err != nil {
				return err
			}
			if err := session.RefuseOutputOverInput(o.outputs(), args); err != nil {
				return err
			}
			return runCompare(g.Stdout, sides, o)
		},
	}
	o.AddFlags(c)
	return c
}

// outputs are the files compare may write: with storage profiles beside OLTP
// runs, the profiles' half goes to a sibling of each (compareWithDisks), which must
// not be an input either.
func (o compareOptions) outputs() []session.Output {
	outs := []session.Output{{Flag: "--csv", Path: o.CSV}, {Flag: "--json", Path: o.JSON}, {Flag: "--html", Path: o.HTML}}
	for _, x := range []session.Output{{Flag: "--csv", Path: o.CSV}, {Flag: "--html", Path: o.HTML}} {
		if x.Path != "" && x.Path != "-" {
			outs = append(outs, session.Output{Flag: x.Flag + " (its storage-profile half)", Path: siblingPath(x.Path, "-disk")})
		}
	}
	return outs
}

// splitSides groups compare's files into sides: each file its own side, or, when
// the arguments hold "--" (dash is cobra's ArgsLenAtDash), the files between the
// separators one side each.
func splitSides(args []string, dash int) ([][]string, error) {
	if dash < 0 {
		sides := make([][]string, len(args))
		for i, a := range args {
			sides[i] = []string{a}
		}
		return sides, nil
	}
	sides := [][]string{args[:dash]}
	cur := []string{}
	for _, a := range args[dash:] {
		if a == "--" {
			sides = append(sides, cur)
			cur = []string{}
			continue
		}
		cur = append(cur, a)
	}
	sides = append(sides, cur)
	for i, s := range sides {
		if len(s) == 0 {
			return nil, usagef("compare: side %d has no file (sides are separated by --: A1.json A2.json -- B1.json B2.json)", i+1)
		}
	}
	if len(sides) < 2 {
		return nil, usagef("compare needs at least two sides")
	}
	return sides, nil
}

// readSide reads one side's files: the first is the side, the others its repeats.
func readSide(paths []string) (results.Input, error) {
	var in results.Input
	for k, p := range paths {
		run, err := results.Read(p)
		if err != nil {
			return in, err
		}
		if k == 0 {
			in = results.Input{Path: p, Run: run}
			continue
		}
		in.Repeats = append(in.Repeats, results.Input{Path: p, Run: run})
	}
	return in, nil
}

// parseAllGates parses --fail-if into run gates and storage-profile gates; a
// malformed one is a usage error.
func parseAllGates(failIf []string) ([]compare.Gate, []compare.DiskGate, error) {
	runGates, diskGates, err := splitGates(failIf)
	if err != nil {
		return nil, nil, err
	}
	gates, err := compare.ParseGates(runGates)
	if err != nil {
		return nil, nil, usageError{Err: err}
	}
	return gates, diskGates, nil
}

func runCompare(stdout io.Writer, sides [][]string, o compareOptions) error {
	// Gates first: a typo in CI must fail fast and as a usage error, before any work.
	gates, diskGates, err := parseAllGates(o.FailIf)
	if err != nil {
		return err
	}
	inputs, disks, err := readSides(sides)
	if err != nil {
		return err
	}
	if len(disks) > 0 {
		return compareWithDisks(stdout, inputs, disks, o, diskGates)
	}
	cmp, err := compare.Compare(inputs)
	if err != nil {
		return usageError{Err: err}
	}
	cmp.AllowDisturbed = o.AllowDisturbed
	trips, err := cmp.CheckGates(gates)
	if err != nil {
		var se *compare.GateSyntaxError
		if errors.As(err, &se) {
			return usageError{Err: err}
		}
		return err
	}
	unjudged := cmp.Unjudged(gates)
	if err := report.WriteComparisonText(cmp, stdout); err != nil {
		return err
	}
	if len(gates) > 0 {
		var unchecked []string
		for _, g := range cmp.Unevaluated(gates) {
			unchecked = append(unchecked, g.Expr)
		}
		gateLines{heading: "Gates:", where: "shared step", given: stringsOf(gates), unchecked: unchecked, trips: stringsOf(trips),
			unjudged: stringsOf(unjudged), allowUnjudged: o.AllowUnjudged}.write(stdout)
	}
	if err := writeComparison(stdout, o, cmp, report.CompareHTMLOptions{Gates: gates, Trips: trips}); err != nil {
		return err
	}
	if len(trips) > 0 {
		return gateError{msg: fmt.Sprintf("%d --fail-if gate(s) tripped: %s", len(trips), strings.Join(stringsOf(trips), "; "))}
	}
	if len(unjudged) > 0 && !o.AllowUnjudged {
		// A tripped gate is the stronger news and keeps exit 3; this is exit 4.
		return unjudgedError{msg: fmt.Sprintf("%d --fail-if gate(s) could not judge (--allow-unjudged lets them pass): %s",
			len(unjudged), strings.Join(stringsOf(unjudged), "; "))}
	}
	return nil
}

// writeComparison writes the --csv, --json and --html files a compare was asked for.
func writeComparison(stdout io.Writer, o compareOptions, cmp *compare.Comparison, ho report.CompareHTMLOptions) error {
	if o.CSV != "" {
		if err := session.WriteOutput(stdout, o.CSV, func(w io.Writer) error { return report.WriteComparisonCSV(cmp, w) }); err != nil {
			return err
		}
	}
	if o.JSON != "" {
		if err := session.WriteOutput(stdout, o.JSON, func(w io.Writer) error { return report.WriteComparisonJSON(cmp, w) }); err != nil {
			return err
		}
	}
	if o.HTML != "" {
		return session.WriteOutput(stdout, o.HTML, func(w io.Writer) error { return report.WriteComparisonHTML(cmp, w, ho) })
	}
	return nil
}

// gateLines are the gates a compare checked as its text lists them under heading:
// each one given, a warning for each whose figure was unknown at every shared step
// (where names the step), each that tripped, or that none did.
type gateLines struct {
	heading, where          string
	given, unchecked, trips []string
	// unjudged are the gates that found a figure without a verdict; with
	// allowUnjudged they are listed as allowed.
	unjudged      []string
	allowUnjudged bool
}

func (g gateLines) write(w io.Writer) {
	fmt.Fprintln(w, "\n"+g.heading)
	for _, s := range g.given {
		fmt.Fprintf(w, "  --fail-if %s\n", s)
	}
	for _, e := range g.unchecked {
		fmt.Fprintf(w, "  WARNING --fail-if %q was checked nowhere: its figure is unknown at every %s\n", e, g.where)
	}
	for _, t := range g.trips {
		fmt.Fprintf(w, "  TRIPPED %s\n", t)
	}
	for _, u := range g.unjudged {
		if g.allowUnjudged {
			fmt.Fprintf(w, "  UNJUDGED (allowed) %s\n", u)
		} else {
			fmt.Fprintf(w, "  UNJUDGED %s\n", u)
		}
	}
	if len(g.trips) == 0 && len(g.unjudged) == 0 {
		fmt.Fprintln(w, "  none tripped")
	}
}

// stringsOf is each value's String.
func stringsOf[T fmt.Stringer](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.String()
	}
	return out
}
