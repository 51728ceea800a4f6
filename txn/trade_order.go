package txn

import (
	"context"
	"errors"
	"fmt"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// Trade-Order (tpce.md §6.7): a customer places a market or limit order. Repeatable
// read: it reads the account's position to estimate tax and must see one snapshot;
// its writes are new rows only, so it rarely conflicts.

// tradeOrderState carries values from frame to frame.
type tradeOrderState struct {
	in TradeOrderInput
	// frame 1
	acctName                       string
	brokerID, custID               int64
	taxStatus                      int
	custFirst, custLast, custTaxID string
	tier                           int
	brokerName                     string
	// frame 3
	coID        int64
	exchange    string
	secName     string
	symbol      string
	marketPrice Money
	price       Money // requested price; the market price for market orders
	isMarket    bool
	isSell      bool
	hsQty       int
	buyValue    Money
	sellValue   Money
	taxAmount   Money
	commRate    Rate
	charge      Money
	acctAssets  Money
	status      string
	// frame 4
	tradeID int64
	comm    Money
}

func (e *executor) tradeOrder(ctx context.Context, in TradeOrderInput) (Outcome, error) {
	out := Outcome{Kind: TradeOrder}
	var st *tradeOrderState
	err := e.inTx(ctx, &out, database.RepeatableRead, func(tx database.Tx) error {
		st = &tradeOrderState{in: in}
		if err := e.toFrame1(ctx, tx, st); err != nil {
			return err
		}
		execName := in.ExecFirst + " " + in.ExecLast
		if in.ExecTaxID != st.custTaxID || in.ExecFirst != st.custFirst || in.ExecLast != st.custLast {
			ok, err := e.toFrame2(ctx, tx, st)
			if err != nil {
				return err
			}
			if !ok {
				return database.ErrRollback // frame 5: unauthorized executor
			}
		}
		if err := e.toFrame3(ctx, tx, st); err != nil {
			return err
		}
		if err := e.toFrame4(ctx, tx, st, execName); err != nil {
			return err
		}
		if in.Rollback {
			return database.ErrRollback // frame 5: the reference's 1-in-101 rollback
		}
		return nil // frame 6: commit
	})
	if err != nil || out.RolledBack {
		return out, err
	}
	idx := in.SecIndex
	if i, ok := schema.SymbolIndex(st.symbol); ok {
		idx = i
	}
	out.ToMarket = []MarketRequest{{
		TradeID: st.tradeID, TradeType: in.TradeType, Symbol: st.symbol, SecIndex: idx,
		Qty: in.Qty, Price: int64(st.price), IsLimit: !st.isMarket,
	}}
	return out, nil
}

// toFrame1 reads the account, its owner and its broker.
func (e *executor) toFrame1(ctx context.Context, tx database.Tx, st *tradeOrderState) error {
	var name *string
	if err := tx.QueryRow(ctx, e.sql.TradeOrderAccount, st.in.AcctID).Scan(&name, &st.brokerID, &st.custID, &st.taxStatus); err != nil {
		return frameErr(TradeOrder, 1, "account", err)
	}
	if name != nil {
		st.acctName = *name
	}
	if err := tx.QueryRow(ctx, e.sql.TradeOrderCustomer, st.custID).Scan(&st.custFirst, &st.custLast, &st.tier, &st.custTaxID); err != nil {
		return frameErr(TradeOrder, 1, "customer", err)
	}
	if err := tx.QueryRow(ctx, e.sql.TradeOrderBroker, st.brokerID).Scan(&st.brokerName); err != nil {
		return frameErr(TradeOrder, 1, "broker", err)
	}
	return nil
}

// toFrame2 checks the executor's permission on the account; false means none.
func (e *executor) toFrame2(ctx context.Context, tx database.Tx, st *tradeOrderState) (bool, error) {
	var acl string
	err := tx.QueryRow(ctx, e.sql.TradeOrderPermission, st.in.AcctID, st.in.ExecFirst, st.in.ExecLast, st.in.ExecTaxID).Scan(&acl)
	if errors.Is(err, database.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, frameErr(TradeOrder, 2, "permission", err)
	}
	return true, nil
}

// toFrame3 resolves the security and prices the order: market price, position,
// estimated tax, commission rate, charge and, for margin orders, the account's assets.
func (e *executor) toFrame3(ctx context.Context, tx database.Tx, st *tradeOrderState) error {
	in := st.in
	if in.ByCompany {
		if err := tx.QueryRow(ctx, e.sql.TradeOrderCompanyByName, in.CoName).Scan(&st.coID); err != nil {
			return frameErr(TradeOrder, 3, "company by name", err)
		}
		if err := tx.QueryRow(ctx, e.sql.TradeOrderSecurityByCompany, st.coID, in.Issue).Scan(&st.exchange, &st.secName, &st.symbol); err != nil {
			return frameErr(TradeOrder, 3, "security by company", err)
		}
	} else {
		st.symbol = in.Symbol
		if err := tx.QueryRow(ctx, e.sql.TradeOrderSecurityBySymbol, in.Symbol).Scan(&st.coID, &st.exchange, &st.secName); err != nil {
			return frameErr(TradeOrder, 3, "security", err)
		}
		var coName string
		if err := tx.QueryRow(ctx, e.sql.TradeOrderCompanyName, st.coID).Scan(&coName); err != nil {
			return frameErr(TradeOrder, 3, "company", err)
		}
	}
	if err := tx.QueryRow(ctx, e.sql.TradeOrderLastPrice, st.symbol).Scan(&st.marketPrice); err != nil {
		return frameErr(TradeOrder, 3, "last trade", err)
	}
	if err := tx.QueryRow(ctx, e.sql.TradeOrderTradeType, in.TradeType).Scan(&st.isMarket, &st.isSell); err != nil {
		return frameErr(TradeOrder, 3, "trade type", err)
	}
	st.price = in.RequestedPrice
	if st.isMarket {
		st.price = st.marketPrice
	}
	err := tx.QueryRow(ctx, e.sql.TradeOrderHoldingQty, in.AcctID, st.symbol).Scan(&st.hsQty)
	if errors.Is(err, database.ErrNoRows) {
		st.hsQty, err = 0, nil
	}
	if err != nil {
		return frameErr(TradeOrder, 3, "holding summary", err)
	}
	// Estimate the value closed: a sell against long lots, a buy against short lots.
	if (st.isSell && st.hsQty > 0) || (!st.isSell && st.hsQty < 0) {
		q := e.sql.TradeOrderHoldingsAsc
		if in.LIFO {
			q = e.sql.TradeOrderHoldingsDesc
		}
		needed := in.Qty
		rows, err := tx.Query(ctx, q, in.AcctID, st.symbol)
		err = scanRows(rows, err, func(r database.Rows) error {
			var hQty int
			var hPrice Money
			if err := r.Scan(&hQty, &hPrice); err != nil {
				return err
			}
			if needed == 0 {
				return nil
			}
			if st.isSell {
				n := min(hQty, needed)
				st.buyValue += Money(n) * hPrice
				st.sellValue += Money(n) * st.price
				needed -= n
			} else {
				n := min(-hQty, needed)
				st.sellValue += Money(n) * hPrice
				st.buyValue += Money(n) * st.price
				needed -= n
			}
			return nil
		})
		if err != nil {
			return frameErr(TradeOrder, 3, "holdings", err)
		}
	}
	if st.sellValue > st.buyValue && (st.taxStatus == 1 || st.taxStatus == 2) {
		var rate Rate
		if err := tx.QueryRow(ctx, e.sql.TradeOrderTaxRate, st.custID).Scan(&rate); err != nil {
			return frameErr(TradeOrder, 3, "tax rates", err)
		}
		st.taxAmount = centsOf(float64(st.sellValue-st.buyValue) / 100 * float64(rate))
		if st.taxAmount <= 0 {
			return checkf(TradeOrder, 3, "taxable gain %s gave tax %s", st.sellValue-st.buyValue, st.taxAmount)
		}
	}
	if err := tx.QueryRow(ctx, e.sql.TradeOrderCommissionRate, st.tier, in.TradeType, st.exchange, in.Qty).Scan(&st.commRate); err != nil {
		return frameErr(TradeOrder, 3, "commission rate", err)
	}
	if err := tx.QueryRow(ctx, e.sql.TradeOrderCharge, st.tier, in.TradeType).Scan(&st.charge); err != nil {
		return frameErr(TradeOrder, 3, "charge", err)
	}
	if st.commRate <= 0 || st.charge <= 0 {
		return checkf(TradeOrder, 3, "commission rate %v and charge %s must be positive", st.commRate, st.charge)
	}
	if in.IsMargin {
		var bal, held Money
		if err := tx.QueryRow(ctx, e.sql.TradeOrderBalance, in.AcctID).Scan(&bal); err != nil {
			return frameErr(TradeOrder, 3, "balance", err)
		}
		if err := tx.QueryRow(ctx, e.sql.TradeOrderHoldingAssets, in.AcctID).Scan(&held); err != nil {
			return frameErr(TradeOrder, 3, "holding assets", err)
		}
		st.acctAssets = bal + held
	}
	st.status = schema.StatusSubmitted
	if !st.isMarket {
		st.status = schema.StatusPending
	}
	return nil
}

// toFrame4 records the order: TRADE, TRADE_REQUEST for limit orders, TRADE_HISTORY.
func (e *executor) toFrame4(ctx context.Context, tx database.Tx, st *tradeOrderState, execName string) error {
	in := st.in
	if err := tx.QueryRow(ctx, e.sql.TradeOrderNextTradeID).Scan(&st.tradeID); err != nil {
		return frameErr(TradeOrder, 4, "next trade id", err)
	}
	now := e.now()
	st.comm = commission(st.commRate, in.Qty, st.price)
	if err := execOne(ctx, tx, TradeOrder, 4, "insert trade", e.sql.TradeOrderInsertTrade,
		st.tradeID, now, st.status, in.TradeType, !in.IsMargin, st.symbol, in.Qty, st.price, in.AcctID,
		truncate(execName, 49), st.charge, st.comm, in.LIFO); err != nil {
		return err
	}
	if !st.isMarket {
		if err := execOne(ctx, tx, TradeOrder, 4, "insert trade request", e.sql.TradeOrderInsertRequest,
			st.tradeID, in.TradeType, st.symbol, in.Qty, st.price, st.brokerID); err != nil {
			return err
		}
	}
	return execOne(ctx, tx, TradeOrder, 4, "insert trade history", e.sql.TradeOrderInsertHistory, st.tradeID, now, st.status)
}

// frameErr wraps a frame's database error; a missing row the frame needs is a
// failed check (the database is not what the workload loaded).
func frameErr(k Kind, frame int, what string, err error) error {
	if errors.Is(err, database.ErrNoRows) {
		return checkf(k, frame, "%s: no row", what)
	}
	return fmt.Errorf("%s frame %d: %s: %w", k, frame, what, err)
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
