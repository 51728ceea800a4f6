package compare

import (
	"fmt"
	"math"
	"slices"

	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// RegimeTolerance is how far two runs' database sizes or memory caps may differ
// before compare warns that their tps are not comparable.
const RegimeTolerance = 0.10

// RegimeWarnings says what makes the runs' figures incomparable however close the
// hardware: a run with steps that measured memory rather than storage, whose
// data source is unknown (no device counters: see DataSourceOf), or whose cache was still
// warming, even when both runs are alike
// in that, since two cached runs compare their memory, not their storage; and, for each
// run against the base, databases or memory caps that differ by more than
// RegimeTolerance. A run whose size or cap is unknown (older files, a server given with
// --db) is not judged on that figure. Two databases (PostgreSQL and MariaDB) store the
// same rows in different bytes, so between them the loads are compared instead (seed
// and scale), and a size that differs by engine is a note (RegimeNotes).
func (c *Comparison) RegimeWarnings() []string {
	out := c.FramesWarnings() // frames.go: where the frames ran
	for _, in := range c.Inputs {
		u := dataSourceUsers(in.Run)
		if len(u.memory) > 0 {
			out = append(out, fmt.Sprintf("%s: %s the step read its data from memory: it measured memory, not storage, so its tps say nothing about the storage (%s).",
				in.Name(), figures.AtUsers(u.memory), figures.MemoryResidentAdvice))
		}
		if len(u.warming) > 0 {
			out = append(out, fmt.Sprintf("%s: %s the cache was still warming (the disks' reads fell through the window): the step measured neither the storage nor memory, so its figures compare with nothing (%s).",
				in.Name(), figures.AtUsers(u.warming), WarmingAdvice))
		}
		if len(u.views) > 0 {
			out = append(out, fmt.Sprintf("%s: %s the data source is unknown: %s.", in.Name(), figures.AtUsers(u.views), UnknownRegimeAdvice))
		}
		if len(u.noPerTxn) > 0 {
			out = append(out, fmt.Sprintf("%s: %s the data source is unknown: %s.", in.Name(), figures.AtUsers(u.noPerTxn), NoPerTxnAdvice))
		}
		if len(u.none) > 0 {
			out = append(out, fmt.Sprintf("%s: %s the data source is unknown: %s.", in.Name(), figures.AtUsers(u.none), NoIOSourceAdvice))
		}
	}
	base := c.Inputs[0]
	for r := 1; r < len(c.Inputs); r++ {
		in := c.Inputs[r]
		pair := in.Name() + " vs " + base.Name()
		db, dr := base.Run.Database, in.Run.Database
		if differentDatabases(in.Run, base.Run) {
			if known, same := sameLoad(in.Run, base.Run); known && !same {
				out = append(out, fmt.Sprintf("%s: the loads differ (%s vs %s); their tps are not comparable.",
					pair, loadText(in.Run), loadText(base.Run)))
			}
		} else if sizesDiffer(db, dr) {
			out = append(out, fmt.Sprintf("%s: the databases differ in size (%s vs %s, more than %.0f %%); their tps are not comparable.",
				pair, bytesize.Format(dr.SizeBytes), bytesize.Format(db.SizeBytes), RegimeTolerance*100))
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

// RegimeNotes says, for each run on another database than the base's with the same
// load, that their sizes differ by engine: the same rows take other bytes on
// PostgreSQL than on MariaDB, which is no difference in the data.
func (c *Comparison) RegimeNotes() []string {
	var out []string
	base := c.Inputs[0]
	for _, in := range c.Inputs[1:] {
		db, dr := base.Run.Database, in.Run.Database
		if known, same := sameLoad(in.Run, base.Run); known && same && differentDatabases(in.Run, base.Run) && sizesDiffer(db, dr) {
			out = append(out, fmt.Sprintf("%s vs %s: the same load (%s) takes %s on %s and %s on %s: the sizes differ by engine, not by data.",
				in.Name(), base.Name(), loadText(base.Run), bytesize.Format(dr.SizeBytes), dr.Product, bytesize.Format(db.SizeBytes), db.Product))
		}
	}
	return out
}

// sizesDiffer says whether two databases' sizes, both known, differ by more than
// RegimeTolerance.
func sizesDiffer(a, b results.Database) bool {
	return a.SizeBytes > 0 && b.SizeBytes > 0 && differs(float64(a.SizeBytes), float64(b.SizeBytes))
}

// sameLoad says whether two runs ran on the same data, the same seed and scale;
// known is false when a run does not record its scale.
func sameLoad(a, b *results.Run) (known, same bool) {
	if a.Scale.Customers == 0 || b.Scale.Customers == 0 {
		return false, false
	}
	return true, a.Seed == b.Seed && a.Scale == b.Scale
}

// loadText names a run's load: "1000 customers, 5 trade days, seed 1".
func loadText(r *results.Run) string {
	return fmt.Sprintf("%d customers, %d trade days, seed %d", r.Scale.Customers, r.Scale.TradeDays, r.Seed)
}

func capText(b int64) string {
	if b <= 0 {
		return "none"
	}
	return bytesize.Format(b)
}

// differs reports a relative difference above RegimeTolerance of the larger value.
func differs(a, b float64) bool {
	hi := math.Max(a, b)
	return hi > 0 && math.Abs(a-b)/hi > RegimeTolerance
}

// UnknownRegimeAdvice says why a step's data source is unknown when only the database's
// own I/O views were read, and what tells it.
const UnknownRegimeAdvice = "no device counters were read (only the database's own I/O views, which count reads the OS page cache served as disk reads), " +
	"so the step may have measured memory; run brokerbench on the database's host, or give --io-device or --io-node-exporter"

// NoIOSourceAdvice says why a step's data source is unknown when no I/O figures were
// read at all (a server that exposes none, such as a T-SQL endpoint without
// sys.dm_io_virtual_file_stats, and no device found): running on the database's host
// may not help, naming the devices does.
const NoIOSourceAdvice = "no I/O figures were read at all (the server exposes none and no device under it was found), " +
	"so the step may have measured memory; give --io-device or --io-node-exporter for the disks under the database"

// NoPerTxnAdvice says why a step with device counters has no data source: its file holds
// no reads per transaction (an older brokerbench wrote it, or no transaction finished).
const NoPerTxnAdvice = "the file holds device counters but no reads per transaction (written by an older brokerbench, or no transaction finished), " +
	"so the step may have measured memory; run it again with this brokerbench"

// WarmingAdvice is what a user can do about a step whose cache warmed in its window.
const WarmingAdvice = "lengthen --warmup, or run a step before the measured ones"

// sourceUsers are the user counts of a run's steps by data source, the unknown ones
// split by why: only the database's own views were read, or nothing.
type sourceUsers struct{ memory, warming, views, none, noPerTxn []int }

func dataSourceUsers(r *results.Run) sourceUsers {
	var u sourceUsers
	for _, i := range figures.StepOrder(r.Steps) {
		st := &r.Steps[i]
		switch figures.DataSourceOf(st) {
		case results.DataMemory:
			u.memory = append(u.memory, st.Users)
		case results.DataWarming:
			u.warming = append(u.warming, st.Users)
		case results.DataUnknown:
			switch {
			case !figures.IOKnown(st.IO):
				u.none = append(u.none, st.Users)
			case !slices.Contains(figures.DeviceSources, st.IO.Source):
				u.views = append(u.views, st.Users)
			default:
				u.noPerTxn = append(u.noPerTxn, st.Users)
			}
		}
	}
	return u
}
