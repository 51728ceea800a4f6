package txn

import (
	"context"
	"errors"
	"time"

	"github.com/brokerbench/brokerbench/schema/dialect"
)

// Trade-Lookup (tpce.md §6.6): inspect historical trades by id, by account, by symbol,
// or through the holding history one trade touched. Every window falls inside the
// initial trades, so it reads load-time data. Read-only, read committed.

// TradeDetail is one trade with its child rows, as frames 1-3 return it.
type TradeDetail struct {
	TradeID     int64
	AcctID      int64
	Symbol      string
	Qty         int
	BidPrice    Money
	ExecName    string
	IsCash      bool
	IsMarket    bool
	TradePrice  Money
	When        time.Time
	TypeID      string
	TypeName    string // Trade-Update frame 3
	SecName     string // Trade-Update frame 3
	Settlement  Money
	CashType    string
	DueDate     time.Time
	CashAmount  Money
	CashWhen    time.Time
	CashName    string
	HasCash     bool
	HistoryDTS  []time.Time
	HistoryStat []string
}

// HoldingHistoryRow is one row of frame 4.
type HoldingHistoryRow struct {
	HoldingTradeID, TradeID int64
	Before, After           int
}

// TradeLookupOutput is the transaction's result.
type TradeLookupOutput struct {
	Frame          int
	Trades         []TradeDetail
	HoldingHistory []HoldingHistoryRow
	// Updated counts Trade-Update's changed rows.
	Updated int
}

func (e *executor) tradeLookup(ctx context.Context, in TradeLookupInput) (Outcome, TradeLookupOutput, error) {
	out := Outcome{Kind: TradeLookup}
	var res TradeLookupOutput
	err := e.inTx(ctx, &out, dialect.ReadCommitted, func(tx dialect.Tx) error {
		res = TradeLookupOutput{Frame: in.Frame}
		switch in.Frame {
		case 1:
			return e.tlFrame1(ctx, tx, in, &res)
		case 2:
			return e.tlFrame2(ctx, tx, in, &res)
		case 3:
			return e.tlFrame3(ctx, tx, in, &res)
		}
		return e.tlFrame4(ctx, tx, in, &res)
	})
	return out, res, err
}

// tlFrame1 reads each of the given trades with its details; all must be found.
func (e *executor) tlFrame1(ctx context.Context, tx dialect.Tx, in TradeLookupInput, res *TradeLookupOutput) error {
	for _, id := range in.TradeIDs {
		d := TradeDetail{TradeID: id}
		var tp *Money
		if err := tx.QueryRow(ctx, e.sql.TradeLookupTradeByID, id).Scan(&d.BidPrice, &d.ExecName, &d.IsCash, &d.IsMarket, &tp); err != nil {
			return frameErr(TradeLookup, 1, "trade", err)
		}
		if tp != nil {
			d.TradePrice = *tp
		}
		if err := e.tradeChildren(ctx, tx, TradeLookup, 1, &d); err != nil {
			return err
		}
		res.Trades = append(res.Trades, d)
	}
	if len(res.Trades) != len(in.TradeIDs) {
		return checkf(TradeLookup, 1, "found %d of %d trades", len(res.Trades), len(in.TradeIDs))
	}
	return nil
}

// tlFrame2 reads an account's trades in a time window.
func (e *executor) tlFrame2(ctx context.Context, tx dialect.Tx, in TradeLookupInput, res *TradeLookupOutput) error {
	var list []TradeDetail
	rows, err := tx.Query(ctx, e.sql.TradeLookupTradesByAccount, in.AcctID, in.Start, in.End, in.MaxTrades)
	err = scanRows(rows, err, func(r dialect.Rows) error {
		d := TradeDetail{AcctID: in.AcctID}
		var tp *Money
		if err := r.Scan(&d.BidPrice, &d.ExecName, &d.IsCash, &d.TradeID, &tp, &d.When); err != nil {
			return err
		}
		if tp != nil {
			d.TradePrice = *tp
		}
		list = append(list, d)
		return nil
	})
	if err != nil {
		return frameErr(TradeLookup, 2, "trades", err)
	}
	return e.detailList(ctx, tx, TradeLookup, 2, in, list, res)
}

// tlFrame3 reads a symbol's trades in a time window.
func (e *executor) tlFrame3(ctx context.Context, tx dialect.Tx, in TradeLookupInput, res *TradeLookupOutput) error {
	list, err := e.tradesBySymbol(ctx, tx, TradeLookup, in)
	if err != nil {
		return err
	}
	return e.detailList(ctx, tx, TradeLookup, 3, in, list, res)
}

