package txn

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// Trade-Lookup (docs/workload.md §9.6): inspect historical trades by id, by account, by symbol,
// or through the holding history one trade touched. Every window falls inside the
// initial trades, so it reads load-time data. Read-only, read committed.

// TradeLookupInput serves Trade-Lookup (docs/workload.md §9.6) and Trade-Update (§9.10),
// whose inputs have the same shape.
type TradeLookupInput struct {
	Frame      int
	TradeIDs   []int64 // frame 1
	AcctID     int64   // frames 2 and 4
	Symbol     string  // frame 3
	Start, End time.Time
	MaxTrades  int
}

// maxTrades is the reference's max_trades for both transactions; Trade-Update's
// max_updates equals it.
const maxTrades = 20

// TradeLookup draws Trade-Lookup's inputs.
func (g *Gen) TradeLookup() TradeLookupInput {
	in := TradeLookupInput{MaxTrades: maxTrades}
	switch v := g.r.IntN(100); {
	case v < 30:
		in.Frame, in.TradeIDs = 1, g.tradeIDs(maxTrades)
	case v < 60:
		in.Frame = 2
		_, in.AcctID = g.customerAccount()
		in.Start, in.End = g.window(32 * 3600)
	case v < 90:
		in.Frame = 3
		in.Symbol = schema.Symbol(g.r.Int64N(g.sc.Securities()))
		in.Start, in.End = g.window(200 * 60)
	default:
		in.Frame = 4
		_, in.AcctID = g.customerAccount()
		in.Start, _ = g.window(500 * 60)
	}
	return in
}

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

// runTradeLookup runs Trade-Lookup on the worker's next inputs (its catalogue row).
func (e *executor) runTradeLookup(ctx context.Context) (Outcome, error) {
	o, _, err := e.tradeLookup(ctx, e.gen.TradeLookup())
	return o, err
}

func (e *executor) tradeLookup(ctx context.Context, in TradeLookupInput) (Outcome, TradeLookupOutput, error) {
	out := Outcome{Kind: TradeLookup}
	var res TradeLookupOutput
	if e.server {
		err := e.lookupServer(ctx, &out, database.ReadOnlyCommitted, in, &res)
		return out, res, err
	}
	err := e.inTx(ctx, &out, database.ReadOnlyCommitted, func(tx database.Tx) error {
		res = TradeLookupOutput{Frame: in.Frame}
		switch in.Frame {
		case 1:
			return e.tlTradesByID(ctx, tx, in, &res)
		case 2:
			return e.tlAccountTrades(ctx, tx, in, &res)
		case 3:
			return e.tlSymbolTrades(ctx, tx, in, &res)
		}
		return e.tlHoldingHistory(ctx, tx, in, &res)
	})
	return out, res, err
}

