package loader

import (
	"context"
	"fmt"

	"github.com/brokerbench/brokerbench/schema"
)

// Job kinds double as the generator stream ids: a batch's generator is
// rnd.New(seed, kind, lu, part), so any worker can rebuild any batch (docs/workload.md
// §5.1). Changing a number changes the data: bump GeneratorVersion.
const (
	kindFixed    = 1
	kindMarket   = 2
	kindNews     = 3
	kindDaily    = 4
	kindCustomer = 5
	kindBroker   = 6
	kindTrade    = 7
	// Per-trade and per-account draws hash (seed, kind, key) directly.
	kindTradeDraw = 8
	kindBalance   = 9
)

// GeneratorVersion names the generated data: it changes whenever any generator's
// output (or the way the loader stores it) changes, so templates and markers built by
// an older loader are not reused.
const GeneratorVersion = 5

// job is one batch: it writes rows of one or more tables, and depends only on the
// seed, the scale and its own (kind, lu, part).
type job struct {
	kind, lu, part int64
	tables         []string // the tables it writes; emit addresses them by position
	estimate       int64    // rows, for ordering (largest first)
	// ordered jobs write a table that must be stored in the order the jobs have in the
	// plan (DAILY_MARKET, in key order): generate runs them one after the other on a
	// producer of their own instead of on the workers.
	ordered bool
	run     func(ctx context.Context, e *emitter) error
}

func (j job) String() string {
	return fmt.Sprintf("job(kind %d, lu %d, part %d)", j.kind, j.lu, j.part)
}

// emitter routes a job's rows to per-table encoders and ships full chunks.
type emitter struct {
	enc []rowEncoder
	// w holds each encoder's value writer unwrapped: generators call it for every
	// value, and through encodedRows each call would dispatch twice.
	w    []RowWriter
	ship func(ctx context.Context, table int, c chunk) error
}

// newEmitter routes to one encoder per table, in job.tables order.
func newEmitter(enc []rowEncoder) *emitter {
	e := &emitter{enc: enc, w: make([]RowWriter, len(enc))}
	for i, r := range enc {
		e.w[i] = r
		if er, ok := r.(encodedRows); ok {
			e.w[i] = er.RowEncoder
		}
	}
	return e
}

// row returns the writer of table i (position in job.tables) for the next row.
func (e *emitter) row(i int) RowWriter { return e.w[i] }

// end closes the row of table i and ships the chunk when it is full.
func (e *emitter) end(ctx context.Context, i int) error {
	e.enc[i].EndRow()
	if e.enc[i].Size() >= chunkBytes {
		return e.ship(ctx, i, e.enc[i].Take())
	}
	return nil
}

// flush ships what is left.
func (e *emitter) flush(ctx context.Context) error {
	for i, enc := range e.enc {
		if c := enc.Take(); c.rows > 0 {
			if err := e.ship(ctx, i, c); err != nil {
				return err
			}
		}
	}
	return nil
}

// chunkBytes is the size a chunk is shipped at: large enough to amortize channel and
// syscall costs, small enough that memory stays bounded (tables x queue depth x this).
const chunkBytes = 256 << 10

// plan lists every job of a load in the order workers take them.
func plan(ks *keyspace) []job {
	sc := ks.sc
	var jobs []job
	jobs = append(jobs, fixedJob(ks))
	for lu := int64(0); lu < sc.LoadUnits(); lu++ {
		jobs = append(jobs, marketJob(ks, lu), brokerJob(ks, lu))
		for p := int64(0); p < newsParts; p++ {
			jobs = append(jobs, newsJob(ks, lu, p))
		}
		for g := int64(0); g < groupsPerLU; g++ {
			jobs = append(jobs, customerJob(ks, lu, g), tradeJob(ks, lu, g))
		}
	}
	// DAILY_MARKET slices the symbol-sorted securities, not the load units.
	for k := int64(0); k < sc.LoadUnits()*dailyParts; k++ {
		jobs = append(jobs, dailyJob(ks, k))
	}
	sortJobs(jobs)
	return jobs
}

// sortJobs interleaves the kinds, news first: each table streams through one
// connection, so workers should feed many tables at once rather than queue behind
// one slow stream (news text is compressed by its single backend, so it starts
// earliest). Within a kind the order is the plan's, so it is deterministic.
func sortJobs(jobs []job) {
	rank := map[int64]int{kindNews: 0, kindTrade: 1, kindDaily: 2, kindCustomer: 3, kindMarket: 4, kindBroker: 5, kindFixed: 6}
	byKind := make([][]job, len(rank))
	for _, j := range jobs {
		byKind[rank[j.kind]] = append(byKind[rank[j.kind]], j)
	}
	out := jobs[:0:0]
	for len(out) < len(jobs) {
		for k := range byKind {
			if len(byKind[k]) > 0 {
				out = append(out, byKind[k][0])
				byKind[k] = byKind[k][1:]
			}
		}
	}
	copy(jobs, out)
}

// Customer groups: a load unit's customers are split in groupsPerLU groups of
// customersPerGroup; one customer job and one trade job per group.
const (
	groupsPerLU       = 10
	customersPerGroup = schema.LoadUnit / groupsPerLU
	newsParts         = 5
	// DAILY_MARKET is written in dailyParts slices of dailySecurities securities per
	// load unit's worth of securities.
	dailyParts      = 5
	dailySecurities = schema.SecuritiesPerLU / dailyParts
)

// groupCustomers returns the first customer id of a group and the group's size.
func groupCustomers(lu, g int64) (first int64, n int64) {
	return schema.CustomerID(lu*schema.LoadUnit + g*customersPerGroup + 1), customersPerGroup
}
