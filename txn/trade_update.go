package txn

import (
	"context"
	"strings"

	"github.com/brokerbench/brokerbench/database"
)

// Trade-Update (tpce.md §6.10): like Trade-Lookup, but each frame also rewrites a few
// rows of the trades it reads: the executor's name (frame 1), the settlement's cash
// type (frame 2) or the cash transaction's description (frame 3). Repeatable read:
// two Trade-Updates toggling the same row must not both succeed from one snapshot
// (the second gets a serialization failure and is retried).

func (e *executor) tradeUpdate(ctx context.Context, in TradeLookupInput) (Outcome, TradeLookupOutput, error) {
	out := Outcome{Kind: TradeUpdate}
	var res TradeLookupOutput
	err := e.inTx(ctx, &out, database.RepeatableRead, func(tx database.Tx) error {
		res = TradeLookupOutput{Frame: in.Frame}
		switch in.Frame {
		case 1:
			return e.tuFrame1(ctx, tx, in, &res)
		case 2:
			return e.tuFrame2(ctx, tx, in, &res)
		}
		return e.tuFrame3(ctx, tx, in, &res)
	})
	return out, res, err
}

// toggleExecName switches "First Last" and "First X Last".
func toggleExecName(s string) string {
	if strings.Contains(s, " X ") {
		return strings.Replace(s, " X ", " ", 1)
	}
	return strings.Replace(s, " ", " X ", 1)
}

// toggleCashType switches "Cash Account" and "Cash" for cash trades, "Margin" and
// "Margin Account" otherwise.
func toggleCashType(s string, isCash bool) string {
	if isCash {
		if s == "Cash Account" {
			return "Cash"
		}
		return "Cash Account"
	}
	if s == "Margin" {
		return "Margin Account"
	}
	return "Margin"
}

// toggleShares switches " shares " and " Shares " in a cash transaction's name.
func toggleShares(s string) string {
	if strings.Contains(s, " shares ") {
		return strings.Replace(s, " shares ", " Shares ", 1)
	}
	return strings.Replace(s, " Shares ", " shares ", 1)
}

// tuFrame1 toggles the executor name of each given trade, then reads the trades and
// their details (two pipelines: the reads do not depend on each other).
func (e *executor) tuFrame1(ctx context.Context, tx database.Tx, in TradeLookupInput, res *TradeLookupOutput) error {
	for _, id := range in.TradeIDs {
		if res.Updated >= in.MaxTrades {
			break
		}
		var name string
		if err := tx.QueryRow(ctx, e.sql.TradeUpdateExecName, id).Scan(&name); err != nil {
			return frameErr(TradeUpdate, 1, "executor name", err)
		}
		if err := execOne(ctx, tx, TradeUpdate, 1, "update executor name", e.sql.TradeUpdateSetExecName,
			truncate(toggleExecName(name), 49), id); err != nil {
			return err
		}
		res.Updated++
	}
	list, err := e.tradesByID(ctx, tx, TradeUpdate, 1, in.TradeIDs)
	if err != nil {
		return err
	}
	if err := e.tradeChildrenAll(ctx, tx, TradeUpdate, 1, list); err != nil {
		return err
	}
	res.Trades = append(res.Trades, list...)
	if len(res.Trades) != len(in.TradeIDs) || res.Updated != len(in.TradeIDs) {
		return checkf(TradeUpdate, 1, "found %d and updated %d of %d trades", len(res.Trades), res.Updated, len(in.TradeIDs))
	}
	return nil
}

// tuFrame2 toggles the settlement cash type of an account's trades in a window.
func (e *executor) tuFrame2(ctx context.Context, tx database.Tx, in TradeLookupInput, res *TradeLookupOutput) error {
	list, err := e.accountTrades(ctx, tx, TradeUpdate, in)
	if err != nil {
		return err
	}
	for _, d := range list {
		if res.Updated >= in.MaxTrades {
			break
		}
		var cashType string
		if err := tx.QueryRow(ctx, e.sql.TradeUpdateCashType, d.TradeID).Scan(&cashType); err != nil {
			return frameErr(TradeUpdate, 2, "settlement", err)
		}
		if err := execOne(ctx, tx, TradeUpdate, 2, "update cash type", e.sql.TradeUpdateSetCashType,
			toggleCashType(cashType, d.IsCash), d.TradeID); err != nil {
			return err
		}
		res.Updated++
	}
	if err := e.detailList(ctx, tx, TradeUpdate, 2, in, list, res); err != nil {
		return err
	}
	if res.Updated != len(res.Trades) {
		return checkf(TradeUpdate, 2, "updated %d of %d trades found", res.Updated, len(res.Trades))
	}
	return nil
}

// tuFrame3 rewrites the cash transaction name of a symbol's cash trades in a window.
func (e *executor) tuFrame3(ctx context.Context, tx database.Tx, in TradeLookupInput, res *TradeLookupOutput) error {
	list, err := e.tradesBySymbol(ctx, tx, TradeUpdate, in)
	if err != nil {
		return err
	}
	for _, d := range list {
		if !d.IsCash || res.Updated >= in.MaxTrades {
			continue // only cash trades have a cash transaction
		}
		var name *string
		if err := tx.QueryRow(ctx, e.sql.TradeUpdateCashName, d.TradeID).Scan(&name); err != nil {
			return frameErr(TradeUpdate, 3, "cash transaction", err)
		}
		cur := ""
		if name != nil {
			cur = *name
		}
		if err := execOne(ctx, tx, TradeUpdate, 3, "update cash name", e.sql.TradeUpdateSetCashName,
			truncate(toggleShares(cur), 100), d.TradeID); err != nil {
			return err
		}
		res.Updated++
	}
	if err := e.detailList(ctx, tx, TradeUpdate, 3, in, list, res); err != nil {
		return err
	}
	if len(res.Trades) == 0 {
		return checkf(TradeUpdate, 3, "no trade of %s in the window", in.Symbol)
	}
	return nil
}
