package txn

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// Trade-Result (tpce.md §6.8): the market emulator completes a trade. It is the
// throughput metric.
//
// Isolation: read committed with explicit row locks taken in one fixed order - the
// TRADE row, then its CUSTOMER_ACCOUNT row, then the account's HOLDING lots of the
// symbol - and every other write is an update relative to the row's current value
// (b_num_trades + 1, ca_bal + amount) or an insert. Why not serializable, as DBT-5
// runs it: BROKER has 10 rows per load unit and every Trade-Result updates one, so
// under SSI the planner's sequential scan of that tiny table takes a relation-level
// predicate lock and concurrent Trade-Results abort en masse (tpce.md §8.3); under
// repeatable read every concurrent update of the same broker row aborts with 40001
// too. Locking the account first serializes the Trade-Results of one account, which is
// all that protects the position (HOLDING_SUMMARY, HOLDING, HOLDING_HISTORY) from a
// lost update: only Trade-Result writes those rows at run time. The order TRADE ->
// CUSTOMER_ACCOUNT -> HOLDING is the same in every Trade-Result and no other
// transaction locks two of them, so these locks cannot deadlock among themselves.

// TradeResultOutput is what the transaction returns (for tests and the driver).
type TradeResultOutput struct {
	AcctID  int64
	Balance Money
	Tax     Money
	Comm    Money
}

type tradeResultState struct {
	tradeID int64
	price   Money
	now     time.Time
	// frame 1
	acctID   int64
	typeID   string
	symbol   string
	qty      int
	charge   Money
	lifo     bool
	isCash   bool
	status   string
	typeName string
	isSell   bool
	isMarket bool
	hsQty    int
	hsFound  bool
	// frame 2
	brokerID  int64
	custID    int64
	taxStatus int
	buyValue  Money
	sellValue Money
	// frame 3
	tax Money
	// frame 4
	exchange string
	secName  string
	tier     int
	commRate Rate
	// frame 5
	comm Money
	// frame 6
	balance Money
}

// TradeResult completes tradeID at price (cents).
func (e *executor) TradeResult(ctx context.Context, tradeID int64, price int64) (Outcome, error) {
	o, _, err := e.tradeResult(ctx, tradeID, Money(price))
	return o, err
}