// tlTradesByID is Trade-Lookup frame 1: it reads each of the given trades with its
// details; all must be found. The twenty trade reads go out as one pipeline, then their
// child rows as another.
func (e *executor) tlTradesByID(ctx context.Context, tx database.Tx, in TradeLookupInput, res *TradeLookupOutput) error {
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
	rows, err := tx.Query(ctx, e.sql.of(tradeLookupTradesByAccount), in.AcctID, in.Start, in.End, in.MaxTrades)
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
		qs[i] = database.Queued{SQL: e.sql.of(tradeLookupTradeByID), Args: []any{id}, Scan: func(r database.Rows) error {
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

// tlAccountTrades is Trade-Lookup frame 2: it reads an account's trades in a time
// window.
func (e *executor) tlAccountTrades(ctx context.Context, tx database.Tx, in TradeLookupInput, res *TradeLookupOutput) error {
	list, err := e.accountTrades(ctx, tx, TradeLookup, in)
	if err != nil {
		return err
	}
	if list, err = e.detailList(ctx, tx, TradeLookup, 2, in.MaxTrades, list); err != nil {
		return err
	}
	res.Trades = list
	return nil
}

// tlSymbolTrades is Trade-Lookup frame 3: it reads a symbol's trades in a time window.
func (e *executor) tlSymbolTrades(ctx context.Context, tx database.Tx, in TradeLookupInput, res *TradeLookupOutput) error {
	list, err := e.tradesBySymbol(ctx, tx, TradeLookup, in)
	if err != nil {
		return err
	}
	if list, err = e.detailList(ctx, tx, TradeLookup, 3, in.MaxTrades, list); err != nil {
		return err
	}
	res.Trades = list
	return nil
}

// tlHoldingHistory is Trade-Lookup frame 4: it finds the account's first trade from the
// start time and the holding history of every lot that trade touched.
func (e *executor) tlHoldingHistory(ctx context.Context, tx database.Tx, in TradeLookupInput, res *TradeLookupOutput) error {
	var id int64
	err := tx.QueryRow(ctx, e.sql.of(tradeLookupFirstTrade), in.AcctID, in.Start).Scan(&id)
	if errors.Is(err, database.ErrNoRows) {
		return nil // no trade after the start: a legal, empty answer
	}
	if err != nil {
		return frameErr(TradeLookup, 4, "first trade", err)
	}
	res.Trades = append(res.Trades, TradeDetail{TradeID: id, AcctID: in.AcctID})
	rows, err := tx.Query(ctx, e.sql.of(tradeLookupHoldingHistory), id, in.MaxTrades)
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
	q := e.sql.of(tradeLookupTradesBySymbol)
	if k == TradeUpdate {
		q = e.sql.of(tradeUpdateTradesBySymbol)
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

// detailList reads the child rows of each listed trade, and returns the list.
func (e *executor) detailList(ctx context.Context, tx database.Tx, k Kind, frame int, maxTrades int, list []TradeDetail) ([]TradeDetail, error) {
	if len(list) > maxTrades {
		return nil, checkf(k, frame, "%d trades, want at most %d", len(list), maxTrades)
	}
	if err := e.tradeChildrenAll(ctx, tx, k, frame, list); err != nil {
		return nil, err
	}
	return list, nil
}

// tradeChildrenAll reads every listed trade's settlement, cash transaction (cash
// trades) and up to three history rows, all in one pipeline: sixty statements, one
// round trip.
func (e *executor) tradeChildrenAll(ctx context.Context, tx database.Tx, k Kind, frame int, list []TradeDetail) error {
	qs := make([]database.Queued, 0, 3*len(list))
	settled := make([]bool, len(list))
	// The history rows' destinations, shared by the closures (one query's rows are
	// read at a time): declared per row, they would escape to the heap row by row.
	var histWhen time.Time
	var histStatus string
	for i := range list {
		d := &list[i]
		i := i
		qs = append(qs, database.Queued{SQL: e.sql.of(tradeLookupSettlement), Args: []any{d.TradeID}, Scan: func(r database.Rows) error {
			settled[i] = true
			return r.Scan(&d.Settlement, &d.DueDate, &d.CashType)
		}})
		if d.IsCash {
			qs = append(qs, database.Queued{SQL: e.sql.of(tradeLookupCash), Args: []any{d.TradeID}, Scan: func(r database.Rows) error {
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
		qs = append(qs, database.Queued{SQL: e.sql.of(tradeLookupHistory), Args: []any{d.TradeID}, Scan: func(r database.Rows) error {
			if err := r.Scan(&histWhen, &histStatus); err != nil {
				return err
			}
			d.HistoryDTS = append(d.HistoryDTS, histWhen)
			d.HistoryStat = append(d.HistoryStat, histStatus)
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

// lookupServer runs Trade-Lookup's or Trade-Update's frame as one call of the
// transaction's server routine, then applies the client mode's output checks to its
// result.
func (e *executor) lookupServer(ctx context.Context, out *Outcome, iso database.Isolation, in TradeLookupInput, res *TradeLookupOutput) error {
	err := e.callRoutine(ctx, out, iso, res, in.Frame, in.TradeIDs, in.AcctID, in.Symbol, in.Start, in.End, in.MaxTrades)
	if err != nil {
		return err
	}
	return lookupCheck(out.Kind, in, *res)
}

// lookupCheck applies to a server routine's result the checks the client mode's
// frames apply as they read (tlTradesByID-4, tuExecNames-3, detailList, tradeChildrenAll).
func lookupCheck(k Kind, in TradeLookupInput, res TradeLookupOutput) error {
	f := in.Frame
	switch {
	case f == 1 && k == TradeUpdate && (len(res.Trades) != len(in.TradeIDs) || res.Updated != len(in.TradeIDs)):
		return checkf(k, 1, "found %d and updated %d of %d trades", len(res.Trades), res.Updated, len(in.TradeIDs))
	case f == 1 && len(res.Trades) != len(in.TradeIDs):
		return checkf(k, 1, "found %d of %d trades", len(res.Trades), len(in.TradeIDs))
	case (f == 2 || f == 3) && len(res.Trades) > in.MaxTrades:
		return checkf(k, f, "%d trades, want at most %d", len(res.Trades), in.MaxTrades)
	case f == 2 && k == TradeUpdate && res.Updated != len(res.Trades):
		return checkf(k, 2, "updated %d of %d trades found", res.Updated, len(res.Trades))
	case f == 3 && k == TradeUpdate && len(res.Trades) == 0:
		return checkf(k, 3, "no trade of %s in the window", in.Symbol)
	case f == 4 && len(res.Trades) > 0 && (len(res.HoldingHistory) < 1 || len(res.HoldingHistory) > in.MaxTrades):
		return checkf(k, 4, "%d holding history rows for trade %d, want 1-%d", len(res.HoldingHistory), res.Trades[0].TradeID, in.MaxTrades)
	}
	if f == 4 {
		return nil
	}
	for _, d := range res.Trades {
		if d.IsCash && !d.HasCash {
			return frameErr(k, f, "cash transaction", fmt.Errorf("trade %d: %w", d.TradeID, database.ErrNoRows))
		}
		if n := len(d.HistoryDTS); n < 1 || n > 3 {
			return checkf(k, f, "trade %d has %d history rows, want 1-3", d.TradeID, n)
		}
	}
	return nil
}

// Trade-Lookup's statements, in the order its frames run them.
var (
	tradeLookupTradeByID = TradeLookup.statement("TradeLookupTradeByID", `SELECT t_bid_price, t_exec_name, t_is_cash, tt_is_mrkt, t_trade_price
FROM trade, trade_type
WHERE t_id = $1 AND tt_id = t_tt_id`)
	tradeLookupSettlement = TradeLookup.statement("TradeLookupSettlement", `SELECT se_amt, se_cash_due_date, se_cash_type FROM settlement WHERE se_t_id = $1`)
	tradeLookupCash       = TradeLookup.statement("TradeLookupCash", `SELECT ct_amt, ct_dts, ct_name FROM cash_transaction WHERE ct_t_id = $1`)
	tradeLookupHistory    = TradeLookup.statement("TradeLookupHistory", `SELECT th_dts, th_st_id FROM trade_history WHERE th_t_id = $1
ORDER BY th_dts
LIMIT 3`,
		override{database.SQLServer, `SELECT TOP 3 th_dts, th_st_id FROM trade_history WHERE th_t_id = $1
ORDER BY th_dts`})
	tradeLookupTradesByAccount = TradeLookup.statement("TradeLookupTradesByAccount", `SELECT t_bid_price, t_exec_name, t_is_cash, t_id, t_trade_price, t_dts
FROM trade
WHERE t_ca_id = $1 AND t_dts >= $2 AND t_dts <= $3
ORDER BY t_dts
LIMIT $4`,
		override{database.SQLServer, `SELECT TOP ($4) t_bid_price, t_exec_name, t_is_cash, t_id, t_trade_price, t_dts
FROM trade
WHERE t_ca_id = $1 AND t_dts >= $2 AND t_dts <= $3
ORDER BY t_dts`})
	tradeLookupTradesBySymbol = TradeLookup.statement("TradeLookupTradesBySymbol", `SELECT t_ca_id, t_exec_name, t_is_cash, t_trade_price, t_qty, t_dts, t_id, t_tt_id
FROM trade
WHERE t_s_symb = $1 AND t_dts >= $2 AND t_dts <= $3
ORDER BY t_dts
LIMIT $4`,
		override{database.SQLServer, `SELECT TOP ($4) t_ca_id, t_exec_name, t_is_cash, t_trade_price, t_qty, t_dts, t_id, t_tt_id
FROM trade
WHERE t_s_symb = $1 AND t_dts >= $2 AND t_dts <= $3
ORDER BY t_dts`})
	tradeLookupFirstTrade = TradeLookup.statement("TradeLookupFirstTrade", `SELECT t_id FROM trade WHERE t_ca_id = $1 AND t_dts >= $2
ORDER BY t_dts
LIMIT 1`,
		override{database.SQLServer, `SELECT TOP 1 t_id FROM trade WHERE t_ca_id = $1 AND t_dts >= $2
ORDER BY t_dts`})
	tradeLookupHoldingHistory = TradeLookup.statement("TradeLookupHoldingHistory", `SELECT hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty
FROM holding_history
WHERE hh_h_t_id IN (SELECT hh_h_t_id FROM holding_history WHERE hh_t_id = $1)
ORDER BY hh_h_t_id, hh_t_id
LIMIT $2`,
		override{database.SQLServer, `SELECT TOP ($2) hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty
FROM holding_history
WHERE hh_h_t_id IN (SELECT hh_h_t_id FROM holding_history WHERE hh_t_id = $1)
ORDER BY hh_h_t_id, hh_t_id`})
)
