package txn

import (
	"context"
	"fmt"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// Trade-Result (docs/workload.md §9.8): the market emulator completes a trade. It is the
// throughput metric.
//
// Isolation: read committed with explicit row locks taken in one fixed order - the
// TRADE row, then its CUSTOMER_ACCOUNT row, then the account's HOLDING lots of the
// symbol - and every other write is an update relative to the row's current value
// (b_num_trades + 1, ca_bal + amount) or an insert. Why not serializable, as DBT-5
// runs it: BROKER has 10 rows per load unit and every Trade-Result updates one, so
// under SSI the planner's sequential scan of that tiny table takes a relation-level
// predicate lock and concurrent Trade-Results abort en masse (docs/workload.md §10.1); under
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
	if e.server {
		var res TradeResultOutput
		err := e.callRoutine(ctx, &out, database.ReadCommitted, &res,
			tradeID, price, e.now(), schema.StatusSubmitted, schema.StatusCompleted)
		if err == nil {
			err = trTaxCheck(res.Tax)
		}
		return out, res, err
	}
	var st *tradeResultState
	err := e.inTx(ctx, &out, database.ReadCommitted, func(tx database.Tx) error {
		st = &tradeResultState{tradeID: tradeID, price: price, now: e.now()}
		for _, f := range []func(context.Context, database.Tx, *tradeResultState) error{
			e.trLockTrade, e.trMovePosition, e.trTax, e.trCommission, e.trCompleteTrade, e.trSettle,
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

// trLockTrade is Trade-Result frame 1: it reads and locks the trade, reads its type,
// and locks the account before reading the position (see the isolation note above).
func (e *executor) trLockTrade(ctx context.Context, tx database.Tx, st *tradeResultState) error {
	if err := tx.QueryRow(ctx, e.sql.of(tradeResultTrade), st.tradeID).Scan(
		&st.acctID, &st.typeID, &st.symbol, &st.qty, &st.charge, &st.lifo, &st.isCash, &st.status); err != nil {
		return frameErr(TradeResult, 1, fmt.Sprintf("trade %d", st.tradeID), err)
	}
	if st.status != schema.StatusSubmitted {
		return checkf(TradeResult, 1, "trade %d is %s, not %s", st.tradeID, st.status, schema.StatusSubmitted)
	}
	// The trade type, the account (locked) and the position need only the trade row:
	// one round trip, sent in the order the locks must be taken.
	var typeFound, acctFound bool
	qs := []database.Queued{
		rowQ(&typeFound, []any{&st.typeName, &st.isSell, &st.isMarket}, e.sql.of(tradeResultTradeType), st.typeID),
		// CUSTOMER_ACCOUNT is frame 2's read; it is taken here, locked, so that no
		// other Trade-Result of the account can move the position read next.
		rowQ(&acctFound, []any{&st.brokerID, &st.custID, &st.taxStatus}, e.sql.of(tradeResultAccount), st.acctID),
		rowQ(&st.hsFound, []any{&st.hsQty}, e.sql.of(tradeResultHoldingSummary), st.acctID, st.symbol),
	}
	if err := database.Pipeline(ctx, tx, qs); err != nil {
		return frameErr(TradeResult, 1, "trade type, account and holding summary", err)
	}
	if err := rowErr(typeFound); err != nil {
		return frameErr(TradeResult, 1, "trade type", err)
	}
	if err := rowErr(acctFound); err != nil {
		return frameErr(TradeResult, 1, "account", err)
	}
	if !st.hsFound {
		st.hsQty = 0
	}
	return nil
}

// holdingLot is one open HOLDING row.
type holdingLot struct {
	tID   int64
	qty   int
	price Money
}

// trMovePosition is Trade-Result frame 2: it moves the position: holding summary, lots
// closed or shrunk on the opposite side with a HOLDING_HISTORY row each, and a new lot
// for any remainder.
func (e *executor) trMovePosition(ctx context.Context, tx database.Tx, st *tradeResultState) error {
	// HOLDING has a foreign key to HOLDING_SUMMARY: insert the summary before a new
	// lot, and delete it only after the lots are gone.
	delta := st.qty
	if st.isSell {
		delta = -st.qty
	}
	newQty := st.hsQty + delta
	switch {
	case !st.hsFound:
		if err := execOne(ctx, tx, frameStmt{TradeResult, 2, "insert holding summary"}, e.sql.of(tradeResultInsertSummary), st.acctID, st.symbol, newQty); err != nil {
			return err
		}
	case newQty != 0:
		if err := execOne(ctx, tx, frameStmt{TradeResult, 2, "update holding summary"}, e.sql.of(tradeResultUpdateSummary), newQty, st.acctID, st.symbol); err != nil {
			return err
		}
	}
	needed := st.qty
	if (st.isSell && st.hsQty > 0) || (!st.isSell && st.hsQty < 0) {
		var err error
		if needed, err = e.trCloseLots(ctx, tx, st); err != nil {
			return err
		}
	}
	if needed > 0 {
		lot := needed
		if st.isSell {
			lot = -needed // a short position
		}
		if err := execOne(ctx, tx, frameStmt{TradeResult, 2, "insert holding history"}, e.sql.of(tradeResultInsertHoldingHistory),
			st.tradeID, st.tradeID, 0, lot); err != nil {
			return err
		}
		if err := execOne(ctx, tx, frameStmt{TradeResult, 2, "insert holding"}, e.sql.of(tradeResultInsertHolding),
			st.tradeID, st.acctID, st.symbol, st.now, st.price, lot); err != nil {
			return err
		}
	} else if st.hsFound && newQty == 0 {
		if err := execOne(ctx, tx, frameStmt{TradeResult, 2, "delete holding summary"}, e.sql.of(tradeResultDeleteSummary), st.acctID, st.symbol); err != nil {
			return err
		}
	}
	return nil
}

// trCloseLots closes or shrinks the lots on the opposite side of the trade (Trade-Result
// frame 2), in the account's LIFO or FIFO order, with a HOLDING_HISTORY row each, and
// adds their values to the trade's buy and sell values. It returns the quantity left
// to open as a new lot.
func (e *executor) trCloseLots(ctx context.Context, tx database.Tx, st *tradeResultState) (needed int, err error) {
	needed = st.qty
	q := e.sql.of(tradeResultLotsAsc)
	if st.lifo {
		q = e.sql.of(tradeResultLotsDesc)
	}
	var lots []holdingLot
	// A pipeline of one: the summary's write held back by frame 2 goes with it.
	err = database.Pipeline(ctx, tx, []database.Queued{{SQL: q, Args: []any{st.acctID, st.symbol}, Scan: func(r database.Rows) error {
		var l holdingLot
		if err := r.Scan(&l.tID, &l.qty, &l.price); err != nil {
			return err
		}
		lots = append(lots, l)
		return nil
	}}})
	if err != nil {
		return 0, frameErr(TradeResult, 2, "holdings", err)
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
		if err := execOne(ctx, tx, frameStmt{TradeResult, 2, "insert holding history"}, e.sql.of(tradeResultInsertHoldingHistory),
			l.tID, st.tradeID, l.qty, after); err != nil {
			return 0, err
		}
		if after == 0 {
			if err := execOne(ctx, tx, frameStmt{TradeResult, 2, "delete holding"}, e.sql.of(tradeResultDeleteHolding), l.tID); err != nil {
				return 0, err
			}
		} else if err := execOne(ctx, tx, frameStmt{TradeResult, 2, "update holding"}, e.sql.of(tradeResultUpdateHolding), after, l.tID); err != nil {
			return 0, err
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
	return needed, nil
}

// trTax is Trade-Result frame 3: it computes the tax on a realised gain for taxable
// accounts.
func (e *executor) trTax(ctx context.Context, tx database.Tx, st *tradeResultState) error {
	if !(st.taxStatus == 1 || st.taxStatus == 2) || st.sellValue <= st.buyValue {
		return nil
	}
	var rate Rate
	if err := tx.QueryRow(ctx, e.sql.of(tradeResultTaxRate), st.custID).Scan(&rate); err != nil {
		return frameErr(TradeResult, 3, "tax rates", err)
	}
	st.tax = centsOf(float64(st.sellValue-st.buyValue) / 100 * float64(rate))
	if err := trTaxCheck(st.tax); err != nil {
		return err
	}
	return execOne(ctx, tx, frameStmt{TradeResult, 3, "update trade tax"}, e.sql.of(tradeResultUpdateTax), st.tax, st.tradeID)
}

// trCommission is Trade-Result frame 4: it reads the security, the customer's tier and
// the commission rate.
func (e *executor) trCommission(ctx context.Context, tx database.Tx, st *tradeResultState) error {
	// The security and the tier need only frame 1's rows: one round trip.
	var secFound, tierFound bool
	qs := []database.Queued{
		rowQ(&secFound, []any{&st.exchange, &st.secName}, e.sql.of(tradeResultSecurity), st.symbol),
		rowQ(&tierFound, []any{&st.tier}, e.sql.of(tradeResultCustomerTier), st.custID),
	}
	if err := database.Pipeline(ctx, tx, qs); err != nil {
		return frameErr(TradeResult, 4, "security and customer", err)
	}
	if err := rowErr(secFound); err != nil {
		return frameErr(TradeResult, 4, "security", err)
	}
	if err := rowErr(tierFound); err != nil {
		return frameErr(TradeResult, 4, "customer", err)
	}
	if err := tx.QueryRow(ctx, e.sql.of(tradeResultCommissionRate), st.tier, st.typeID, st.exchange, st.qty).Scan(&st.commRate); err != nil {
		return frameErr(TradeResult, 4, "commission rate", err)
	}
	if st.commRate <= 0 {
		return checkf(TradeResult, 4, "commission rate %v is not positive", st.commRate)
	}
	return nil
}

// trCompleteTrade is Trade-Result frame 5: it completes the trade, records its history
// and credits the broker.
func (e *executor) trCompleteTrade(ctx context.Context, tx database.Tx, st *tradeResultState) error {
	st.comm = commission(st.commRate, st.qty, st.price)
	if err := execOne(ctx, tx, frameStmt{TradeResult, 5, "complete trade"}, e.sql.of(tradeResultCompleteTrade),
		st.comm, st.now, schema.StatusCompleted, st.price, st.tradeID); err != nil {
		return err
	}
	if err := execOne(ctx, tx, frameStmt{TradeResult, 5, "insert trade history"}, e.sql.of(tradeResultInsertHistory),
		st.tradeID, st.now, schema.StatusCompleted); err != nil {
		return err
	}
	return execOne(ctx, tx, frameStmt{TradeResult, 5, "update broker"}, e.sql.of(tradeResultUpdateBroker), st.comm, st.brokerID)
}

// trSettle is Trade-Result frame 6: it settles the trade: SETTLEMENT, and for cash
// trades the balance and a CASH_TRANSACTION.
func (e *executor) trSettle(ctx context.Context, tx database.Tx, st *tradeResultState) error {
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
	if err := execOne(ctx, tx, frameStmt{TradeResult, 6, "insert settlement"}, e.sql.of(tradeResultInsertSettlement),
		st.tradeID, cashType, due, amount); err != nil {
		return err
	}
	if st.isCash {
		if err := execOne(ctx, tx, frameStmt{TradeResult, 6, "update balance"}, e.sql.of(tradeResultUpdateBalance), amount, st.acctID); err != nil {
			return err
		}
		name := truncate(fmt.Sprintf("%s %d shares of %s", st.typeName, st.qty, st.secName), 100)
		if err := execOne(ctx, tx, frameStmt{TradeResult, 6, "insert cash transaction"}, e.sql.of(tradeResultInsertCash),
			st.tradeID, st.now, amount, name); err != nil {
			return err
		}
	}
	if err := tx.QueryRow(ctx, e.sql.of(tradeResultBalance), st.acctID).Scan(&st.balance); err != nil {
		return frameErr(TradeResult, 6, "balance", err)
	}
	return nil
}

// Trade-Result's statements, in the order its frames run them. SQL Server takes the
// row locks of FOR UPDATE as WITH (UPDLOCK, ROWLOCK): update locks at read time, in
// the same order as PostgreSQL's. No MERGE: the upserts are a read, then an insert or
// an update, on both databases.
var (
	tradeResultTrade = TradeResult.statement("TradeResultTrade", `SELECT t_ca_id, t_tt_id, t_s_symb, t_qty, t_chrg, t_lifo, t_is_cash, t_st_id
FROM trade WHERE t_id = $1 FOR UPDATE`,
		override{database.SQLServer, `SELECT t_ca_id, t_tt_id, t_s_symb, t_qty, t_chrg, t_lifo, t_is_cash, t_st_id
FROM trade WITH (UPDLOCK, ROWLOCK) WHERE t_id = $1`})
	tradeResultTradeType = TradeResult.statement("TradeResultTradeType", `SELECT tt_name, tt_is_sell, tt_is_mrkt FROM trade_type WHERE tt_id = $1`)
	tradeResultAccount   = TradeResult.statement("TradeResultAccount", `SELECT ca_b_id, ca_c_id, ca_tax_st FROM customer_account WHERE ca_id = $1 FOR UPDATE`,
		override{database.SQLServer, `SELECT ca_b_id, ca_c_id, ca_tax_st FROM customer_account WITH (UPDLOCK, ROWLOCK) WHERE ca_id = $1`})
	tradeResultHoldingSummary = TradeResult.statement("TradeResultHoldingSummary", `SELECT hs_qty FROM holding_summary WHERE hs_ca_id = $1 AND hs_s_symb = $2`)
	tradeResultInsertSummary  = TradeResult.statement("TradeResultInsertSummary", `INSERT INTO holding_summary (hs_ca_id, hs_s_symb, hs_qty) VALUES ($1, $2, $3)`)
	tradeResultUpdateSummary  = TradeResult.statement("TradeResultUpdateSummary", `UPDATE holding_summary SET hs_qty = $1 WHERE hs_ca_id = $2 AND hs_s_symb = $3`)
	tradeResultDeleteSummary  = TradeResult.statement("TradeResultDeleteSummary", `DELETE FROM holding_summary WHERE hs_ca_id = $1 AND hs_s_symb = $2`)
	tradeResultLotsAsc        = TradeResult.statement("TradeResultLotsAsc", `SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = $1 AND h_s_symb = $2
ORDER BY h_dts ASC, h_t_id ASC FOR UPDATE`,
		override{database.SQLServer, `SELECT h_t_id, h_qty, h_price FROM holding WITH (UPDLOCK, ROWLOCK) WHERE h_ca_id = $1 AND h_s_symb = $2
ORDER BY h_dts ASC, h_t_id ASC`})
	tradeResultLotsDesc = TradeResult.statement("TradeResultLotsDesc", `SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = $1 AND h_s_symb = $2
ORDER BY h_dts DESC, h_t_id DESC FOR UPDATE`,
		override{database.SQLServer, `SELECT h_t_id, h_qty, h_price FROM holding WITH (UPDLOCK, ROWLOCK) WHERE h_ca_id = $1 AND h_s_symb = $2
ORDER BY h_dts DESC, h_t_id DESC`})
	tradeResultInsertHoldingHistory = TradeResult.statement("TradeResultInsertHoldingHistory", `INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES ($1, $2, $3, $4)`)
	tradeResultUpdateHolding        = TradeResult.statement("TradeResultUpdateHolding", `UPDATE holding SET h_qty = $1 WHERE h_t_id = $2`)
	tradeResultDeleteHolding        = TradeResult.statement("TradeResultDeleteHolding", `DELETE FROM holding WHERE h_t_id = $1`)
	tradeResultInsertHolding        = TradeResult.statement("TradeResultInsertHolding", `INSERT INTO holding (h_t_id, h_ca_id, h_s_symb, h_dts, h_price, h_qty)
VALUES ($1, $2, $3, $4, $5, $6)`)
	tradeResultTaxRate = TradeResult.statement("TradeResultTaxRate", `SELECT COALESCE(SUM(tx_rate), 0) FROM taxrate
WHERE tx_id IN (SELECT cx_tx_id FROM customer_taxrate WHERE cx_c_id = $1)`)
	tradeResultUpdateTax      = TradeResult.statement("TradeResultUpdateTax", `UPDATE trade SET t_tax = $1 WHERE t_id = $2`)
	tradeResultSecurity       = TradeResult.statement("TradeResultSecurity", `SELECT s_ex_id, s_name FROM security WHERE s_symb = $1`)
	tradeResultCustomerTier   = TradeResult.statement("TradeResultCustomerTier", `SELECT c_tier FROM customer WHERE c_id = $1`)
	tradeResultCommissionRate = TradeResult.statement("TradeResultCommissionRate", `SELECT cr_rate FROM commission_rate
WHERE cr_c_tier = $1 AND cr_tt_id = $2 AND cr_ex_id = $3 AND cr_from_qty <= $4 AND cr_to_qty >= $4
LIMIT 1`,
		override{database.SQLServer, `SELECT TOP 1 cr_rate FROM commission_rate
WHERE cr_c_tier = $1 AND cr_tt_id = $2 AND cr_ex_id = $3 AND cr_from_qty <= $4 AND cr_to_qty >= $4`},
		// MySQL binds each ? once: the quantity's range as BETWEEN.
		override{database.MySQL, `SELECT cr_rate FROM commission_rate
WHERE cr_c_tier = $1 AND cr_tt_id = $2 AND cr_ex_id = $3 AND $4 BETWEEN cr_from_qty AND cr_to_qty
LIMIT 1`})
	tradeResultCompleteTrade    = TradeResult.statement("TradeResultCompleteTrade", `UPDATE trade SET t_comm = $1, t_dts = $2, t_st_id = $3, t_trade_price = $4 WHERE t_id = $5`)
	tradeResultInsertHistory    = TradeResult.statement("TradeResultInsertHistory", `INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES ($1, $2, $3)`)
	tradeResultUpdateBroker     = TradeResult.statement("TradeResultUpdateBroker", `UPDATE broker SET b_comm_total = b_comm_total + $1, b_num_trades = b_num_trades + 1 WHERE b_id = $2`)
	tradeResultInsertSettlement = TradeResult.statement("TradeResultInsertSettlement", `INSERT INTO settlement (se_t_id, se_cash_type, se_cash_due_date, se_amt)
VALUES ($1, $2, $3, $4)`)
	tradeResultUpdateBalance = TradeResult.statement("TradeResultUpdateBalance", `UPDATE customer_account SET ca_bal = ca_bal + $1 WHERE ca_id = $2`)
	tradeResultInsertCash    = TradeResult.statement("TradeResultInsertCash", `INSERT INTO cash_transaction (ct_t_id, ct_dts, ct_amt, ct_name) VALUES ($1, $2, $3, $4)`)
	tradeResultBalance       = TradeResult.statement("TradeResultBalance", `SELECT ca_bal FROM customer_account WHERE ca_id = $1`)
)

// trTaxCheck is frame 3's check of the tax, in either frame mode.
func trTaxCheck(tax Money) error {
	if tax < 0 {
		return checkf(TradeResult, 3, "tax %s is negative", tax)
	}
	return nil
}
