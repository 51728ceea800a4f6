package results

import (
	"fmt"
	"math"
	"strings"
)

// RegimeTolerance is how far two runs' database sizes or memory caps may differ
// before compare warns that their tps are not comparable.
const RegimeTolerance = 0.10

// RegimeWarnings says what makes the runs' figures incomparable however close the
// hardware: a run with steps that measured memory rather than storage, or whose
// regime is unknown (no device counters: see RegimeOf), even when both runs are alike
// in that, since two cached runs compare their memory, not their storage; and, for each
// run against the base, databases or memory caps that differ by more than
// RegimeTolerance. A run whose size or cap is unknown (older files, a server given with
// --db) is not judged on that figure.
func (c *Comparison) RegimeWarnings() []string {
	out := c.framesWarnings() // frames.go: where the frames ran
	for _, in := range c.Inputs {
		mem, unknown := regimeUsers(in.Run)
		if len(mem) > 0 {
			out = append(out, fmt.Sprintf("%s: at %s users the step was memory-resident: it measured memory, not storage, so its tps say nothing about the storage (%s).",
				in.Name(), strings.Join(mem, ", "), MemoryResidentAdvice))
		}
		if len(unknown) > 0 {
			out = append(out, fmt.Sprintf("%s: at %s users the regime is unknown: %s.", in.Name(), strings.Join(unknown, ", "), UnknownRegimeAdvice))
		}
	}
	base := c.Inputs[0]
	for r := 1; r < len(c.Inputs); r++ {
		in := c.Inputs[r]
		pair := in.Name() + " vs " + base.Name()
		db, dr := base.Run.Database, in.Run.Database
		if db.SizeBytes > 0 && dr.SizeBytes > 0 && differs(float64(db.SizeBytes), float64(dr.SizeBytes)) {
			out = append(out, fmt.Sprintf("%s: the databases differ in size (%s vs %s, more than %.0f %%); their tps are not comparable.",
				pair, formatBytes(dr.SizeBytes), formatBytes(db.SizeBytes), RegimeTolerance*100))
		}
		// A cap recorded on one side only is a difference too: a managed server
		// always records its cap, so 0 next to a cap means "uncapped".
		if (db.MemoryCapBytes > 0 || dr.MemoryCapBytes > 0) && differs(float64(db.MemoryCapBytes), float64(dr.MemoryCapBytes)) {
			out = append(out, fmt.Sprintf("%s: the server's memory caps differ (%s vs %s, more than %.0f %%); their tps are not comparable.",
				pair, capText(dr.MemoryCapBytes), capText(db.MemoryCapBytes), RegimeTolerance*100))
		}
	}
	return out
}

func capText(b int64) string {
	if b <= 0 {
		return "none"
	}
	return formatBytes(b)
}

// differs reports a relative difference above RegimeTolerance of the larger value.
func differs(a, b float64) bool {
	hi := math.Max(a, b)
	return hi > 0 && math.Abs(a-b)/hi > RegimeTolerance
}

// UnknownRegimeAdvice says why a step's regime is unknown and what tells it.
const UnknownRegimeAdvice = "no device counters were read (only the database's own I/O views, which count reads the OS page cache served as disk reads), " +
	"so the step may have measured memory; run brokerbench on the database's host, or give --io-device or --io-node-exporter"

// regimeUsers lists the user counts of r's memory-resident and unknown steps.
func regimeUsers(r *Run) (mem, unknown []string) {
	for _, i := range stepOrder(r.Steps) {
		switch RegimeOf(&r.Steps[i]) {
		case RegimeMemoryResident:
			mem = append(mem, fmt.Sprint(r.Steps[i].Users))
		case RegimeUnknown:
			unknown = append(unknown, fmt.Sprint(r.Steps[i].Users))
		}
	}
	return mem, unknown
}
