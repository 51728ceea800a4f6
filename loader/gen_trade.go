package loader

import (
	"context"
	"strconv"

	"github.com/brokerbench/brokerbench/schema"
)

// Tables a trade job writes, in emit order. CUSTOMER_ACCOUNT is here because ca_bal
// is the opening balance plus the account's cash transactions, whose amounts depend on
// the replayed holdings (tax on realized gains).
var tradeTables = []string{
	"trade", "trade_history", "settlement", "cash_transaction", "holding_history",
	"holding", "holding_summary", "customer_account", schema.OpeningBalanceTable,
}

const (
	tTrade = iota
	tHistory
	tSettlement
	tCash
	tHoldingHistory
	tHolding
	tHoldingSummary
	tAccount
	tOpening
)

// lot is an open holding: the opening trade, signed quantity (negative: short), price
// and time.
type lot struct {
	tID   int64
	qty   int32
	price int64
	dts   int64
}

type position struct {
	sec  int64
	lots []lot
}

type accountState struct {
	caID      int64
	opening   int64 // cents
	bal       int64
	taxStatus int
	taxRate   int64 // 10^-5
	execName  string
	positions []position
}

func (a *accountState) position(sec int64) *position {
	for i := range a.positions {
		if a.positions[i].sec == sec {
			return &a.positions[i]
		}
	}
	a.positions = append(a.positions, position{sec: sec})
	return &a.positions[len(a.positions)-1]
}

func tradeJob(ks *keyspace, lu, g int64) job {
	per := ks.sc.TradesPerLU() / groupsPerLU
	return job{kind: kindTrade, lu: lu, part: g, tables: tradeTables, estimate: per * 7,
		run: func(ctx context.Context, e *emitter) error { return runTrades(ctx, ks, lu, g, e) }}
}

// openingBalance is the account's balance before the generated trades (docs/workload.md §5.2):
// 80 % uniform in [0, 9,999,999.99], 20 % in [-9,999,999.99, 0].
func openingBalance(seed uint64, caID int64) int64 {
	h := schema.Mix2(schema.Mix2(schema.Mix(seed), kindBalance), uint64(caID))
	v := int64((h >> 8) % 1_000_000_000)
	if h%100 < 20 {
		return -v
	}
	return v
}

var accountKinds = [...]string{"Individual", "Joint", "Retirement", "Trust", "Custodial", "Education", "Brokerage", "Roth IRA", "Margin", "Savings"}

