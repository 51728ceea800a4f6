package txn

import (
	"context"
	"time"

	"github.com/brokerbench/brokerbench/database"
)

// Trade-Status (docs/workload.md §9.9): the 50 most recent trades of an account, with the
// customer's and broker's names. Read-only, read committed.

// TradeStatusInput: docs/workload.md §7.3.
type TradeStatusInput struct{ AcctID int64 }

// TradeStatus draws Trade-Status's inputs.
func (g *Gen) TradeStatus() TradeStatusInput {
	_, ca := g.customerAccount()
	return TradeStatusInput{AcctID: ca}
}

// tradeStatusMax is the reference's list length; not a knob.
const tradeStatusMax = 50

// TradeStatusRow is one trade of the list.
type TradeStatusRow struct {
	TradeID  int64
	When     time.Time
	Status   string
	TypeName string
	Symbol   string
	Qty      int
	ExecName string
	Charge   Money
	SecName  string
	Exchange string
}

// TradeStatusOutput is the frame's result.
type TradeStatusOutput struct {
	Trades                          []TradeStatusRow
	CustFirst, CustLast, BrokerName string
}

// runTradeStatus runs Trade-Status on the worker's next inputs (its catalogue row).
func (e *executor) runTradeStatus(ctx context.Context) (Outcome, error) {
	o, _, err := e.tradeStatus(ctx, e.gen.TradeStatus())
	return o, err
}

func (e *executor) tradeStatus(ctx context.Context, in TradeStatusInput) (Outcome, TradeStatusOutput, error) {
	out := Outcome{Kind: TradeStatus}
	var res TradeStatusOutput
	if e.server {
		err := e.tsServer(ctx, &out, in, &res)
		return out, res, err
	}
	err := e.inTx(ctx, &out, database.ReadOnlyCommitted, func(tx database.Tx) error {
		res = TradeStatusOutput{}
		return e.tsRecentTrades(ctx, tx, in, &res)
	})
	return out, res, err
}

// tsRecentTrades is Trade-Status frame 1: it reads the account's most recent trades and
// the names of its customer and broker.
func (e *executor) tsRecentTrades(ctx context.Context, tx database.Tx, in TradeStatusInput, res *TradeStatusOutput) error {
	// Both statements need only the account: one round trip where the database can
	// pipeline, two statements counted either way.
	names := 0
	// The list's full length up front, and each row scanned in place: no regrowth
	// and no row copy escaping to the heap per trade.
	res.Trades = make([]TradeStatusRow, 0, tradeStatusMax)
	qs := []database.Queued{
		{SQL: e.sql.of(tradeStatusTrades), Args: []any{in.AcctID, tradeStatusMax}, Scan: func(r database.Rows) error {
			res.Trades = append(res.Trades, TradeStatusRow{})
			t := &res.Trades[len(res.Trades)-1]
			if err := r.Scan(&t.TradeID, &t.When, &t.Status, &t.TypeName, &t.Symbol, &t.Qty, &t.ExecName,
				&t.Charge, &t.SecName, &t.Exchange); err != nil {
				res.Trades = res.Trades[:len(res.Trades)-1]
				return err
			}
			return nil
		}},
		{SQL: e.sql.of(tradeStatusNames), Args: []any{in.AcctID}, Scan: func(r database.Rows) error {
			names++
			return r.Scan(&res.CustLast, &res.CustFirst, &res.BrokerName)
		}},
	}
	if err := database.Pipeline(ctx, tx, qs); err != nil {
		return frameErr(TradeStatus, 1, "trades, customer and broker", err)
	}
	if names == 0 {
		return frameErr(TradeStatus, 1, "customer and broker", database.ErrNoRows)
	}
	return tsCheck(*res)
}

// tsServer runs frame 1 as one call of its routine, whose rows are scanned as the
// client mode scans its statement's: one row per trade, newest first, then one row
// whose last three columns are the customer's and the broker's names (the trade rows
// carry empty ones there). Each row is scanned into the next trade and the names; the
// last, the names row, is then dropped from the list.
func (e *executor) tsServer(ctx context.Context, out *Outcome, in TradeStatusInput, res *TradeStatusOutput) error {
	reset := func() { *res = TradeStatusOutput{Trades: make([]TradeStatusRow, 0, tradeStatusMax+1)} }
	err := e.callRoutineRows(ctx, out, database.ReadOnlyCommitted, rowSink{reset: reset, scan: func(r database.Rows) error {
		res.Trades = append(res.Trades, TradeStatusRow{})
		t := &res.Trades[len(res.Trades)-1]
		return r.Scan(&t.TradeID, &t.When, &t.Status, &t.TypeName, &t.Symbol, &t.Qty, &t.ExecName,
			&t.Charge, &t.SecName, &t.Exchange, &res.CustFirst, &res.CustLast, &res.BrokerName)
	}}, in.AcctID)
	if err != nil || len(res.Trades) == 0 { // a call that returned succeeded with a row
		return err
	}
	res.Trades = res.Trades[:len(res.Trades)-1] // the names row
	return tsCheck(*res)
}

// tsCheck is frame 1's output check, in either frame mode. The reference expects 50
// trades; at small trade-day counts an account can have fewer, so only the upper
// bound and order are checked.
func tsCheck(res TradeStatusOutput) error {
	if len(res.Trades) > tradeStatusMax {
		return checkf(TradeStatus, 1, "%d trades, want at most %d", len(res.Trades), tradeStatusMax)
	}
	for i := 1; i < len(res.Trades); i++ {
		if res.Trades[i].When.After(res.Trades[i-1].When) {
			return checkf(TradeStatus, 1, "trades not newest first")
		}
	}
	return nil
}

// Trade-Status's statements, in the order its frames run them.
var (
	tradeStatusTrades = TradeStatus.statement("TradeStatusTrades", `SELECT t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name
FROM trade, status_type, trade_type, security, exchange
WHERE t_ca_id = $1 AND st_id = t_st_id AND tt_id = t_tt_id AND s_symb = t_s_symb AND ex_id = s_ex_id
ORDER BY t_dts DESC
LIMIT $2`,
		override{database.SQLServer, `SELECT TOP ($2) t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name
FROM trade, status_type, trade_type, security, exchange
WHERE t_ca_id = $1 AND st_id = t_st_id AND tt_id = t_tt_id AND s_symb = t_s_symb AND ex_id = s_ex_id
ORDER BY t_dts DESC`})
	tradeStatusNames = TradeStatus.statement("TradeStatusNames", `SELECT c_l_name, c_f_name, b_name
FROM customer_account, customer, broker
WHERE ca_id = $1 AND c_id = ca_c_id AND b_id = ca_b_id`)
)
