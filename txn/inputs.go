package txn

import (
	"time"

	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/schema/rnd"
)

// Input generation (docs/workload.md §7, after EGen's CETxnInputGenerator). Every
// input is drawn before the transaction starts, so a retry runs the same inputs and
// a seed fixes the whole stream of a worker. The percentages below are the
// reference's; they are not knobs. Each transaction's input type and its draw live
// in the transaction's file; the draws several transactions share are here.

// streamInputs separates the transactions' random streams from the loader's.
const streamInputs = 0x7478_6e69 // "txni"

// Gen draws one worker's transaction inputs.
type Gen struct {
	sc schema.Scale
	r  *rnd.Rand
	// dmNext is Data-Maintenance's round-robin position over its 12 tables.
	dmNext int
	// customers is the slice of the customer space the customer draws stay in
	// (run --shard); the zero value is the whole space.
	customers CustomerRange
}

// CustomerRange is a slice of the customer space: the customers whose 0-based
// ordinals lie in [From, To). The zero value is the whole space.
type CustomerRange struct{ From, To int64 }

// Count is how many customers the range holds (0 for the zero value).
func (c CustomerRange) Count() int64 { return c.To - c.From }

// WithCustomers keeps the executor's customer draws (every customer and account a
// customer transaction picks) inside c, with the tier skew within it: a shard of a
// sharded run drives its own customers. Trades, securities and brokers are still
// drawn from the whole database.
func WithCustomers(c CustomerRange) Option { return func(e *executor) { e.gen.customers = c } }

// NewGen returns the input generator of one worker: a pure function of (seed, worker).
func NewGen(sc schema.Scale, seed uint64, worker int) *Gen {
	return &Gen{sc: sc, r: rnd.New(seed, streamInputs, uint64(worker))}
}

// Rand exposes the worker's generator (the driver deals its deck from it).
func (g *Gen) Rand() *rnd.Rand { return g.r }

// customerAccount is the common draw: a tier-skewed customer, an account uniform among
// its accounts (docs/workload.md §7.1).
func (g *Gen) customerAccount() (cID, caID int64) {
	cID = g.customer()
	return cID, g.r.Account(cID)
}

// customer is the tier-skewed customer pick, within the generator's range when it
// has one.
func (g *Gen) customer() int64 {
	if g.customers.Count() <= 0 {
		return g.r.Customer(g.sc)
	}
	return g.r.CustomerIn(g.customers.From, g.customers.To)
}

// tradeIDs draws n distinct loaded trade ids with the reference's skew (A=65535,
// s=7) over the ordinals, never a skipped one, so every id exists after the load.
func (g *Gen) tradeIDs(n int) []int64 {
	out := make([]int64, 0, n)
	seen := make(map[int64]bool, n)
	max := g.sc.TradeOrdinals()
	for len(out) < n {
		o := g.r.Skewed(1, max, 65535, 7)
		if schema.TradeOrdinalSkipped(o) || seen[o] {
			continue
		}
		seen[o] = true
		out = append(out, schema.TradeID(o))
	}
	return out
}

// window draws a start time inside the initial trades, backOff business seconds
// before their end, with the reference's skew (A=4095, s=16 on milliseconds); the
// window ends 15 minutes after the initial trades.
func (g *Gen) window(backOff int64) (start, end time.Time) {
	span := (int64(g.sc.TradeDays)*schema.BusinessDaySeconds - backOff) * 1000
	ms := g.r.Skewed(0, max(span, 0), 4095, 16)
	return schema.BusinessTime(float64(ms) / 1000), g.sc.HistoryEnd().Add(15 * time.Minute)
}
