package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
)

// Step flags, shown in the report's flags column and explained under the table.
const (
	flagPartial    = "P"
	flagBottleneck = "D"
	flagKnee       = "K"
	flagUnsteady   = "U"
	flagMemory     = "M"
	flagWarming    = "W"
	flagDisturbed  = "X"
	flagOver       = "N"
	flagBehind     = "B"
	flagCPUBound   = "C"
	flagIOBound    = "I"
)

// stepFlags lists what makes a step's figures special.
func stepFlags(st *results.Step, sys *results.System, knee bool) string {
	var f []string
	if st.Partial {
		f = append(f, flagPartial)
	}
	if st.Driver.Bottleneck {
		f = append(f, flagBottleneck)
	}
	if knee {
		f = append(f, flagKnee)
	}
	switch figures.DataSourceOf(st) {
	case results.DataMemory:
		f = append(f, flagMemory)
	case results.DataWarming:
		f = append(f, flagWarming)
	}
	if results.HasFlag(st, results.FlagUnsteady) {
		f = append(f, flagUnsteady)
	}
	if figures.Disturbed(st) {
		f = append(f, flagDisturbed)
	}
	if results.HasFlag(st, figures.FlagOverNominal) {
		f = append(f, flagOver)
	}
	if figures.BehindSchedule(st) {
		f = append(f, flagBehind)
	}
	if figures.CPUBound(st) {
		f = append(f, flagCPUBound)
	}
	if figures.IOBound(st, sys) {
		f = append(f, flagIOBound)
	}
	return strings.Join(f, "")
}

// WriteReport prints one run: its identity, the per-step table with the knee, and
// each step's per-transaction table.
func WriteReport(w io.Writer, in results.Input) error {
	w = results.NewTerminalWriter(w)
	r := in.Run
	fmt.Fprintf(w, "%s (%s)\n  %s\n", in.Name(), in.Path, describeRun(in))
	if !r.StartedAt.IsZero() {
		fmt.Fprintf(w, "  started %s", r.StartedAt.UTC().Format("2006-01-02 15:04:05 UTC"))
		if r.Tool != "" {
			fmt.Fprintf(w, ", %s", r.Tool)
		}
		fmt.Fprintln(w)
	}
	for _, n := range serverNotes(r) {
		fmt.Fprintln(w, "  "+n)
	}
	if len(r.Steps) == 0 {
		fmt.Fprintln(w, "\nno steps finished")
		return nil
	}
	if r.Max != nil {
		fmt.Fprintln(w, "\n"+MaxSummary(r.Max))
	}
	if err := writeTextTable(w, stepsTable(r, false)); err != nil {
		return err
	}
	for _, n := range stepNotes(r) {
		fmt.Fprintln(w, "  "+n)
	}
	lims, _ := results.LimitsOf(r)
	for _, i := range figures.StepOrder(r.Steps) {
		if err := writeTextTable(w, txnTable(&r.Steps[i], lims)); err != nil {
			return err
		}
	}
	return nil
}

// stepsTable is the run's per-step table, in user order; hostApart leaves the host
// columns to hostTable.
func stepsTable(r *results.Run, hostApart bool) table {
	knee := figures.Knee(r.Steps)
	withIO := figures.HasIO(r)
	lims, withLimits := results.LimitsOf(r)
	withRate, withSteady := false, false
	for i := range r.Steps {
		withRate = withRate || r.Steps[i].Rate > 0
		withSteady = withSteady || r.Steps[i].Steadiness != nil
	}
	t := table{Caption: "Steps (measured window)", Head: []string{"users"}}
	if withRate {
		t.Head = append(t.Head, "offered tps")
	}
	t.Head = append(t.Head, "tps", "tpsE", "avg ms", "p95 ms", "errors", "retries")
	if withIO {
		t.Head = append(t.Head, "read IOPS", "write IOPS", "read MB/s", "write MB/s", "read await ms", "write await ms", "I/O per txn")
	}
	perTxn, hit := withIO && hasPerTxn(r), hasHitRatio(r)
	t.Head = append(t.Head, storageHead(perTxn, hit)...)
	withHost := hasHost(r) && !hostApart
	t.Head = append(t.Head, hostHead(withHost)...)
	if withSteady {
		t.Head = append(t.Head, "steadiness")
	}
	if withLimits {
		t.Head = append(t.Head, "limits")
	}
	t.Head = append(t.Head, "flags")
	for _, i := range figures.StepOrder(r.Steps) {
		st := &r.Steps[i]
		lead := leadingFigures(st)
		row := []cell{{Text: lead[0], Class: "num"}}
		if withRate {
			row = append(row, numCell("%.4g", st.Rate))
		}
		for _, f := range lead[1:] {
			row = append(row, cell{Text: f, Class: "num"})
		}
		if withIO {
			if io := st.IO; figures.IOKnown(io) {
				row = append(row, numCell("%.0f", io.ReadIOPS), numCell("%.0f", io.WriteIOPS), numCell("%.2f", io.ReadMBps),
					numCell("%.2f", io.WriteMBps), numCell("%.3f", io.ReadAwaitMS), numCell("%.3f", io.WriteAwaitMS), numCell("%.1f", io.IOPerTxn))
			} else {
				for range 7 {
					row = append(row, dash)
				}
			}
		}
		row = append(row, storageCells(st, perTxn, hit)...)
		row = append(row, hostCells(st, withHost)...)
		if withSteady {
			row = append(row, cell{Text: figures.DescribeSteadiness(st.Steadiness)})
		}
		if withLimits {
			row = append(row, verdictCell(figures.JudgeLimits(lims, st)))
		}
		flags := stepFlags(st, r.System, i == knee)
		if r.Max != nil && r.Max.Step == i && !r.Max.Resolved() {
			flags += flagUnresolvedMax
		}
		row = append(row, cell{Text: flags})
		t.Rows = append(t.Rows, row)
	}
	return t
}