func runTrades(ctx context.Context, ks *keyspace, lu, g int64, e *emitter) error {
	c0, nc := groupCustomers(lu, g)
	base := schema.AccountID(c0, 0)
	accts := make([]*accountState, nc*10)
	for c := c0; c < c0+nc; c++ {
		f, _, l := schema.CustomerName(c)
		rate := ks.customerTaxRate(c)
		for k := 0; k < schema.AccountCount(c); k++ {
			caID := schema.AccountID(c, k)
			ob := openingBalance(ks.seed, caID)
			accts[caID-base] = &accountState{caID: caID, opening: ob, bal: ob, taxStatus: schema.AccountTaxStatus(caID),
				taxRate: rate, execName: f + " " + l}
		}
	}
	d := newTradeDraws(ks, lu)
	first, last := d.ordinals()
	for o := first; o <= last; o++ {
		if schema.TradeOrdinalSkipped(o) {
			continue
		}
		cID, h := d.customer(o)
		if cID < c0 || cID >= c0+nc {
			continue
		}
		t := d.spec(o, cID, h)
		if err := emitTrade(ctx, ks, e, t, accts[t.caID-base]); err != nil {
			return err
		}
		if o%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return emitAccounts(ctx, ks, e, accts)
}

// emitTrade writes one generated trade's rows: the holding history of the lots it
// closes or opens, TRADE, TRADE_HISTORY, SETTLEMENT and, for a cash trade,
// CASH_TRANSACTION.
func emitTrade(ctx context.Context, ks *keyspace, e *emitter, t tradeSpec, a *accountState) error {
	tr := &emittedTrade{tradeSpec: t, typ: &schema.TradeTypes[t.tt], tID: schema.TradeID(t.ordinal), dts: businessMicros(t.tc)}
	gain, err := replayHoldings(ctx, e, tr, a.position(t.sec))
	if err != nil {
		return err
	}
	tr.amounts(a, gain)
	if err := emitTradeRow(ctx, ks, e, tr, a); err != nil {
		return err
	}
	if err := emitTradeHistory(ctx, e, tr); err != nil {
		return err
	}
	return emitSettlement(ctx, ks, e, tr, a)
}

// emittedTrade is one generated trade as its rows need it.
type emittedTrade struct {
	tradeSpec
	typ      *schema.TradeType
	tID, dts int64
	// tax is the tax on the gain realized, amt the settlement's amount (cents).
	tax, amt int64
}

// replayHoldings replays the trade on the position: a buy first closes short lots, a
// sell long lots, FIFO or LIFO; the remainder opens a lot. Every lot touched gets a
// HOLDING_HISTORY row. It returns the cents realized on closed lots.
func replayHoldings(ctx context.Context, e *emitter, t *emittedTrade, p *position) (gain int64, err error) {
	need := t.qty
	for need > 0 {
		i := -1
		if len(p.lots) > 0 && (p.lots[0].qty < 0) == !t.typ.IsSell {
			i = 0
			if t.lifo {
				i = len(p.lots) - 1
			}
		}
		if i < 0 {
			break
		}
		l := &p.lots[i]
		before := l.qty
		var n int32
		if t.typ.IsSell { // closing a long lot
			n = min(need, l.qty)
			l.qty -= n
			gain += int64(n) * (t.price - l.price)
		} else { // covering a short lot
			n = min(need, -l.qty)
			l.qty += n
			gain += int64(n) * (l.price - t.price)
		}
		need -= n
		if err := emitHoldingHistory(ctx, e, l.tID, t.tID, before, l.qty); err != nil {
			return 0, err
		}
		if l.qty == 0 {
			p.lots = append(p.lots[:i], p.lots[i+1:]...)
		}
	}
	if need > 0 {
		q := need
		if t.typ.IsSell {
			q = -need
		}
		p.lots = append(p.lots, lot{tID: t.tID, qty: q, price: t.price, dts: t.dts})
		if err := emitHoldingHistory(ctx, e, t.tID, t.tID, 0, q); err != nil {
			return 0, err
		}
	}
	return gain, nil
}

// amounts sets the tax on gain and the settlement amount: the value with charge and
// commission, less the tax where it is withheld at settlement.
func (t *emittedTrade) amounts(a *accountState, gain int64) {
	if gain > 0 && a.taxStatus != 0 {
		t.tax = roundDiv(gain*a.taxRate, 100_000)
	}
	value := int64(t.qty) * t.price
	if t.typ.IsSell {
		t.amt = value - t.charge - t.comm
	} else {
		t.amt = -(value + t.charge + t.comm)
	}
	if a.taxStatus == 1 { // withheld at settlement
		t.amt -= t.tax
	}
}

// emitTradeRow writes the TRADE row.
func emitTradeRow(ctx context.Context, ks *keyspace, e *emitter, t *emittedTrade, a *accountState) error {
	w := e.row(tTrade)
	w.Int64(t.tID)
	w.Timestamp(t.dts)
	w.Text(schema.StatusCompleted)
	w.Text(t.typ.ID)
	w.Bool(t.cash)
	w.Text(ks.symbols[t.sec])
	w.Int32(t.qty)
	w.Decimal(t.bid, 2)
	w.Int64(t.caID)
	w.Text(a.execName)
	w.Decimal(t.price, 2)
	w.Decimal(t.charge, 2)
	w.Decimal(t.comm, 2)
	w.Decimal(t.tax, 2)
	w.Bool(t.lifo)
	return e.end(ctx, tTrade)
}

// emitTradeHistory writes TRADE_HISTORY: market orders SBMT, CMPT; limit orders PNDG,
// SBMT, CMPT.
func emitTradeHistory(ctx context.Context, e *emitter, t *emittedTrade) error {
	sub := businessMicros(t.tc - t.submitDelay)
	if !t.typ.IsMarket {
		if err := emitHistory(ctx, e, t.tID, businessMicros(t.tc-t.submitDelay-t.pendDelay), schema.StatusPending); err != nil {
			return err
		}
	}
	if err := emitHistory(ctx, e, t.tID, sub, schema.StatusSubmitted); err != nil {
		return err
	}
	return emitHistory(ctx, e, t.tID, t.dts, schema.StatusCompleted)
}

// emitSettlement writes the SETTLEMENT row and, for a cash trade, its
// CASH_TRANSACTION, whose amount moves the account's balance.
func emitSettlement(ctx context.Context, ks *keyspace, e *emitter, t *emittedTrade, a *accountState) error {
	w := e.row(tSettlement)
	w.Int64(t.tID)
	if t.cash {
		w.Text("Cash Account")
	} else {
		w.Text("Margin")
	}
	w.Date(dateOf(t.dts) + 2)
	w.Decimal(t.amt, 2)
	if err := e.end(ctx, tSettlement); err != nil {
		return err
	}
	if !t.cash {
		return nil
	}
	a.bal += t.amt
	w = e.row(tCash)
	w.Int64(t.tID)
	w.Timestamp(t.dts)
	w.Decimal(t.amt, 2)
	w.Text(t.typ.Name + " " + strconv.Itoa(int(t.qty)) + " shares of " + ks.secNames[t.sec])
	return e.end(ctx, tCash)
}

func emitHoldingHistory(ctx context.Context, e *emitter, lotID, tID int64, before, after int32) error {
	w := e.row(tHoldingHistory)
	w.Int64(lotID)
	w.Int64(tID)
	w.Int32(before)
	w.Int32(after)
	return e.end(ctx, tHoldingHistory)
}

func emitHistory(ctx context.Context, e *emitter, tID, dts int64, status string) error {
	w := e.row(tHistory)
	w.Int64(tID)
	w.Timestamp(dts)
	w.Text(status)
	return e.end(ctx, tHistory)
}

// emitAccounts writes the group's accounts with their final balances, their opening
// balances, and the open lots and summaries left by the replay.
func emitAccounts(ctx context.Context, ks *keyspace, e *emitter, accts []*accountState) error {
	for _, a := range accts {
		if a == nil {
			continue
		}
		cID, k := schema.AccountOwner(a.caID)
		_, _, last := schema.CustomerName(cID)
		w := e.row(tAccount)
		w.Int64(a.caID)
		w.Int64(schema.AccountBroker(a.caID))
		w.Int64(cID)
		w.Text(last + " " + accountKinds[(int(cID)+k)%len(accountKinds)] + " Account")
		w.Int16(int16(a.taxStatus))
		w.Decimal(a.bal, 2)
		if err := e.end(ctx, tAccount); err != nil {
			return err
		}
		w = e.row(tOpening)
		w.Int64(a.caID)
		w.Decimal(a.opening, 2)
		if err := e.end(ctx, tOpening); err != nil {
			return err
		}
		for _, p := range a.positions {
			var sum int32
			for _, l := range p.lots {
				sum += l.qty
				w = e.row(tHolding)
				w.Int64(l.tID)
				w.Int64(a.caID)
				w.Text(ks.symbols[p.sec])
				w.Timestamp(l.dts)
				w.Decimal(l.price, 2)
				w.Int32(l.qty)
				if err := e.end(ctx, tHolding); err != nil {
					return err
				}
			}
			if sum == 0 { // closed positions have no summary row
				continue
			}
			w = e.row(tHoldingSummary)
			w.Int64(a.caID)
			w.Text(ks.symbols[p.sec])
			w.Int32(sum)
			if err := e.end(ctx, tHoldingSummary); err != nil {
				return err
			}
		}
	}
	return nil
}
