package results

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Step flags, shown in the report's flags column and explained under the table.
const (
	flagPartial    = "P"
	flagBottleneck = "D"
	flagKnee       = "K"
)

// stepFlags lists what makes a step's figures special.
func stepFlags(st *Step, knee bool) string {
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
	return strings.Join(f, "")
}

func hasIO(r *Run) bool {
	for i := range r.Steps {
		if io := r.Steps[i].IO; io != nil && io.Source != "" && io.Source != "none" {
			return true
		}
	}
	return false
}

// WriteReport prints one run: its identity, the per-step table with the knee, and
// each step's per-transaction table.
func WriteReport(w io.Writer, in Input) error {
	r := in.Run
	fmt.Fprintf(w, "%s (%s)\n  %s\n", in.Name(), in.Path, describeRun(in))
	if !r.StartedAt.IsZero() {
		fmt.Fprintf(w, "  started %s", r.StartedAt.UTC().Format("2006-01-02 15:04:05 UTC"))
		if r.Tool != "" {
			fmt.Fprintf(w, ", %s", r.Tool)
		}
		fmt.Fprintln(w)
	}
	if len(r.Steps) == 0 {
		fmt.Fprintln(w, "\nno steps finished")
		return nil
	}
	knee := Knee(r.Steps)
	withIO := hasIO(r)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 2, 0, 2, ' ', tabwriter.AlignRight)
	hdr := "users\ttps\ttpsE\tavg ms\tp95 ms\terrors\tretries\t"
	if withIO {
		hdr += "read IOPS\twrite IOPS\tread ms\twrite ms\tI/O per txn\t"
	}
	fmt.Fprintln(tw, hdr+"flags\t")
	flagsSeen := map[string]bool{}
	for _, i := range stepOrder(r.Steps) {
		st := &r.Steps[i]
		ov := StepOverall(st)
		p95 := "-"
		if ov.HasPercentiles {
			p95 = fmt.Sprintf("%.3f", ov.P95MS)
		}
		line := fmt.Sprintf("%d\t%.1f\t%.2f\t%.3f\t%s\t%d\t%d\t", st.Users, st.TPS, st.TPSE, ov.AvgMS, p95, ov.Errors, ov.Retries)
		if withIO {
			if io := st.IO; io != nil && io.Source != "" && io.Source != "none" {
				line += fmt.Sprintf("%.0f\t%.0f\t%.3f\t%.3f\t%.1f\t", io.ReadIOPS, io.WriteIOPS, io.ReadAwaitMS, io.WriteAwaitMS, io.IOPerTxn)
			} else {
				line += "-\t-\t-\t-\t-\t"
			}
		}
		flags := stepFlags(st, i == knee)
		for _, f := range strings.Split(flags, "") {
			flagsSeen[f] = true
		}
		fmt.Fprintln(tw, line+flags+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if flagsSeen[flagPartial] {
		fmt.Fprintln(w, "  P: partial step, cut short by an interrupt; figures cover what was measured")
	}
	if flagsSeen[flagBottleneck] {
		fmt.Fprintln(w, "  D: the load driver itself was the bottleneck; the step understates the database")
	}
	if knee >= 0 {
		fmt.Fprintf(w, "  K: knee at %d users: tps rose by %.0f %% or less after this step\n", r.Steps[knee].Users, KneeRise*100)
	} else if len(r.Steps) > 1 {
		fmt.Fprintf(w, "  no knee: tps rose by more than %.0f %% at every step\n", KneeRise*100)
	}
	for _, i := range stepOrder(r.Steps) {
		if err := writeTxnTable(w, &r.Steps[i]); err != nil {
			return err
		}
	}
	return nil
}

func writeTxnTable(w io.Writer, st *Step) error {
	fmt.Fprintf(w, "\n%d users, %.0f s measured after %.0f s warm-up\n", st.Users, st.MeasuredS, st.WarmupS)
	names := sortedTxnNames(st.Transactions)
	width := len("transaction")
	for _, n := range names {
		width = max(width, len(n))
	}
	tw := tabwriter.NewWriter(w, 2, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%-*s\tcount\tshare\tavg ms\tp50\tp90\tp95\tp99\tmax\tsvc avg\tsvc p95\terrors\tretries\trollbacks\t\n", width, "transaction")
	for _, name := range names {
		t := st.Transactions[name]
		fmt.Fprintf(tw, "%-*s\t%d\t%.1f %%\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%d\t%d\t%d\t\n",
			width, name, t.Count, t.Share*100, t.AvgMS, t.P50MS, t.P90MS, t.P95MS, t.P99MS, t.MaxMS,
			t.ServiceAvgMS, t.ServiceP95MS, t.Errors, t.Retries, t.Rollbacks)
	}
	return tw.Flush()
}
