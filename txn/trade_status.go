package txn

import (
	"context"
	"time"

	"github.com/brokerbench/brokerbench/database"
)

// Trade-Status (tpce.md §6.9): the 50 most recent trades of an account, with the
// customer's and broker's names. Read-only, read committed.

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

func (e *executor) tradeStatus(ctx context.Context, in TradeStatusInput) (Outcome, TradeStatusOutput, error) {
	out := Outcome{Kind: TradeStatus}
	var res TradeStatusOutput
	err := e.inTx(ctx, &out, database.ReadOnlyCommitted, func(tx database.Tx) error {
		res = TradeStatusOutput{}
		return e.tsFrame1(ctx, tx, in, &res)
	})
	return out, res, err
}

func (e *executor) tsFrame1(ctx context.Context, tx database.Tx, in TradeStatusInput, res *TradeStatusOutput) error {
	rows, err := tx.Query(ctx, e.sql.TradeStatusTrades, in.AcctID, tradeStatusMax)
	err = scanRows(rows, err, func(r database.Rows) error {
		var t TradeStatusRow
		if err := r.Scan(&t.TradeID, &t.When, &t.Status, &t.TypeName, &t.Symbol, &t.Qty, &t.ExecName,
			&t.Charge, &t.SecName, &t.Exchange); err != nil {
			return err
		}
		res.Trades = append(res.Trades, t)
		return nil
	})
	if err != nil {
		return frameErr(TradeStatus, 1, "trades", err)
	}
	if err := tx.QueryRow(ctx, e.sql.TradeStatusNames, in.AcctID).Scan(&res.CustLast, &res.CustFirst, &res.BrokerName); err != nil {
		return frameErr(TradeStatus, 1, "customer and broker", err)
	}
	// The reference expects 50 trades; at small trade-day counts an account can have
	// fewer, so only the upper bound and order are checked.
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