// stepNotes explain the flags that occur and name the knee.
func stepNotes(r *results.Run) []string {
	var notes []string
	var partial, bottleneck, unsteady, over bool
	for i := range r.Steps {
		partial = partial || r.Steps[i].Partial
		bottleneck = bottleneck || r.Steps[i].Driver.Bottleneck
		unsteady = unsteady || results.HasFlag(&r.Steps[i], results.FlagUnsteady)
		over = over || results.HasFlag(&r.Steps[i], figures.FlagOverNominal)
	}
	if partial {
		notes = append(notes, "P: partial step, cut short by an interrupt; figures cover what was measured.")
	}
	if bottleneck {
		notes = append(notes, "D: the load driver itself was the bottleneck; the step understates the database.")
	}
	if n := memoryResidentNote(r); n != "" {
		notes = append(notes, n)
	}
	if n := warmingNote(r); n != "" {
		notes = append(notes, n)
	}
	if n := figures.DisturbedNote(r); n != "" {
		notes = append(notes, n)
	}
	notes = append(notes, compare.BoundNote(r)...)
	if unsteady {
		notes = append(notes, "U: "+figures.UnsteadyAdvice+".")
	}
	if n := figures.BehindNote(r); n != "" {
		notes = append(notes, n)
	}
	notes = append(notes, figures.NominalShortNotes(r)...)
	if n := unresolvedMaxTableNote(r); n != "" {
		notes = append(notes, n)
	}
	if over {
		notes = append(notes, "N: over nominal: tpsE above 102 % of customers/500 by more than two standard deviations of its Trade-Result count; the database works harder than its size warrants (run --pace nominal).")
	}
	if lims, ok := results.LimitsOf(r); ok {
		notes = append(notes, limitsNote(lims))
	}
	if knee := figures.Knee(r.Steps); knee >= 0 {
		notes = append(notes, fmt.Sprintf("K: knee at %d users: tps rose by %.0f %% or less after this step.", r.Steps[knee].Users, figures.KneeRise*100))
	} else if len(r.Steps) > 1 {
		notes = append(notes, fmt.Sprintf("No knee: tps rose by more than %.0f %% at every step.", figures.KneeRise*100))
	}
	return notes
}

// txnTable is one step's per-transaction table; with limits (nil for a file that
// recorded none) it adds each transaction's p90 limit and its pass/fail.
func txnTable(st *results.Step, lims results.Limits) table {
	caption := fmt.Sprintf("%d users, %.0f s measured after %.0f s warm-up", st.Users, st.MeasuredS, st.WarmupS)
	if st.Rate > 0 {
		caption = fmt.Sprintf("%d users at %.4g tps offered, %.0f s measured after %.0f s warm-up", st.Users, st.Rate, st.MeasuredS, st.WarmupS)
	}
	t := table{Caption: caption,
		Head: []string{"transaction", "count", "share", "avg ms", "p50", "p90", "p95", "p99", "max", "svc avg", "svc p95", "errors", "retries", "rollbacks"}}
	if lims != nil {
		t.Head = append(t.Head, "p90 limit", "limit")
	}
	for _, name := range figures.SortedTxnNames(st.Transactions) {
		x := st.Transactions[name]
		row := []cell{{Text: name, Class: "name"}, numCell("%.0f", float64(x.Count)), numCell("%.1f %%", x.Share*100),
			numCell("%.3f", x.AvgMS), numCell("%.3f", x.P50MS), numCell("%.3f", x.P90MS), numCell("%.3f", x.P95MS), numCell("%.3f", x.P99MS),
			numCell("%.3f", x.MaxMS), numCell("%.3f", x.ServiceAvgMS), numCell("%.3f", x.ServiceP95MS),
			numCell("%.0f", float64(x.Errors)), numCell("%.0f", float64(x.Retries)), numCell("%.0f", float64(x.Rollbacks))}
		if lims != nil {
			row = append(row, txnLimitCells(st, name, lims)...)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
