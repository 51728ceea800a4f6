package txn

import (
	"context"

	"github.com/brokerbench/brokerbench/database"
)

// Market-Watch (tpce.md §6.4): the percentage change in market capitalisation of a
// list of securities since a past day. The list is a customer's watch list, an
// account's holdings, or an industry's securities within a company-id window.
// Read-only, read committed.
//
// The reference reads LAST_TRADE, SECURITY and DAILY_MARKET once per symbol; here one
// statement per list variant joins the same rows for every symbol of the list (the
// same reads, without 150 round trips per call).

// MarketWatchOutput is the transaction's result.
type MarketWatchOutput struct {
	Symbols   int
	PctChange float64
}

func (e *executor) marketWatch(ctx context.Context, in MarketWatchInput) (Outcome, MarketWatchOutput, error) {
	out := Outcome{Kind: MarketWatch}
	var res MarketWatchOutput
	err := e.inTx(ctx, &out, database.ReadOnlyCommitted, func(tx database.Tx) error {
		res = MarketWatchOutput{}
		return e.mwFrame1(ctx, tx, in, &res)
	})
	return out, res, err
}

func (e *executor) mwFrame1(ctx context.Context, tx database.Tx, in MarketWatchInput, res *MarketWatchOutput) error {
	var (
		rows database.Rows
		err  error
	)
	switch in.By {
	case WatchByWatchList:
		rows, err = tx.Query(ctx, e.sql.MarketWatchByWatchList, in.CustID, in.StartDay)
	case WatchByAccount:
		rows, err = tx.Query(ctx, e.sql.MarketWatchByAccount, in.AcctID, in.StartDay)
	default:
		rows, err = tx.Query(ctx, e.sql.MarketWatchByIndustry, in.IndustryName, in.StartCoID, in.EndCoID, in.StartDay)
	}
	var oldCap, newCap float64
	err = scanRows(rows, err, func(r database.Rows) error {
		var numOut int64
		var price, close Money
		if err := r.Scan(&numOut, &price, &close); err != nil {
			return err
		}
		res.Symbols++
		oldCap += float64(numOut) * float64(close)
		newCap += float64(numOut) * float64(price)
		return nil
	})
	if err != nil {
		return frameErr(MarketWatch, 1, "symbols", err)
	}
	if oldCap != 0 {
		res.PctChange = 100 * (newCap/oldCap - 1)
	}
	// A watch list holds 50-150 securities, each with a daily-market row for every
	// weekday of the start range.
	if in.By == WatchByWatchList && (res.Symbols < 50 || res.Symbols > 150) {
		return checkf(MarketWatch, 1, "watch list of customer %d gave %d symbols, want 50-150", in.CustID, res.Symbols)
	}
	return nil
}
