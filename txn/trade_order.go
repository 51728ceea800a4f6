package txn

import (
	"context"
	"errors"
	"fmt"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// Trade-Order (docs/workload.md §9.7): a customer places a market or limit order. Repeatable
// read: it reads the account's position to estimate tax and must see one snapshot;
// its writes are new rows only (database.InsertOnlyRepeatableRead).

// TradeOrderInput: docs/workload.md §7.3.
type TradeOrderInput struct {
	AcctID                          int64
	ExecFirst, ExecLast, ExecTaxID  string
	ByCompany                       bool // security given as company name + issue
	Symbol                          string
	CoName, Issue                   string
	SecIndex                        int64
	TradeType                       string
	IsLimit, IsSell, IsMargin, LIFO bool
	Qty                             int
	RequestedPrice                  Money
	Rollback                        bool
}

var tradeQtys = [...]int{100, 200, 400, 800}

// TradeOrder draws Trade-Order's inputs.
func (g *Gen) TradeOrder() TradeOrderInput {
	_, ca := g.customerAccount()
	in := TradeOrderInput{AcctID: ca}
	// Executor: the owner unless the account has extra holders; then the owner 75 %
	// of the time, so the owner places 90 % of all orders.
	holders := schema.AccountHolders(ca)
	ex := holders[0]
	if len(holders) > 1 && !g.r.Chance(75) {
		ex = holders[1+g.r.IntN(len(holders)-1)]
	}
	in.ExecFirst, in.ExecLast, in.ExecTaxID = ex.First, ex.Last, ex.TaxID
	basket := g.sc.AccountBasket(ca)
	in.SecIndex = basket[g.r.IntN(len(basket))]
	in.Symbol = schema.Symbol(in.SecIndex)
	if g.r.Chance(40) {
		in.ByCompany = true
		in.CoName = schema.CompanyName(schema.SecurityCompany(in.SecIndex))
		in.Issue = schema.SecurityIssue(in.SecIndex)
	}
	in.Qty = tradeQtys[g.r.IntN(len(tradeQtys))]
	in.RequestedPrice = Money(g.r.Between(2000, 3000))
	in.IsLimit = g.r.Chance(40)
	in.IsSell = g.r.Chance(50)
	switch {
	case !in.IsLimit && in.IsSell:
		in.TradeType = schema.MarketSell
	case !in.IsLimit:
		in.TradeType = schema.MarketBuy
	case !in.IsSell:
		in.TradeType = schema.LimitBuy
	case g.r.Chance(50):
		in.TradeType = schema.StopLoss
	default:
		in.TradeType = schema.LimitSell
	}
	if !in.IsSell {
		in.IsMargin = g.r.Chance(16) // sells are always cash
	}
	in.LIFO = g.r.Chance(35)
	in.Rollback = g.r.IntN(101) == 0
	return in
}

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

// runTradeOrder runs Trade-Order on the worker's next inputs (its catalogue row).
func (e *executor) runTradeOrder(ctx context.Context) (Outcome, error) {
	return e.tradeOrder(ctx, e.gen.TradeOrder())
}

func (e *executor) tradeOrder(ctx context.Context, in TradeOrderInput) (Outcome, error) {
	out := Outcome{Kind: TradeOrder}
	if e.server {
		err := e.toServer(ctx, &out, in)
		return out, err
	}
	var st *tradeOrderState
	err := e.inTx(ctx, &out, database.InsertOnlyRepeatableRead, func(tx database.Tx) error {
		st = &tradeOrderState{in: in}
		if err := e.toAccount(ctx, tx, st); err != nil {
			return err
		}
		execName := in.ExecFirst + " " + in.ExecLast
		if in.ExecTaxID != st.custTaxID || in.ExecFirst != st.custFirst || in.ExecLast != st.custLast {
			ok, err := e.toPermission(ctx, tx, st)
			if err != nil {
				return err
			}
			if !ok {
				return database.ErrRollback // frame 5: unauthorized executor
			}
		}
		if err := e.toPricing(ctx, tx, st); err != nil {
			return err
		}
		if err := e.toRecordOrder(ctx, tx, st, execName); err != nil {
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

// toAccount is Trade-Order frame 1: it reads the account, its owner and its broker.
func (e *executor) toAccount(ctx context.Context, tx database.Tx, st *tradeOrderState) error {
	var name *string
	if err := tx.QueryRow(ctx, e.sql.of(tradeOrderAccount), st.in.AcctID).Scan(&name, &st.brokerID, &st.custID, &st.taxStatus); err != nil {
		return frameErr(TradeOrder, 1, "account", err)
	}
	if name != nil {
		st.acctName = *name
	}
	// The customer and the broker need only the account: one round trip.
	var custFound, brokerFound bool
	qs := []database.Queued{
		rowQ(&custFound, []any{&st.custFirst, &st.custLast, &st.tier, &st.custTaxID}, e.sql.of(tradeOrderCustomer), st.custID),
		rowQ(&brokerFound, []any{&st.brokerName}, e.sql.of(tradeOrderBroker), st.brokerID),
	}
	if err := database.Pipeline(ctx, tx, qs); err != nil {
		return frameErr(TradeOrder, 1, "customer and broker", err)
	}
	if err := rowErr(custFound); err != nil {
		return frameErr(TradeOrder, 1, "customer", err)
	}
	if err := rowErr(brokerFound); err != nil {
		return frameErr(TradeOrder, 1, "broker", err)
	}
	return nil
}

// toPermission is Trade-Order frame 2: it checks the executor's permission on the
// account; false means none.
func (e *executor) toPermission(ctx context.Context, tx database.Tx, st *tradeOrderState) (bool, error) {
	var acl string
	err := tx.QueryRow(ctx, e.sql.of(tradeOrderPermission), st.in.AcctID, st.in.ExecFirst, st.in.ExecLast, st.in.ExecTaxID).Scan(&acl)
	if errors.Is(err, database.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, frameErr(TradeOrder, 2, "permission", err)
	}
	return true, nil
}

// toPricing is Trade-Order frame 3: it resolves the security and prices the order:
// market price, position, estimated tax, commission rate, charge and, for margin
// orders, the account's assets. The checks run on the answers in the order the frame
// states them.
func (e *executor) toPricing(ctx context.Context, tx database.Tx, st *tradeOrderState) error {
	a, err := e.toPricingReads(ctx, tx, st)
	if err != nil {
		return err
	}
	if err := a.checkSecurity(st); err != nil {
		return err
	}
	st.price = st.in.RequestedPrice
	if st.isMarket {
		st.price = st.marketPrice
	}
	if err := e.toClosedValue(ctx, tx, st); err != nil {
		return err
	}
	if err := e.toTax(ctx, tx, st); err != nil {
		return err
	}
	return a.checkPricing(st)
}

// toPricingAnswers are the pipelined reads of Trade-Order frame 3 (and frame 4's
// trade id): whether each found its row, and the margin figures.
type toPricingAnswers struct {
	coFound, priceFound, typeFound, hsFound              bool
	commFound, chargeFound, balFound, heldFound, idFound bool
	coName                                               string
	bal, held                                            Money
}

// toPricingReads resolves the security (Trade-Order frame 3), then reads in one round
// trip everything that needs nothing else: once the symbol is known, its last price,
// the trade type and the position, behind the company name when the order gave the
// symbol; the commission, charge and margin figures, which need nothing read since
// the security; and frame 4's trade id, which needs nothing at all. Only the tax rate
// waits for the holdings (whether the order is taxable).
func (e *executor) toPricingReads(ctx context.Context, tx database.Tx, st *tradeOrderState) (*toPricingAnswers, error) {
	in := st.in
	a := &toPricingAnswers{}
	var qs []database.Queued
	if in.ByCompany {
		if err := tx.QueryRow(ctx, e.sql.of(tradeOrderCompanyByName), in.CoName).Scan(&st.coID); err != nil {
			return nil, frameErr(TradeOrder, 3, "company by name", err)
		}
		if err := tx.QueryRow(ctx, e.sql.of(tradeOrderSecurityByCompany), st.coID, in.Issue).Scan(&st.exchange, &st.secName, &st.symbol); err != nil {
			return nil, frameErr(TradeOrder, 3, "security by company", err)
		}
	} else {
		st.symbol = in.Symbol
		if err := tx.QueryRow(ctx, e.sql.of(tradeOrderSecurityBySymbol), in.Symbol).Scan(&st.coID, &st.exchange, &st.secName); err != nil {
			return nil, frameErr(TradeOrder, 3, "security", err)
		}
		qs = append(qs, rowQ(&a.coFound, []any{&a.coName}, e.sql.of(tradeOrderCompanyName), st.coID))
	}
	qs = append(qs,
		rowQ(&a.priceFound, []any{&st.marketPrice}, e.sql.of(tradeOrderLastPrice), st.symbol),
		rowQ(&a.typeFound, []any{&st.isMarket, &st.isSell}, e.sql.of(tradeOrderTradeType), in.TradeType),
		rowQ(&a.hsFound, []any{&st.hsQty}, e.sql.of(tradeOrderHoldingQty), in.AcctID, st.symbol),
		rowQ(&a.commFound, []any{&st.commRate}, e.sql.of(tradeOrderCommissionRate), st.tier, in.TradeType, st.exchange, in.Qty),
		rowQ(&a.chargeFound, []any{&st.charge}, e.sql.of(tradeOrderCharge), st.tier, in.TradeType))
	if in.IsMargin {
		qs = append(qs,
			rowQ(&a.balFound, []any{&a.bal}, e.sql.of(tradeOrderBalance), in.AcctID),
			rowQ(&a.heldFound, []any{&a.held}, e.sql.of(tradeOrderHoldingAssets), in.AcctID))
	}
	if e.ids == nil {
		qs = append(qs, rowQ(&a.idFound, []any{&st.tradeID}, e.sql.of(tradeOrderNextTradeID)))
	}
	if err := database.Pipeline(ctx, tx, qs); err != nil {
		return nil, frameErr(TradeOrder, 3, "security's price, trade type, holding summary, commission, charge, margin and next trade id", err)
	}
	if e.ids != nil {
		// A server without sequences: the pool hands the id out itself, outside
		// this transaction (database.IDAllocator).
		id, err := e.ids.NextID(ctx, schema.TradeIDSequence)
		if err != nil {
			return nil, frameErr(TradeOrder, 3, "next trade id", err)
		}
		st.tradeID, a.idFound = id, true
	}
	return a, nil
}

// checkSecurity checks the security's answers of Trade-Order frame 3: company, last
// trade and trade type found; no position is a quantity of 0.
func (a *toPricingAnswers) checkSecurity(st *tradeOrderState) error {
	if err := rowErr(a.coFound); !st.in.ByCompany && err != nil {
		return frameErr(TradeOrder, 3, "company", err)
	}
	if err := rowErr(a.priceFound); err != nil {
		return frameErr(TradeOrder, 3, "last trade", err)
	}
	if err := rowErr(a.typeFound); err != nil {
		return frameErr(TradeOrder, 3, "trade type", err)
	}
	if !a.hsFound {
		st.hsQty = 0
	}
	return nil
}

// toClosedValue estimates the value the order closes (Trade-Order frame 3): a sell
// against long lots, a buy against short lots, in the account's LIFO or FIFO order.
func (e *executor) toClosedValue(ctx context.Context, tx database.Tx, st *tradeOrderState) error {
	in := st.in
	if !((st.isSell && st.hsQty > 0) || (!st.isSell && st.hsQty < 0)) {
		return nil
	}
	q := e.sql.of(tradeOrderHoldingsAsc)
	if in.LIFO {
		q = e.sql.of(tradeOrderHoldingsDesc)
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
	return nil
}

// toTax estimates the tax on a taxable gain (Trade-Order frame 3), from the customer's
// tax rates.
func (e *executor) toTax(ctx context.Context, tx database.Tx, st *tradeOrderState) error {
	if !(st.sellValue > st.buyValue && (st.taxStatus == 1 || st.taxStatus == 2)) {
		return nil
	}
	var rate Rate
	if err := tx.QueryRow(ctx, e.sql.of(tradeOrderTaxRate), st.custID).Scan(&rate); err != nil {
		return frameErr(TradeOrder, 3, "tax rates", err)
	}
	st.taxAmount = centsOf(float64(st.sellValue-st.buyValue) / 100 * float64(rate))
	if st.taxAmount <= 0 {
		return checkf(TradeOrder, 3, "taxable gain %s gave tax %s", st.sellValue-st.buyValue, st.taxAmount)
	}
	return nil
}

// checkPricing checks the pricing answers of Trade-Order frame 3 (commission rate,
// charge, margin figures) and frame 4's trade id, and sets the order's status.
func (a *toPricingAnswers) checkPricing(st *tradeOrderState) error {
	if err := rowErr(a.commFound); err != nil {
		return frameErr(TradeOrder, 3, "commission rate", err)
	}
	if err := rowErr(a.chargeFound); err != nil {
		return frameErr(TradeOrder, 3, "charge", err)
	}
	if err := toChargeCheck(st.commRate, st.charge); err != nil {
		return err
	}
	if st.in.IsMargin {
		if err := rowErr(a.balFound); err != nil {
			return frameErr(TradeOrder, 3, "balance", err)
		}
		if err := rowErr(a.heldFound); err != nil {
			return frameErr(TradeOrder, 3, "holding assets", err)
		}
		st.acctAssets = a.bal + a.held
	}
	if err := rowErr(a.idFound); err != nil {
		return frameErr(TradeOrder, 4, "next trade id", err)
	}
	st.status = schema.StatusSubmitted
	if !st.isMarket {
		st.status = schema.StatusPending
	}
	return nil
}

// toChargeCheck is frame 3's check of the commission rate and charge, in either frame
// mode.
func toChargeCheck(rate Rate, charge Money) error {
	if rate <= 0 || charge <= 0 {
		return checkf(TradeOrder, 3, "commission rate %v and charge %s must be positive", rate, charge)
	}
	return nil
}

// toRecordOrder is Trade-Order frame 4: it records the order: TRADE, TRADE_REQUEST for
// limit orders, TRADE_HISTORY. Its writes are held back (insertOne) and go out with the
// commit, in one round trip where the database can.
func (e *executor) toRecordOrder(ctx context.Context, tx database.Tx, st *tradeOrderState, execName string) error {
	in := st.in
	// st.tradeID came with frame 3's last round trip.
	now := e.now()
	st.comm = commission(st.commRate, in.Qty, st.price)
	if err := insertOne(ctx, tx, frameStmt{TradeOrder, 4, "insert trade"}, e.sql.of(tradeOrderInsertTrade),
		st.tradeID, now, st.status, in.TradeType, !in.IsMargin, st.symbol, in.Qty, st.price, in.AcctID,
		truncate(execName, 49), st.charge, st.comm, in.LIFO); err != nil {
		return err
	}
	if !st.isMarket {
		if err := insertOne(ctx, tx, frameStmt{TradeOrder, 4, "insert trade request"}, e.sql.of(tradeOrderInsertRequest),
			st.tradeID, in.TradeType, st.symbol, in.Qty, st.price, st.brokerID); err != nil {
			return err
		}
	}
	return insertOne(ctx, tx, frameStmt{TradeOrder, 4, "insert trade history"}, e.sql.of(tradeOrderInsertHistory), st.tradeID, now, st.status)
}

// toServerResult is the server routine's frame output; amounts in cents.
type toServerResult struct {
	TradeID  int64
	Symbol   string
	Price    int64
	IsMarket bool
	Tax      int64
	CommRate Rate
	Charge   Money
	Comm     int64
	Status   string
	Assets   int64
}

// toServer runs frames 1-6 as one call of the server routine: its frame 5 rolls back
// as the client's does (an unauthorized executor, the 1-in-101 input), and a
// committed order goes to the emulator as in client mode.
func (e *executor) toServer(ctx context.Context, out *Outcome, in TradeOrderInput) error {
	var r toServerResult
	err := e.callRoutine(ctx, out, database.InsertOnlyRepeatableRead, &r,
		in.AcctID, in.ExecFirst, in.ExecLast, in.ExecTaxID, in.ByCompany, in.Symbol, in.CoName, in.Issue, in.TradeType,
		in.IsMargin, in.LIFO, in.Qty, in.RequestedPrice, in.Rollback, e.now(), in.ExecFirst+" "+in.ExecLast,
		schema.StatusSubmitted, schema.StatusPending)
	if err != nil || out.RolledBack {
		return err
	}
	if err := toChargeCheck(r.CommRate, r.Charge); err != nil {
		return err
	}
	idx := in.SecIndex
	if i, ok := schema.SymbolIndex(r.Symbol); ok {
		idx = i
	}
	out.ToMarket = []MarketRequest{{
		TradeID: r.TradeID, TradeType: in.TradeType, Symbol: r.Symbol, SecIndex: idx,
		Qty: in.Qty, Price: r.Price, IsLimit: !r.IsMarket,
	}}
	return nil
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

// Trade-Order's statements, in the order its frames run them.
var (
	tradeOrderAccount    = TradeOrder.statement("TradeOrderAccount", `SELECT ca_name, ca_b_id, ca_c_id, ca_tax_st FROM customer_account WHERE ca_id = $1`)
	tradeOrderCustomer   = TradeOrder.statement("TradeOrderCustomer", `SELECT c_f_name, c_l_name, c_tier, c_tax_id FROM customer WHERE c_id = $1`)
	tradeOrderBroker     = TradeOrder.statement("TradeOrderBroker", `SELECT b_name FROM broker WHERE b_id = $1`)
	tradeOrderPermission = TradeOrder.statement("TradeOrderPermission", `SELECT ap_acl FROM account_permission
WHERE ap_ca_id = $1 AND ap_f_name = $2 AND ap_l_name = $3 AND ap_tax_id = $4`)
	tradeOrderCompanyByName     = TradeOrder.statement("TradeOrderCompanyByName", `SELECT co_id FROM company WHERE co_name = $1`)
	tradeOrderSecurityByCompany = TradeOrder.statement("TradeOrderSecurityByCompany", `SELECT s_ex_id, s_name, s_symb FROM security WHERE s_co_id = $1 AND s_issue = $2`)
	tradeOrderSecurityBySymbol  = TradeOrder.statement("TradeOrderSecurityBySymbol", `SELECT s_co_id, s_ex_id, s_name FROM security WHERE s_symb = $1`)
	tradeOrderCompanyName       = TradeOrder.statement("TradeOrderCompanyName", `SELECT co_name FROM company WHERE co_id = $1`)
	tradeOrderLastPrice         = TradeOrder.statement("TradeOrderLastPrice", `SELECT lt_price FROM last_trade WHERE lt_s_symb = $1`)
	tradeOrderTradeType         = TradeOrder.statement("TradeOrderTradeType", `SELECT tt_is_mrkt, tt_is_sell FROM trade_type WHERE tt_id = $1`)
	tradeOrderHoldingQty        = TradeOrder.statement("TradeOrderHoldingQty", `SELECT hs_qty FROM holding_summary WHERE hs_ca_id = $1 AND hs_s_symb = $2`)
	tradeOrderHoldingsAsc       = TradeOrder.statement("TradeOrderHoldingsAsc", `SELECT h_qty, h_price FROM holding WHERE h_ca_id = $1 AND h_s_symb = $2
ORDER BY h_dts ASC, h_t_id ASC`)
	tradeOrderHoldingsDesc = TradeOrder.statement("TradeOrderHoldingsDesc", `SELECT h_qty, h_price FROM holding WHERE h_ca_id = $1 AND h_s_symb = $2
ORDER BY h_dts DESC, h_t_id DESC`)
	tradeOrderTaxRate = TradeOrder.statement("TradeOrderTaxRate", `SELECT COALESCE(SUM(tx_rate), 0) FROM taxrate
WHERE tx_id IN (SELECT cx_tx_id FROM customer_taxrate WHERE cx_c_id = $1)`)
	tradeOrderCommissionRate = TradeOrder.statement("TradeOrderCommissionRate", `SELECT cr_rate FROM commission_rate
WHERE cr_c_tier = $1 AND cr_tt_id = $2 AND cr_ex_id = $3 AND cr_from_qty <= $4 AND cr_to_qty >= $4
LIMIT 1`,
		override{database.SQLServer, `SELECT TOP 1 cr_rate FROM commission_rate
WHERE cr_c_tier = $1 AND cr_tt_id = $2 AND cr_ex_id = $3 AND cr_from_qty <= $4 AND cr_to_qty >= $4`},
		// MySQL binds each ? once: the quantity's range as BETWEEN.
		override{database.MySQL, `SELECT cr_rate FROM commission_rate
WHERE cr_c_tier = $1 AND cr_tt_id = $2 AND cr_ex_id = $3 AND $4 BETWEEN cr_from_qty AND cr_to_qty
LIMIT 1`})
	tradeOrderCharge        = TradeOrder.statement("TradeOrderCharge", `SELECT ch_chrg FROM charge WHERE ch_c_tier = $1 AND ch_tt_id = $2`)
	tradeOrderBalance       = TradeOrder.statement("TradeOrderBalance", `SELECT ca_bal FROM customer_account WHERE ca_id = $1`)
	tradeOrderHoldingAssets = TradeOrder.statement("TradeOrderHoldingAssets", `SELECT COALESCE(SUM(hs_qty * lt_price), 0) FROM holding_summary, last_trade
WHERE hs_ca_id = $1 AND lt_s_symb = hs_s_symb`)
	// A sequence, not an identity column, so the id is known before the insert.
	tradeOrderNextTradeID = TradeOrder.engineStatement("TradeOrderNextTradeID", func(e *database.Engine) string {
		return "SELECT " + e.NextValueSQL(schema.TradeIDSequence)
	})
	tradeOrderInsertTrade = TradeOrder.statement("TradeOrderInsertTrade", `INSERT INTO trade (t_id, t_dts, t_st_id, t_tt_id, t_is_cash, t_s_symb, t_qty, t_bid_price,
  t_ca_id, t_exec_name, t_trade_price, t_chrg, t_comm, t_tax, t_lifo)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL, $11, $12, 0, $13)`)
	tradeOrderInsertRequest = TradeOrder.statement("TradeOrderInsertRequest", `INSERT INTO trade_request (tr_t_id, tr_tt_id, tr_s_symb, tr_qty, tr_bid_price, tr_b_id)
VALUES ($1, $2, $3, $4, $5, $6)`)
	tradeOrderInsertHistory = TradeOrder.statement("TradeOrderInsertHistory", `INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES ($1, $2, $3)`)
)
