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

func emitTrade(ctx context.Context, ks *keyspace, e *emitter, t tradeSpec, a *accountState) error {
	tt := schema.TradeTypes[t.tt]
	tID := schema.TradeID(t.ordinal)
	dts := businessMicros(t.tc)

	// Replay holdings: a buy first closes short lots, a sell long lots, FIFO or LIFO;
	// the remainder opens a lot. Every lot touched gets a HOLDING_HISTORY row.
	p := a.position(t.sec)
	need := t.qty
	var gain int64 // cents realized on closed lots
	for need > 0 {
		i := -1
		if len(p.lots) > 0 && (p.lots[0].qty < 0) == !tt.IsSell {
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
		if tt.IsSell { // closing a long lot
			n = min(need, l.qty)
			l.qty -= n
			gain += int64(n) * (t.price - l.price)
		} else { // covering a short lot
			n = min(need, -l.qty)
			l.qty += n
			gain += int64(n) * (l.price - t.price)
		}
		need -= n
		if err := emitHoldingHistory(ctx, e, l.tID, tID, before, l.qty); err != nil {
			return err
		}
		if l.qty == 0 {
			p.lots = append(p.lots[:i], p.lots[i+1:]...)
		}
	}
	if need > 0 {
		q := need
		if tt.IsSell {
			q = -need
		}
		p.lots = append(p.lots, lot{tID: tID, qty: q, price: t.price, dts: dts})
		if err := emitHoldingHistory(ctx, e, tID, tID, 0, q); err != nil {
			return err
		}
	}

	var tax int64
	if gain > 0 && a.taxStatus != 0 {
		tax = roundDiv(gain*a.taxRate, 100_000)
	}
	value := int64(t.qty) * t.price
	var amt int64
	if tt.IsSell {
		amt = value - t.charge - t.comm
	} else {
		amt = -(value + t.charge + t.comm)
	}
	if a.taxStatus == 1 { // withheld at settlement
		amt -= tax
	}

	w := e.row(tTrade)
	w.Int64(tID)
	w.Timestamp(dts)
	w.Text(schema.StatusCompleted)
	w.Text(tt.ID)
	w.Bool(t.cash)
	w.Text(ks.symbols[t.sec])
	w.Int32(t.qty)
	w.Decimal(t.bid, 2)
	w.Int64(t.caID)
	w.Text(a.execName)
	w.Decimal(t.price, 2)
	w.Decimal(t.charge, 2)
	w.Decimal(t.comm, 2)
	w.Decimal(tax, 2)
	w.Bool(t.lifo)
	if err := e.end(ctx, tTrade); err != nil {
		return err
	}

	// TRADE_HISTORY: market orders SBMT, CMPT; limit orders PNDG, SBMT, CMPT.
	sub := businessMicros(t.tc - t.submitDelay)
	if !tt.IsMarket {
		if err := emitHistory(ctx, e, tID, businessMicros(t.tc-t.submitDelay-t.pendDelay), schema.StatusPending); err != nil {
			return err
		}
	}
	if err := emitHistory(ctx, e, tID, sub, schema.StatusSubmitted); err != nil {
		return err
	}
	if err := emitHistory(ctx, e, tID, dts, schema.StatusCompleted); err != nil {
		return err
	}

	w = e.row(tSettlement)
	w.Int64(tID)
	if t.cash {
		w.Text("Cash Account")
	} else {
		w.Text("Margin")
	}
	w.Date(dateOf(dts) + 2)
	w.Decimal(amt, 2)
	if err := e.end(ctx, tSettlement); err != nil {
		return err
	}

	if t.cash {
		a.bal += amt
		w = e.row(tCash)
		w.Int64(tID)
		w.Timestamp(dts)
		w.Decimal(amt, 2)
		w.Text(tt.Name + " " + strconv.Itoa(int(t.qty)) + " shares of " + ks.secNames[t.sec])
		if err := e.end(ctx, tCash); err != nil {
			return err
		}
	}
	return nil
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
