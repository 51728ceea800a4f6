package txn

import (
	"time"

	"context"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// Market-Feed (tpce.md §6.3): the market emulator applies a batch of ticker entries
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
		err := e.inTx(ctx, &eo, database.RepeatableRead, func(tx database.Tx) error {
			st = &marketFeedEntryState{entry: en, now: e.now()}
			if err := e.mfUpdateLastTrade(ctx, tx, st); err != nil {
				return err
			}
			return e.mfRelease(ctx, tx, st)
		})
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
	return execOne(ctx, tx, MarketFeed, 1, "update last trade", e.sql.MarketFeedUpdateLastTrade,
		Money(st.entry.Price), st.entry.Qty, st.now, st.entry.Symbol)
}

// mfRelease finds the symbol's pending limit orders the price triggers (a stop-loss at
// or above the quote, a limit sell at or below it, a limit buy at or above it), marks
// each trade submitted, deletes its request and records the history.
func (e *executor) mfRelease(ctx context.Context, tx database.Tx, st *marketFeedEntryState) error {
	price := Money(st.entry.Price)
	rows, err := tx.Query(ctx, e.sql.MarketFeedTriggered, st.entry.Symbol,
		schema.StopLoss, price, schema.LimitSell, schema.LimitBuy)
	var reqs []MarketRequest
	err = scanRows(rows, err, func(r database.Rows) error {
		var m MarketRequest
		var bid Money
		if err := r.Scan(&m.TradeID, &m.TradeType, &m.Symbol, &m.Qty, &bid); err != nil {
			return err
		}
		m.Price, m.IsLimit = int64(bid), true
		m.SecIndex, _ = schema.SymbolIndex(m.Symbol)
		reqs = append(reqs, m)
		return nil
	})
	if err != nil {
		return frameErr(MarketFeed, 1, "trade requests", err)
	}
	for _, m := range reqs {
		if err := execOne(ctx, tx, MarketFeed, 1, "submit trade", e.sql.MarketFeedSubmitTrade,
			st.now, schema.StatusSubmitted, m.TradeID); err != nil {
			return err
		}
		if err := execOne(ctx, tx, MarketFeed, 1, "delete trade request", e.sql.MarketFeedDeleteRequest, m.TradeID); err != nil {
			return err
		}
		if err := execOne(ctx, tx, MarketFeed, 1, "insert trade history", e.sql.MarketFeedInsertHistory,
			m.TradeID, st.now, schema.StatusSubmitted); err != nil {
			return err
		}
	}
	st.released = reqs
	return nil
}
