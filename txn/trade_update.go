package txn

import (
	"context"
	"slices"
	"strings"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// Trade-Update (docs/workload.md §9.10): like Trade-Lookup, but each frame also rewrites a few
// rows of the trades it reads: the executor's name (frame 1), the settlement's cash
// type (frame 2) or the cash transaction's description (frame 3). Repeatable read:
// two Trade-Updates toggling the same row must not both succeed from one snapshot
// (the second gets a serialization failure and is retried).

// TradeUpdate draws Trade-Update's inputs.
func (g *Gen) TradeUpdate() TradeLookupInput {
	in := TradeLookupInput{MaxTrades: maxTrades}
	switch v := g.r.IntN(100); {
	case v < 33:
		in.Frame, in.TradeIDs = 1, g.tradeIDs(maxTrades)
	case v < 66:
		in.Frame = 2
		_, in.AcctID = g.customerAccount()
		in.Start, in.End = g.window(32 * 3600)
	default:
		in.Frame = 3
		in.Symbol = schema.Symbol(g.r.Int64N(g.sc.Securities()))
		in.Start, in.End = g.window(200 * 60)
	}
	return in
}

// runTradeUpdate runs Trade-Update on the worker's next inputs (its catalogue row).
func (e *executor) runTradeUpdate(ctx context.Context) (Outcome, error) {
	o, _, err := e.tradeUpdate(ctx, e.gen.TradeUpdate())
	return o, err
}

func (e *executor) tradeUpdate(ctx context.Context, in TradeLookupInput) (Outcome, TradeLookupOutput, error) {
	out := Outcome{Kind: TradeUpdate}
	var res TradeLookupOutput
	if e.server {
		err := e.lookupServer(ctx, &out, database.RepeatableRead, in, &res)
		return out, res, err
	}
	err := e.inTx(ctx, &out, database.RepeatableRead, func(tx database.Tx) error {
		res = TradeLookupOutput{Frame: in.Frame}
		switch in.Frame {
		case 1:
			return e.tuExecNames(ctx, tx, in, &res)
		case 2:
			return e.tuCashTypes(ctx, tx, in, &res)
		}
		return e.tuCashNames(ctx, tx, in, &res)
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

// tuExecNames is Trade-Update frame 1: it toggles the executor name of each given
// trade, then reads the trades and their details (two pipelines: the reads do not
// depend on each other).
func (e *executor) tuExecNames(ctx context.Context, tx database.Tx, in TradeLookupInput, res *TradeLookupOutput) error {
	ids := in.TradeIDs[:max(0, min(len(in.TradeIDs), in.MaxTrades))]
	names := make([]string, len(ids))
	n, err := e.readThenUpdate(ctx, tx, tradeReads{at: frameStmt{TradeUpdate, 1, "executor name"}, ids: ids, sql: e.sql.of(tradeUpdateExecName), dest: func(i int) []any { return []any{&names[i]} }},
		func(i int) error {
			return execOne(ctx, tx, frameStmt{TradeUpdate, 1, "update executor name"}, e.sql.of(tradeUpdateSetExecName),
				truncate(toggleExecName(names[i]), 49), ids[i])
		})
	res.Updated += n
	if err != nil {
		return err
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

// tuCashTypes is Trade-Update frame 2: it toggles the settlement cash type of an
// account's trades in a window.
func (e *executor) tuCashTypes(ctx context.Context, tx database.Tx, in TradeLookupInput, res *TradeLookupOutput) error {
	list, err := e.accountTrades(ctx, tx, TradeUpdate, in)
	if err != nil {
		return err
	}
	sel := list[:max(0, min(len(list), in.MaxTrades))]
	ids := make([]int64, len(sel))
	for i, d := range sel {
		ids[i] = d.TradeID
	}
	cashTypes := make([]string, len(sel))
	n, err := e.readThenUpdate(ctx, tx, tradeReads{at: frameStmt{TradeUpdate, 2, "settlement"}, ids: ids, sql: e.sql.of(tradeUpdateCashType), dest: func(i int) []any { return []any{&cashTypes[i]} }},
		func(i int) error {
			return execOne(ctx, tx, frameStmt{TradeUpdate, 2, "update cash type"}, e.sql.of(tradeUpdateSetCashType),
				toggleCashType(cashTypes[i], sel[i].IsCash), ids[i])
		})
	res.Updated += n
	if err != nil {
		return err
	}
	if list, err = e.detailList(ctx, tx, TradeUpdate, 2, in.MaxTrades, list); err != nil {
		return err
	}
	res.Trades = list
	if res.Updated != len(res.Trades) {
		return checkf(TradeUpdate, 2, "updated %d of %d trades found", res.Updated, len(res.Trades))
	}
	return nil
}

// tuCashNames is Trade-Update frame 3: it rewrites the cash transaction name of a
// symbol's cash trades in a window.
func (e *executor) tuCashNames(ctx context.Context, tx database.Tx, in TradeLookupInput, res *TradeLookupOutput) error {
	list, err := e.tradesBySymbol(ctx, tx, TradeUpdate, in)
	if err != nil {
		return err
	}
	var ids []int64
	for _, d := range list {
		if d.IsCash && len(ids) < in.MaxTrades { // only cash trades have a cash transaction
			ids = append(ids, d.TradeID)
		}
	}
	names := make([]*string, len(ids))
	n, err := e.readThenUpdate(ctx, tx, tradeReads{at: frameStmt{TradeUpdate, 3, "cash transaction"}, ids: ids, sql: e.sql.of(tradeUpdateCashName), dest: func(i int) []any { return []any{&names[i]} }},
		func(i int) error {
			cur := ""
			if names[i] != nil {
				cur = *names[i]
			}
			return execOne(ctx, tx, frameStmt{TradeUpdate, 3, "update cash name"}, e.sql.of(tradeUpdateSetCashName),
				truncate(toggleShares(cur), 100), ids[i])
		})
	res.Updated += n
	if err != nil {
		return err
	}
	if list, err = e.detailList(ctx, tx, TradeUpdate, 3, in.MaxTrades, list); err != nil {
		return err
	}
	res.Trades = list
	if len(res.Trades) == 0 {
		return checkf(TradeUpdate, 3, "no trade of %s in the window", in.Symbol)
	}
	return nil
}

// tradeReads are the reads of readThenUpdate: one row per trade id (sql with the id as
// its argument, into dest(i)); at names them in the frame's errors.
type tradeReads struct {
	at   frameStmt
	ids  []int64
	sql  string
	dest func(i int) []any
}

// readThenUpdate reads r's rows and then runs update(i) for each, which holds back its
// write (execOne), and returns how many updates it ran. When the ids are distinct the
// reads go out together, one round trip instead of one per trade, and the writes
// follow with the frame's next statement: each write touches only its own trade's
// row, read before it in the same snapshot, so the values read and written are those
// of the one-by-one order. A repeated id (its second read must see the first write) is
// read and updated one by one. A read's error, or a missing row at the first trade
// that lacks one, is the frame's error (frameErr with r.at); update's errors are
// returned as they are.
func (e *executor) readThenUpdate(ctx context.Context, tx database.Tx, r tradeReads, update func(i int) error) (int, error) {
	ids, sql, dest := r.ids, r.sql, r.dest
	if !distinct(ids) {
		for i, id := range ids {
			if err := tx.QueryRow(ctx, sql, id).Scan(dest(i)...); err != nil {
				return i, frameErr(r.at.kind, r.at.frame, r.at.what, err)
			}
			if err := update(i); err != nil {
				return i, err
			}
		}
		return len(ids), nil
	}
	found := make([]bool, len(ids))
	qs := make([]database.Queued, len(ids))
	for i, id := range ids {
		qs[i] = rowQ(&found[i], dest(i), sql, id)
	}
	if len(qs) > 0 {
		if err := database.Pipeline(ctx, tx, qs); err != nil {
			return 0, frameErr(r.at.kind, r.at.frame, r.at.what, err)
		}
	}
	for i := range ids {
		if err := rowErr(found[i]); err != nil {
			return i, frameErr(r.at.kind, r.at.frame, r.at.what, err)
		}
		if err := update(i); err != nil {
			return i, err
		}
	}
	return len(ids), nil
}

// distinct reports whether ids holds no value twice. A frame has at most a handful
// of ids, so comparing pairs beats building a set on the transaction's path.
func distinct(ids []int64) bool {
	for i, id := range ids {
		if slices.Contains(ids[:i], id) {
			return false
		}
	}
	return true
}

// Trade-Update's statements, in the order its frames run them.
var (
	tradeUpdateExecName       = TradeUpdate.statement("TradeUpdateExecName", `SELECT t_exec_name FROM trade WHERE t_id = $1`)
	tradeUpdateSetExecName    = TradeUpdate.statement("TradeUpdateSetExecName", `UPDATE trade SET t_exec_name = $1 WHERE t_id = $2`)
	tradeUpdateCashType       = TradeUpdate.statement("TradeUpdateCashType", `SELECT se_cash_type FROM settlement WHERE se_t_id = $1`)
	tradeUpdateSetCashType    = TradeUpdate.statement("TradeUpdateSetCashType", `UPDATE settlement SET se_cash_type = $1 WHERE se_t_id = $2`)
	tradeUpdateTradesBySymbol = TradeUpdate.statement("TradeUpdateTradesBySymbol", `SELECT t_ca_id, t_exec_name, t_is_cash, t_trade_price, t_qty, t_dts, t_id, t_tt_id, tt_name, s_name
FROM trade, trade_type, security
WHERE t_s_symb = $1 AND t_dts >= $2 AND t_dts <= $3 AND tt_id = t_tt_id AND s_symb = t_s_symb
ORDER BY t_dts
LIMIT $4`,
		override{database.SQLServer, `SELECT TOP ($4) t_ca_id, t_exec_name, t_is_cash, t_trade_price, t_qty, t_dts, t_id, t_tt_id, tt_name, s_name
FROM trade, trade_type, security
WHERE t_s_symb = $1 AND t_dts >= $2 AND t_dts <= $3
  AND tt_id = t_tt_id AND s_symb = t_s_symb
ORDER BY t_dts`})
	tradeUpdateCashName    = TradeUpdate.statement("TradeUpdateCashName", `SELECT ct_name FROM cash_transaction WHERE ct_t_id = $1`)
	tradeUpdateSetCashName = TradeUpdate.statement("TradeUpdateSetCashName", `UPDATE cash_transaction SET ct_name = $1 WHERE ct_t_id = $2`)
)
