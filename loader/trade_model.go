package loader

import (
	"math"

	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/schema/rnd"
)

// The initial trades (docs/workload.md §5.4). Every attribute of a trade except
// its tax is a pure function of (seed, ordinal), so the trade job of a customer group
// and the broker job of a load unit agree without sharing state: a trade job scans its
// load unit's ordinals, keeps its own customers' trades and replays their holdings.

// Type mix at load: 30 % TMB, 30 % TMS, 20 % TLB, 10 % TLS, 10 % TSL (not knobs).
var tradeMix = [...]struct {
	pct int
	tt  int // index into schema.TradeTypes
}{{30, 0}, {30, 1}, {20, 4}, {10, 3}, {10, 2}}

var tradeQuantities = [...]int32{100, 200, 400, 800}

const (
	lifoPct   = 35 // trades that close lots newest first
	marginPct = 16 // buys on margin (t_is_cash false); sells are always cash
)

// tradeSpec is one initial trade before holdings are replayed.
type tradeSpec struct {
	ordinal     int64
	cID, caID   int64
	tier        int
	sec         int64
	tt          int // index into schema.TradeTypes
	qty         int32
	lifo, cash  bool
	tc          float64 // completion, business seconds since schema.TradeBase
	submitDelay float64 // submission to completion
	pendDelay   float64 // limit orders: placed (pending) to submission
	bid, price  int64   // cents
	charge      int64   // cents
	comm        int64   // cents
}

// tradeDraws produces specs for one load unit.
type tradeDraws struct {
	ks   *keyspace
	lu   int64
	base uint64
	// baskets caches AccountBasket per account slot of the load unit.
	baskets [][]int64
}

func newTradeDraws(ks *keyspace, lu int64) *tradeDraws {
	return &tradeDraws{
		ks: ks, lu: lu,
		base:    schema.Mix2(schema.Mix(ks.seed), kindTradeDraw),
		baskets: make([][]int64, schema.LoadUnit*10),
	}
}

// ordinals returns the load unit's trade-ordinal range [first, last].
func (d *tradeDraws) ordinals() (first, last int64) {
	n := d.ks.sc.TradeIDsPerLU()
	return d.lu*n + 1, (d.lu + 1) * n
}

// customer returns the ordinal's customer and the hash the rest is drawn from; cheap,
// so every trade job can scan the whole load unit.
func (d *tradeDraws) customer(ordinal int64) (cID int64, h uint64) {
	h = schema.Mix2(d.base, uint64(ordinal))
	return rnd.CustomerInLU(d.lu, unitFloat(h)), h
}

func unitFloat(h uint64) float64 { return float64(h>>11) / (1 << 53) }

func (d *tradeDraws) basket(caID int64) []int64 {
	slot := caID - schema.AccountID(schema.CustomerID(d.lu*schema.LoadUnit+1), 0)
	if b := d.baskets[slot]; b != nil {
		return b
	}
	b := d.ks.sc.AccountBasket(caID)
	d.baskets[slot] = b
	return b
}

// spec draws the rest of the trade.
func (d *tradeDraws) spec(ordinal, cID int64, h uint64) tradeSpec {
	draw := func(i uint64) uint64 { return schema.Mix2(h, i) }
	t := tradeSpec{ordinal: ordinal, cID: cID, tier: schema.Tier(cID)}
	t.caID = schema.AccountID(cID, int(draw(1)%uint64(schema.AccountCount(cID))))
	b := d.basket(t.caID)
	t.sec = b[draw(2)%uint64(len(b))]
	v := int(draw(3) % 100)
	for _, m := range tradeMix {
		if v < m.pct {
			t.tt = m.tt
			break
		}
		v -= m.pct
	}
	tt := schema.TradeTypes[t.tt]
	t.qty = tradeQuantities[draw(4)%uint64(len(tradeQuantities))]
	t.lifo = draw(5)%100 < lifoPct
	t.cash = tt.IsSell || draw(6)%100 >= marginPct
	t.tc = d.ks.sc.TradeSeconds(ordinal)
	t.submitDelay = 1 + float64(draw(7)%4000)/1000
	t.price = schema.PriceAt(t.sec, t.tc)
	if tt.IsMarket {
		// The order was priced when submitted and filled at the curve on completion.
		t.bid = schema.PriceAt(t.sec, t.tc-t.submitDelay)
	} else {
		// A limit order waited (pending) until the curve reached its limit and filled
		// there: bid and trade price are the limit.
		t.pendDelay = 10 + float64(draw(8)%890_000)/1000
		t.bid = t.price
	}
	t.charge = schema.Charges[tt.ID][t.tier-1]
	rate := d.ks.comm[t.tier-1][t.tt][d.ks.secEx[t.sec]][band(t.qty)]
	t.comm = roundDiv(int64(t.qty)*t.price*rate, 10_000)
	return t
}

// roundDiv divides rounding half away from zero.
func roundDiv(a, b int64) int64 {
	if a < 0 {
		return -((-a + b/2) / b)
	}
	return (a + b/2) / b
}

// businessMicros is schema.BusinessTime in Unix microseconds, without building a
// time.Time per value: trade timestamps are the hottest values of the load.
func businessMicros(sec float64) int64 {
	day := int64(math.Floor(sec / schema.BusinessDaySeconds))
	within := sec - float64(day)*schema.BusinessDaySeconds
	cal := floorDiv(day, 5)*7 + (day - floorDiv(day, 5)*5)
	return tradeBaseMicros + cal*microsPerDay + int64(math.Round(within*1e6))
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

var tradeBaseMicros = schema.TradeBase.UnixMicro()
