package txn

import (
	"context"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// Market-Watch (docs/workload.md §9.4): the percentage change in market capitalisation of a
// list of securities since a past day. The list is a customer's watch list, an
// account's holdings, or an industry's securities within a company-id window.
// Read-only, read committed.
//
// The reference reads LAST_TRADE, SECURITY and DAILY_MARKET once per symbol; here one
// statement per list variant joins the same rows for every symbol of the list (the
// same reads, without 150 round trips per call).

// Market-Watch's three ways to build its symbol list.
const (
	WatchByWatchList = iota + 1
	WatchByAccount
	WatchByIndustry
)

// MarketWatchInput: docs/workload.md §7.3.
type MarketWatchInput struct {
	By           int
	CustID       int64 // WatchByWatchList
	AcctID       int64 // WatchByAccount
	IndustryName string
	StartCoID    int64 // WatchByIndustry: company id window
	EndCoID      int64
	StartDay     time.Time
}

// marketWatchWindow is the widest company-id window of the industry variant.
const marketWatchWindow = 5000

// MarketWatch draws Market-Watch's inputs.
func (g *Gen) MarketWatch() MarketWatchInput {
	var in MarketWatchInput
	switch v := g.r.IntN(100); {
	case v < 60:
		in.By, in.CustID = WatchByWatchList, g.customer()
	case v < 95:
		in.By = WatchByAccount
		_, in.AcctID = g.customerAccount()
	default:
		in.By = WatchByIndustry
		inds := schema.Industries()
		in.IndustryName = inds[g.r.IntN(len(inds))].Name
		w := min(int64(marketWatchWindow), g.sc.Companies())
		start := g.r.Between(0, g.sc.Companies()-w)
		in.StartCoID, in.EndCoID = schema.CompanyID(start), schema.CompanyID(start+w-1)
	}
	in.StartDay = g.marketWatchDay()
	return in
}

// marketWatchDay: a skewed week 5..260 after the daily-market base, then Friday 60 %,
// Monday 20 %, Tuesday 7 %, Wednesday 6 %, Thursday 7 %.
func (g *Gen) marketWatchDay() time.Time {
	week := g.r.Skewed(5, 260, 255, 0)
	var dow int
	switch v := g.r.IntN(100); {
	case v < 60:
		dow = 4
	case v < 80:
		dow = 0
	case v < 87:
		dow = 1
	case v < 93:
		dow = 2
	default:
		dow = 3
	}
	return schema.DailyMarketBase.AddDate(0, 0, int(week)*7+dow)
}

// MarketWatchOutput is the transaction's result.
type MarketWatchOutput struct {
	Symbols   int
	PctChange float64
}

// runMarketWatch runs Market-Watch on the worker's next inputs (its catalogue row).
func (e *executor) runMarketWatch(ctx context.Context) (Outcome, error) {
	o, _, err := e.marketWatch(ctx, e.gen.MarketWatch())
	return o, err
}

func (e *executor) marketWatch(ctx context.Context, in MarketWatchInput) (Outcome, MarketWatchOutput, error) {
	out := Outcome{Kind: MarketWatch}
	var res MarketWatchOutput
	if e.server {
		err := e.callRoutine(ctx, &out, database.ReadOnlyCommitted, &res,
			in.By, in.CustID, in.AcctID, in.IndustryName, in.StartCoID, in.EndCoID, in.StartDay)
		if err == nil {
			err = mwCheck(in, res)
		}
		return out, res, err
	}
	err := e.inTx(ctx, &out, database.ReadOnlyCommitted, func(tx database.Tx) error {
		res = MarketWatchOutput{}
		return e.mwPercentChange(ctx, tx, in, &res)
	})
	return out, res, err
}

// mwPercentChange is Market-Watch frame 1: it reads the watched securities (of a watch
// list, an account or an industry) with their price then and now, and computes the
// percent change of their market capitalisation.
func (e *executor) mwPercentChange(ctx context.Context, tx database.Tx, in MarketWatchInput, res *MarketWatchOutput) error {
	var (
		rows database.Rows
		err  error
	)
	switch in.By {
	case WatchByWatchList:
		rows, err = tx.Query(ctx, e.sql.of(marketWatchByWatchList), in.CustID, in.StartDay)
	case WatchByAccount:
		rows, err = tx.Query(ctx, e.sql.of(marketWatchByAccount), in.AcctID, in.StartDay)
	default:
		rows, err = tx.Query(ctx, e.sql.of(marketWatchByIndustry), in.IndustryName, in.StartCoID, in.EndCoID, in.StartDay)
	}
	var oldCap, newCap float64
	// One set of destinations for every row: declared in the closure, they would
	// escape to the heap row by row.
	var numOut int64
	var price, close Money
	err = scanRows(rows, err, func(r database.Rows) error {
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
	return mwCheck(in, *res)
}

// mwCheck is frame 1's output check, in either frame mode: a watch list holds 50-150
// securities, each with a daily-market row for every weekday of the start range.
func mwCheck(in MarketWatchInput, res MarketWatchOutput) error {
	if in.By == WatchByWatchList && (res.Symbols < 50 || res.Symbols > 150) {
		return checkf(MarketWatch, 1, "watch list of customer %d gave %d symbols, want 50-150", in.CustID, res.Symbols)
	}
	return nil
}

// Market-Watch's statements, in the order its frames run them.
var (
	marketWatchByWatchList = MarketWatch.statement("MarketWatchByWatchList", `SELECT s_num_out, lt_price, dm_close
FROM watch_list, watch_item, security, last_trade, daily_market
WHERE wl_c_id = $1 AND wi_wl_id = wl_id AND s_symb = wi_s_symb AND lt_s_symb = s_symb
  AND dm_s_symb = s_symb AND dm_date = $2`)
	marketWatchByAccount = MarketWatch.statement("MarketWatchByAccount", `SELECT s_num_out, lt_price, dm_close
FROM holding_summary, security, last_trade, daily_market
WHERE hs_ca_id = $1 AND s_symb = hs_s_symb AND lt_s_symb = s_symb
  AND dm_s_symb = s_symb AND dm_date = $2`)
	marketWatchByIndustry = MarketWatch.statement("MarketWatchByIndustry", `SELECT s_num_out, lt_price, dm_close
FROM industry, company, security, last_trade, daily_market
WHERE in_name = $1 AND co_in_id = in_id AND co_id BETWEEN $2 AND $3 AND s_co_id = co_id
  AND lt_s_symb = s_symb AND dm_s_symb = s_symb AND dm_date = $4`)
)
