package txn

import (
	"context"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// Market-Feed (docs/workload.md §9.3): the market emulator applies a batch of ticker entries
// and releases the limit orders the new prices put in the money. As DBT-5 and
// Percona's kit do, each entry is its own short repeatable-read transaction: LAST_TRADE
// rows are hot, and holding 20 of their locks in one transaction would serialize the
// whole market behind every feed. The response time still covers the whole batch.

type marketFeedEntryState struct {
	entry    TickerEntry
	now      time.Time
	released []MarketRequest
}

// MarketFeed applies entries in order, one transaction each. Attempts is 1 plus the
// retries of all entries; ServiceStart is that of the first entry. It stops at the
// first entry that fails; the entries before it are committed, so even with an error
// ToMarket holds the limit orders they released (already SBMT, their requests gone),
// and the caller must still send those to Trade-Result.
func (e *executor) MarketFeed(ctx context.Context, entries []TickerEntry) (Outcome, error) {
	out := Outcome{Kind: MarketFeed}
	var first = true
	for _, en := range entries {
		eo := Outcome{Kind: MarketFeed}
		var st *marketFeedEntryState
		var err error
		if e.server {
			st = &marketFeedEntryState{entry: en, now: e.now()}
			err = e.mfServer(ctx, &eo, st)
		} else {
			err = e.inTx(ctx, &eo, database.RepeatableRead, func(tx database.Tx) error {
				st = &marketFeedEntryState{entry: en, now: e.now()}
				if err := e.mfUpdateLastTrade(ctx, tx, st); err != nil {
					return err
				}
				return e.mfRelease(ctx, tx, st)
			})
		}
		if first {
			out.ServiceStart, first = eo.ServiceStart, false
		}
		out.Attempts += eo.Attempts - 1
		out.Statements += eo.Statements
		if err != nil {
			out.Attempts++
			return out, err
		}
		out.ToMarket = append(out.ToMarket, st.released...)
	}
	out.Attempts++
	return out, nil
}

// mfUpdateLastTrade moves the security's last trade to the entry.
func (e *executor) mfUpdateLastTrade(ctx context.Context, tx database.Tx, st *marketFeedEntryState) error {
	return execOne(ctx, tx, frameStmt{MarketFeed, 1, "update last trade"}, e.sql.of(marketFeedUpdateLastTrade),
		Money(st.entry.Price), st.entry.Qty, st.now, st.entry.Symbol)
}

// mfRelease finds the symbol's pending limit orders the price triggers (a stop-loss at
// or above the quote, a limit sell at or below it, a limit buy at or above it), marks
// each trade submitted, deletes its request and records the history.
func (e *executor) mfRelease(ctx context.Context, tx database.Tx, st *marketFeedEntryState) error {
	price := Money(st.entry.Price)
	var reqs []MarketRequest
	// A pipeline of one: the last-trade update held back before it goes in the same
	// round trip (countingTx).
	err := database.Pipeline(ctx, tx, []database.Queued{{SQL: e.sql.of(marketFeedTriggered), Args: []any{st.entry.Symbol,
		schema.StopLoss, price, schema.LimitSell, schema.LimitBuy}, Scan: func(r database.Rows) error {
		var m MarketRequest
		var bid Money
		if err := r.Scan(&m.TradeID, &m.TradeType, &m.Symbol, &m.Qty, &bid); err != nil {
			return err
		}
		m.Price, m.IsLimit = int64(bid), true
		m.SecIndex, _ = schema.SymbolIndex(m.Symbol)
		reqs = append(reqs, m)
		return nil
	}}})
	if err != nil {
		return frameErr(MarketFeed, 1, "trade requests", err)
	}
	for _, m := range reqs {
		if err := execOne(ctx, tx, frameStmt{MarketFeed, 1, "submit trade"}, e.sql.of(marketFeedSubmitTrade),
			st.now, schema.StatusSubmitted, m.TradeID); err != nil {
			return err
		}
		if err := execOne(ctx, tx, frameStmt{MarketFeed, 1, "delete trade request"}, e.sql.of(marketFeedDeleteRequest), m.TradeID); err != nil {
			return err
		}
		if err := execOne(ctx, tx, frameStmt{MarketFeed, 1, "insert trade history"}, e.sql.of(marketFeedInsertHistory),
			m.TradeID, st.now, schema.StatusSubmitted); err != nil {
			return err
		}
	}
	st.released = reqs
	return nil
}

// mfServer runs one entry as one call of the server routine, in its own
// repeatable-read transaction as in client mode.
func (e *executor) mfServer(ctx context.Context, out *Outcome, st *marketFeedEntryState) error {
	var reqs []MarketRequest
	err := e.callRoutine(ctx, out, database.RepeatableRead, &reqs,
		Money(st.entry.Price), st.entry.Qty, st.now, st.entry.Symbol,
		schema.StopLoss, schema.LimitSell, schema.LimitBuy, schema.StatusSubmitted)
	if err != nil {
		return err
	}
	for i := range reqs {
		reqs[i].IsLimit = true
		reqs[i].SecIndex, _ = schema.SymbolIndex(reqs[i].Symbol)
	}
	st.released = reqs
	return nil
}

// Market-Feed's statements, in the order its frames run them.
var (
	marketFeedUpdateLastTrade = MarketFeed.statement("MarketFeedUpdateLastTrade", `UPDATE last_trade SET lt_price = $1, lt_vol = lt_vol + $2, lt_dts = $3 WHERE lt_s_symb = $4`)
	marketFeedTriggered       = MarketFeed.statement("MarketFeedTriggered", `SELECT tr_t_id, tr_tt_id, tr_s_symb, tr_qty, tr_bid_price
FROM trade_request
WHERE tr_s_symb = $1
  AND ((tr_tt_id = $2 AND tr_bid_price >= $3) OR (tr_tt_id = $4 AND tr_bid_price <= $3) OR (tr_tt_id = $5 AND tr_bid_price >= $3))
ORDER BY tr_t_id`,
		override{database.SQLServer, `SELECT tr_t_id, tr_tt_id, tr_s_symb, tr_qty, tr_bid_price
FROM trade_request
WHERE tr_s_symb = $1
  AND ((tr_tt_id = $2 AND tr_bid_price >= $3)
    OR (tr_tt_id = $4 AND tr_bid_price <= $3)
    OR (tr_tt_id = $5 AND tr_bid_price >= $3))
ORDER BY tr_t_id`},
		// MySQL binds each ? once, in order: the parameters become a one-row table,
		// which the optimizer reads as constants.
		override{database.MySQL, `SELECT tr_t_id, tr_tt_id, tr_s_symb, tr_qty, tr_bid_price
FROM trade_request, (SELECT $1 AS symb, $2 AS tt_a, $3 AS price, $4 AS tt_b, $5 AS tt_c) AS p
WHERE tr_s_symb = p.symb
  AND ((tr_tt_id = p.tt_a AND tr_bid_price >= p.price) OR (tr_tt_id = p.tt_b AND tr_bid_price <= p.price) OR (tr_tt_id = p.tt_c AND tr_bid_price >= p.price))
ORDER BY tr_t_id`})
	marketFeedSubmitTrade   = MarketFeed.statement("MarketFeedSubmitTrade", `UPDATE trade SET t_dts = $1, t_st_id = $2 WHERE t_id = $3`)
	marketFeedDeleteRequest = MarketFeed.statement("MarketFeedDeleteRequest", `DELETE FROM trade_request WHERE tr_t_id = $1`)
	marketFeedInsertHistory = MarketFeed.statement("MarketFeedInsertHistory", `INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES ($1, $2, $3)`)
)
