package txn

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/brokerbench/brokerbench/database"
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
	err := e.inTx(ctx, &out, database.ReadOnlyCommitted, func(tx database.Tx) error {
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

// tlFrame1 reads each of the given trades with its details; all must be found. The
// twenty trade reads go out as one pipeline, then their child rows as another.
func (e *executor) tlFrame1(ctx context.Context, tx database.Tx, in TradeLookupInput, res *TradeLookupOutput) error {
	list, err := e.tradesByID(ctx, tx, TradeLookup, 1, in.TradeIDs)
	if err != nil {
		return err
	}
	if err := e.tradeChildrenAll(ctx, tx, TradeLookup, 1, list); err != nil {
		return err
	}
	res.Trades = append(res.Trades, list...)
	if len(res.Trades) != len(in.TradeIDs) {
		return checkf(TradeLookup, 1, "found %d of %d trades", len(res.Trades), len(in.TradeIDs))
	}
	return nil
}

// accountTrades reads up to MaxTrades of an account's trades in the input's window,
// oldest first (frame 2 of Trade-Lookup and Trade-Update).
func (e *executor) accountTrades(ctx context.Context, tx database.Tx, k Kind, in TradeLookupInput) ([]TradeDetail, error) {
	var list []TradeDetail
	rows, err := tx.Query(ctx, e.sql.TradeLookupTradesByAccount, in.AcctID, in.Start, in.End, in.MaxTrades)
	err = scanRows(rows, err, func(r database.Rows) error {
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
		return nil, frameErr(k, 2, "trades", err)
	}
	return list, nil
}

// tradesByID reads the given trades (bid price, executor, cash and market flags,
// trade price) in one pipeline; a missing trade is an error of the frame.
func (e *executor) tradesByID(ctx context.Context, tx database.Tx, k Kind, frame int, ids []int64) ([]TradeDetail, error) {
	list := make([]TradeDetail, len(ids))
	found := make([]bool, len(ids))
	qs := make([]database.Queued, len(ids))
	for i, id := range ids {
		i := i
		list[i].TradeID = id
		qs[i] = database.Queued{SQL: e.sql.TradeLookupTradeByID, Args: []any{id}, Scan: func(r database.Rows) error {
			d := &list[i]
			var tp *Money
			if err := r.Scan(&d.BidPrice, &d.ExecName, &d.IsCash, &d.IsMarket, &tp); err != nil {
				return err
			}
			if tp != nil {
				d.TradePrice = *tp
			}
			found[i] = true
			return nil
		}}
	}
	if err := database.Pipeline(ctx, tx, qs); err != nil {
		return nil, frameErr(k, frame, "trade", err)
	}
	for i, ok := range found {
		if !ok {
			return nil, frameErr(k, frame, "trade", fmt.Errorf("trade %d: %w", ids[i], database.ErrNoRows))
		}
	}
	return list, nil
}

// tlFrame2 reads an account's trades in a time window.
func (e *executor) tlFrame2(ctx context.Context, tx database.Tx, in TradeLookupInput, res *TradeLookupOutput) error {
	list, err := e.accountTrades(ctx, tx, TradeLookup, in)
	if err != nil {
		return err
	}
	return e.detailList(ctx, tx, TradeLookup, 2, in, list, res)
}

// tlFrame3 reads a symbol's trades in a time window.
func (e *executor) tlFrame3(ctx context.Context, tx database.Tx, in TradeLookupInput, res *TradeLookupOutput) error {
	list, err := e.tradesBySymbol(ctx, tx, TradeLookup, in)
	if err != nil {
		return err
	}
	return e.detailList(ctx, tx, TradeLookup, 3, in, list, res)
}

// tlFrame4 finds the account's first trade from the start time and the holding
// history of every lot that trade touched.
func (e *executor) tlFrame4(ctx context.Context, tx database.Tx, in TradeLookupInput, res *TradeLookupOutput) error {
	var id int64
	err := tx.QueryRow(ctx, e.sql.TradeLookupFirstTrade, in.AcctID, in.Start).Scan(&id)
	if errors.Is(err, database.ErrNoRows) {
		return nil // no trade after the start: a legal, empty answer
	}
	if err != nil {
		return frameErr(TradeLookup, 4, "first trade", err)
	}
	res.Trades = append(res.Trades, TradeDetail{TradeID: id, AcctID: in.AcctID})
	rows, err := tx.Query(ctx, e.sql.TradeLookupHoldingHistory, id, in.MaxTrades)
	err = scanRows(rows, err, func(r database.Rows) error {
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
func (e *executor) tradesBySymbol(ctx context.Context, tx database.Tx, k Kind, in TradeLookupInput) ([]TradeDetail, error) {
	var list []TradeDetail
	// Trade-Update's list also joins TRADE_TYPE and SECURITY for the names it rewrites.
	q := e.sql.TradeLookupTradesBySymbol
	if k == TradeUpdate {
		q = e.sql.TradeUpdateTradesBySymbol
	}
	rows, err := tx.Query(ctx, q, in.Symbol, in.Start, in.End, in.MaxTrades)
	err = scanRows(rows, err, func(r database.Rows) error {
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
func (e *executor) detailList(ctx context.Context, tx database.Tx, k Kind, frame int, in TradeLookupInput, list []TradeDetail, res *TradeLookupOutput) error {
	if len(list) > in.MaxTrades {
		return checkf(k, frame, "%d trades, want at most %d", len(list), in.MaxTrades)
	}
	if err := e.tradeChildrenAll(ctx, tx, k, frame, list); err != nil {
		return err
	}
	res.Trades = list
	return nil
}

// tradeChildrenAll reads every listed trade's settlement, cash transaction (cash
// trades) and up to three history rows, all in one pipeline: sixty statements, one
// round trip.
func (e *executor) tradeChildrenAll(ctx context.Context, tx database.Tx, k Kind, frame int, list []TradeDetail) error {
	qs := make([]database.Queued, 0, 3*len(list))
	settled := make([]bool, len(list))
	for i := range list {
		d := &list[i]
		i := i
		qs = append(qs, database.Queued{SQL: e.sql.TradeLookupSettlement, Args: []any{d.TradeID}, Scan: func(r database.Rows) error {
			settled[i] = true
			return r.Scan(&d.Settlement, &d.DueDate, &d.CashType)
		}})
		if d.IsCash {
			qs = append(qs, database.Queued{SQL: e.sql.TradeLookupCash, Args: []any{d.TradeID}, Scan: func(r database.Rows) error {
				var name *string
				if err := r.Scan(&d.CashAmount, &d.CashWhen, &name); err != nil {
					return err
				}
				d.HasCash = true
				if name != nil {
					d.CashName = *name
				}
				return nil
			}})
		}
		qs = append(qs, database.Queued{SQL: e.sql.TradeLookupHistory, Args: []any{d.TradeID}, Scan: func(r database.Rows) error {
			var t time.Time
			var s string
			if err := r.Scan(&t, &s); err != nil {
				return err
			}
			d.HistoryDTS = append(d.HistoryDTS, t)
			d.HistoryStat = append(d.HistoryStat, s)
			return nil
		}})
	}
	if err := database.Pipeline(ctx, tx, qs); err != nil {
		return frameErr(k, frame, "trade details", err)
	}
	for i := range list {
		d := &list[i]
		if !settled[i] {
			return frameErr(k, frame, "settlement", fmt.Errorf("trade %d: %w", d.TradeID, database.ErrNoRows))
		}
		if d.IsCash && !d.HasCash {
			return frameErr(k, frame, "cash transaction", fmt.Errorf("trade %d: %w", d.TradeID, database.ErrNoRows))
		}
		if n := len(d.HistoryDTS); n < 1 || n > 3 {
			return checkf(k, frame, "trade %d has %d history rows, want 1-3", d.TradeID, n)
		}
	}
	return nil
}