func (e *executor) tradeResult(ctx context.Context, tradeID int64, price Money) (Outcome, TradeResultOutput, error) {
	out := Outcome{Kind: TradeResult}
	var st *tradeResultState
	err := e.inTx(ctx, &out, database.ReadCommitted, func(tx database.Tx) error {
		st = &tradeResultState{tradeID: tradeID, price: price, now: e.now()}
		for _, f := range []func(context.Context, database.Tx, *tradeResultState) error{
			e.trFrame1, e.trFrame2, e.trFrame3, e.trFrame4, e.trFrame5, e.trFrame6,
		} {
			if err := f(ctx, tx, st); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return out, TradeResultOutput{}, err
	}
	return out, TradeResultOutput{AcctID: st.acctID, Balance: st.balance, Tax: st.tax, Comm: st.comm}, nil
}

// trFrame1 reads and locks the trade, reads its type, and locks the account before
// reading the position (see the isolation note above).
func (e *executor) trFrame1(ctx context.Context, tx database.Tx, st *tradeResultState) error {
	if err := tx.QueryRow(ctx, e.sql.TradeResultTrade, st.tradeID).Scan(
		&st.acctID, &st.typeID, &st.symbol, &st.qty, &st.charge, &st.lifo, &st.isCash, &st.status); err != nil {
		return frameErr(TradeResult, 1, fmt.Sprintf("trade %d", st.tradeID), err)
	}
	if st.status != schema.StatusSubmitted {
		return checkf(TradeResult, 1, "trade %d is %s, not %s", st.tradeID, st.status, schema.StatusSubmitted)
	}
	if err := tx.QueryRow(ctx, e.sql.TradeResultTradeType, st.typeID).Scan(&st.typeName, &st.isSell, &st.isMarket); err != nil {
		return frameErr(TradeResult, 1, "trade type", err)
	}
	// CUSTOMER_ACCOUNT is frame 2's read; it is taken here, locked, so that no other
	// Trade-Result of the account can move the position read next.
	if err := tx.QueryRow(ctx, e.sql.TradeResultAccount, st.acctID).Scan(&st.brokerID, &st.custID, &st.taxStatus); err != nil {
		return frameErr(TradeResult, 1, "account", err)
	}
	err := tx.QueryRow(ctx, e.sql.TradeResultHoldingSummary, st.acctID, st.symbol).Scan(&st.hsQty)
	switch {
	case err == nil:
		st.hsFound = true
	case errors.Is(err, database.ErrNoRows):
		st.hsQty = 0
	default:
		return frameErr(TradeResult, 1, "holding summary", err)
	}
	return nil
}

// holdingLot is one open HOLDING row.
type holdingLot struct {
	tID   int64
	qty   int
	price Money
}

// trFrame2 moves the position: holding summary, lots closed or shrunk on the opposite
// side with a HOLDING_HISTORY row each, and a new lot for any remainder.
func (e *executor) trFrame2(ctx context.Context, tx database.Tx, st *tradeResultState) error {
	needed := st.qty
	// HOLDING has a foreign key to HOLDING_SUMMARY: insert the summary before a new
	// lot, and delete it only after the lots are gone.
	delta := st.qty
	if st.isSell {
		delta = -st.qty
	}
	newQty := st.hsQty + delta
	switch {
	case !st.hsFound:
		if err := execOne(ctx, tx, TradeResult, 2, "insert holding summary", e.sql.TradeResultInsertSummary, st.acctID, st.symbol, newQty); err != nil {
			return err
		}
	case newQty != 0:
		if err := execOne(ctx, tx, TradeResult, 2, "update holding summary", e.sql.TradeResultUpdateSummary, newQty, st.acctID, st.symbol); err != nil {
			return err
		}
	}
	opposite := (st.isSell && st.hsQty > 0) || (!st.isSell && st.hsQty < 0)
	if opposite {
		q := e.sql.TradeResultLotsAsc
		if st.lifo {
			q = e.sql.TradeResultLotsDesc
		}
		var lots []holdingLot
		rows, err := tx.Query(ctx, q, st.acctID, st.symbol)
		err = scanRows(rows, err, func(r database.Rows) error {
			var l holdingLot
			if err := r.Scan(&l.tID, &l.qty, &l.price); err != nil {
				return err
			}
			lots = append(lots, l)
			return nil
		})
		if err != nil {
			return frameErr(TradeResult, 2, "holdings", err)
		}
		for _, l := range lots {
			if needed == 0 {
				break
			}
			size := l.qty // long lots close against a sell, short lots against a buy
			if !st.isSell {
				size = -l.qty
			}
			if size <= 0 {
				continue // a lot on the same side; the summary said there is none
			}
			n := min(size, needed)
			after := l.qty - n
			if !st.isSell {
				after = l.qty + n
			}
			if err := execOne(ctx, tx, TradeResult, 2, "insert holding history", e.sql.TradeResultInsertHoldingHistory,
				l.tID, st.tradeID, l.qty, after); err != nil {
				return err
			}
			if after == 0 {
				if err := execOne(ctx, tx, TradeResult, 2, "delete holding", e.sql.TradeResultDeleteHolding, l.tID); err != nil {
					return err
				}
			} else if err := execOne(ctx, tx, TradeResult, 2, "update holding", e.sql.TradeResultUpdateHolding, after, l.tID); err != nil {
				return err
			}
			if st.isSell {
				st.buyValue += Money(n) * l.price
				st.sellValue += Money(n) * st.price
			} else {
				st.sellValue += Money(n) * l.price
				st.buyValue += Money(n) * st.price
			}
			needed -= n
		}
	}
	if needed > 0 {
		lot := needed
		if st.isSell {
			lot = -needed // a short position
		}
		if err := execOne(ctx, tx, TradeResult, 2, "insert holding history", e.sql.TradeResultInsertHoldingHistory,
			st.tradeID, st.tradeID, 0, lot); err != nil {
			return err
		}
		if err := execOne(ctx, tx, TradeResult, 2, "insert holding", e.sql.TradeResultInsertHolding,
			st.tradeID, st.acctID, st.symbol, st.now, st.price, lot); err != nil {
			return err
		}
	} else if st.hsFound && newQty == 0 {
		if err := execOne(ctx, tx, TradeResult, 2, "delete holding summary", e.sql.TradeResultDeleteSummary, st.acctID, st.symbol); err != nil {
			return err
		}
	}
	return nil
}

// trFrame3 computes the tax on a realised gain for taxable accounts.
func (e *executor) trFrame3(ctx context.Context, tx database.Tx, st *tradeResultState) error {
	if !(st.taxStatus == 1 || st.taxStatus == 2) || st.sellValue <= st.buyValue {
		return nil
	}
	var rate Rate
	if err := tx.QueryRow(ctx, e.sql.TradeResultTaxRate, st.custID).Scan(&rate); err != nil {
		return frameErr(TradeResult, 3, "tax rates", err)
	}
	st.tax = centsOf(float64(st.sellValue-st.buyValue) / 100 * float64(rate))
	if st.tax < 0 {
		return checkf(TradeResult, 3, "tax %s is negative", st.tax)
	}
	return execOne(ctx, tx, TradeResult, 3, "update trade tax", e.sql.TradeResultUpdateTax, st.tax, st.tradeID)
}

// trFrame4 reads the security, the customer's tier and the commission rate.
func (e *executor) trFrame4(ctx context.Context, tx database.Tx, st *tradeResultState) error {
	if err := tx.QueryRow(ctx, e.sql.TradeResultSecurity, st.symbol).Scan(&st.exchange, &st.secName); err != nil {
		return frameErr(TradeResult, 4, "security", err)
	}
	if err := tx.QueryRow(ctx, e.sql.TradeResultCustomerTier, st.custID).Scan(&st.tier); err != nil {
		return frameErr(TradeResult, 4, "customer", err)
	}
	if err := tx.QueryRow(ctx, e.sql.TradeResultCommissionRate, st.tier, st.typeID, st.exchange, st.qty).Scan(&st.commRate); err != nil {
		return frameErr(TradeResult, 4, "commission rate", err)
	}
	if st.commRate <= 0 {
		return checkf(TradeResult, 4, "commission rate %v is not positive", st.commRate)
	}
	return nil
}

// trFrame5 completes the trade, records its history and credits the broker.
func (e *executor) trFrame5(ctx context.Context, tx database.Tx, st *tradeResultState) error {
	st.comm = commission(st.commRate, st.qty, st.price)
	if err := execOne(ctx, tx, TradeResult, 5, "complete trade", e.sql.TradeResultCompleteTrade,
		st.comm, st.now, schema.StatusCompleted, st.price, st.tradeID); err != nil {
		return err
	}
	if err := execOne(ctx, tx, TradeResult, 5, "insert trade history", e.sql.TradeResultInsertHistory,
		st.tradeID, st.now, schema.StatusCompleted); err != nil {
		return err
	}
	return execOne(ctx, tx, TradeResult, 5, "update broker", e.sql.TradeResultUpdateBroker, st.comm, st.brokerID)
}

// trFrame6 settles the trade: SETTLEMENT, and for cash trades the balance and a
// CASH_TRANSACTION.
func (e *executor) trFrame6(ctx context.Context, tx database.Tx, st *tradeResultState) error {
	y, m, d := st.now.Date()
	due := time.Date(y, m, d, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 2)
	gross := Money(st.qty) * st.price
	amount := -(gross + st.charge + st.comm)
	if st.isSell {
		amount = gross - st.charge - st.comm
	}
	if st.taxStatus == 1 {
		amount -= st.tax
	}
	cashType := "Margin"
	if st.isCash {
		cashType = "Cash Account"
	}
	if err := execOne(ctx, tx, TradeResult, 6, "insert settlement", e.sql.TradeResultInsertSettlement,
		st.tradeID, cashType, due, amount); err != nil {
		return err
	}
	if st.isCash {
		if err := execOne(ctx, tx, TradeResult, 6, "update balance", e.sql.TradeResultUpdateBalance, amount, st.acctID); err != nil {
			return err
		}
		name := truncate(fmt.Sprintf("%s %d shares of %s", st.typeName, st.qty, st.secName), 100)
		if err := execOne(ctx, tx, TradeResult, 6, "insert cash transaction", e.sql.TradeResultInsertCash,
			st.tradeID, st.now, amount, name); err != nil {
			return err
		}
	}
	if err := tx.QueryRow(ctx, e.sql.TradeResultBalance, st.acctID).Scan(&st.balance); err != nil {
		return frameErr(TradeResult, 6, "balance", err)
	}
	return nil
}
