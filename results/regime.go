package results

import (
	"fmt"
	"math"
	"strings"
)

// RegimeTolerance is how far two runs' database sizes or memory caps may differ
// before compare warns that their tps are not comparable.
const RegimeTolerance = 0.10

// RegimeWarnings says, for each run against the base, what makes their figures
// incomparable however close the hardware: one measured storage and the other
// memory (at the same user counts), or the database's size or the server's memory
// cap differ by more than RegimeTolerance. A run whose size or cap is unknown
// (older files, a server given with --db) is not judged on that figure.
func (c *Comparison) RegimeWarnings() []string {
	out := c.framesWarnings() // frames.go: where the frames ran
	base := c.Inputs[0]
	for r := 1; r < len(c.Inputs); r++ {
		in := c.Inputs[r]
		pair := in.Name() + " vs " + base.Name()
		var memB, memR []string
		for i, u := range c.Users {
			vb, vr := c.views[i][0], c.views[i][r]
			if vb == nil || vr == nil || !storageKnown(vb.st) || !storageKnown(vr.st) {
				continue
			}
			mb, mr := MemoryResident(vb.st), MemoryResident(vr.st)
			switch {
			case mb && !mr:
				memB = append(memB, fmt.Sprint(u))
			case mr && !mb:
				memR = append(memR, fmt.Sprint(u))
			}
		}
		if len(memB) > 0 {
			out = append(out, fmt.Sprintf("%s: at %s users %s was memory-resident and %s storage-bound; their tps are not comparable (%s).",
				pair, strings.Join(memB, ", "), base.Name(), in.Name(), MemoryResidentAdvice))
		}
		if len(memR) > 0 {
			out = append(out, fmt.Sprintf("%s: at %s users %s was memory-resident and %s storage-bound; their tps are not comparable (%s).",
				pair, strings.Join(memR, ", "), in.Name(), base.Name(), MemoryResidentAdvice))
		}
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