// tlFrame4 finds the account's first trade from the start time and the holding
// history of every lot that trade touched.
func (e *executor) tlFrame4(ctx context.Context, tx dialect.Tx, in TradeLookupInput, res *TradeLookupOutput) error {
	var id int64
	err := tx.QueryRow(ctx, e.sql.TradeLookupFirstTrade, in.AcctID, in.Start).Scan(&id)
	if errors.Is(err, dialect.ErrNoRows) {
		return nil // no trade after the start: a legal, empty answer
	}
	if err != nil {
		return frameErr(TradeLookup, 4, "first trade", err)
	}
	res.Trades = append(res.Trades, TradeDetail{TradeID: id, AcctID: in.AcctID})
	rows, err := tx.Query(ctx, e.sql.TradeLookupHoldingHistory, id, in.MaxTrades)
	err = scanRows(rows, err, func(r dialect.Rows) error {
		var h HoldingHistoryRow
		if err := r.Scan(&h.HoldingTradeID, &h.TradeID, &h.Before, &h.After); err != nil {
			return err
		}
		res.HoldingHistory = append(res.HoldingHistory, h)
		return nil
	})
	if err != nil {
		return frameErr(TradeLookup, 4, "holding history", err)
	}
	// Every completed trade touched at least one lot.
	if n := len(res.HoldingHistory); n < 1 || n > in.MaxTrades {
		return checkf(TradeLookup, 4, "%d holding history rows for trade %d, want 1-%d", n, id, in.MaxTrades)
	}
	return nil
}

// tradesBySymbol is frame 3's list of Trade-Lookup and Trade-Update.
func (e *executor) tradesBySymbol(ctx context.Context, tx dialect.Tx, k Kind, in TradeLookupInput) ([]TradeDetail, error) {
	var list []TradeDetail
	// Trade-Update's list also joins TRADE_TYPE and SECURITY for the names it rewrites.
	q := e.sql.TradeLookupTradesBySymbol
	if k == TradeUpdate {
		q = e.sql.TradeUpdateTradesBySymbol
	}
	rows, err := tx.Query(ctx, q, in.Symbol, in.Start, in.End, in.MaxTrades)
	err = scanRows(rows, err, func(r dialect.Rows) error {
		d := TradeDetail{Symbol: in.Symbol}
		var tp *Money
		dst := []any{&d.AcctID, &d.ExecName, &d.IsCash, &tp, &d.Qty, &d.When, &d.TradeID, &d.TypeID}
		if k == TradeUpdate {
			dst = append(dst, &d.TypeName, &d.SecName)
		}
		if err := r.Scan(dst...); err != nil {
			return err
		}
		if tp != nil {
			d.TradePrice = *tp
		}
		list = append(list, d)
		return nil
	})
	if err != nil {
		return nil, frameErr(k, 3, "trades", err)
	}
	return list, nil
}

// detailList reads the child rows of each listed trade.
func (e *executor) detailList(ctx context.Context, tx dialect.Tx, k Kind, frame int, in TradeLookupInput, list []TradeDetail, res *TradeLookupOutput) error {
	if len(list) > in.MaxTrades {
		return checkf(k, frame, "%d trades, want at most %d", len(list), in.MaxTrades)
	}
	for i := range list {
		if err := e.tradeChildren(ctx, tx, k, frame, &list[i]); err != nil {
			return err
		}
	}
	res.Trades = list
	return nil
}

// tradeChildren reads a trade's settlement, cash transaction (cash trades) and up to
// three history rows, and checks that a completed trade has them.
func (e *executor) tradeChildren(ctx context.Context, tx dialect.Tx, k Kind, frame int, d *TradeDetail) error {
	if err := tx.QueryRow(ctx, e.sql.TradeLookupSettlement, d.TradeID).Scan(&d.Settlement, &d.DueDate, &d.CashType); err != nil {
		return frameErr(k, frame, "settlement", err)
	}
	if d.IsCash {
		var name *string
		if err := tx.QueryRow(ctx, e.sql.TradeLookupCash, d.TradeID).Scan(&d.CashAmount, &d.CashWhen, &name); err != nil {
			return frameErr(k, frame, "cash transaction", err)
		}
		d.HasCash = true
		if name != nil {
			d.CashName = *name
		}
	}
	rows, err := tx.Query(ctx, e.sql.TradeLookupHistory, d.TradeID)
	err = scanRows(rows, err, func(r dialect.Rows) error {
		var t time.Time
		var s string
		if err := r.Scan(&t, &s); err != nil {
			return err
		}
		d.HistoryDTS = append(d.HistoryDTS, t)
		d.HistoryStat = append(d.HistoryStat, s)
		return nil
	})
	if err != nil {
		return frameErr(k, frame, "trade history", err)
	}
	if n := len(d.HistoryDTS); n < 1 || n > 3 {
		return checkf(k, frame, "trade %d has %d history rows, want 1-3", d.TradeID, n)
	}
	return nil
}
