package txn

import (
	"context"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// Customer-Position (docs/workload.md §9.2): a customer's accounts with their cash and market
// value, and optionally the recent trade history of one of them. Read committed.

// CustomerPositionInput: docs/workload.md §7.3.
type CustomerPositionInput struct {
	CustID     int64  // 0 when identified by tax id
	TaxID      string // "" when identified by id
	GetHistory bool
	AcctIdx    int // index among the customer's accounts, when GetHistory
}

// CustomerPosition draws Customer-Position's inputs.
func (g *Gen) CustomerPosition() CustomerPositionInput {
	c := g.customer()
	var in CustomerPositionInput
	if g.r.Chance(50) {
		in.TaxID = schema.CustomerTaxID(c)
	} else {
		in.CustID = c
	}
	if g.r.Chance(50) {
		in.GetHistory = true
		in.AcctIdx = g.r.IntN(schema.AccountCount(c))
	}
	return in
}

const (
	cpMaxAccounts = 10 // not knobs: the reference's list lengths
	cpMaxTrades   = 10
	cpMaxHistory  = 30
)

// CustomerPositionAccount is one account of frame 1.
type CustomerPositionAccount struct {
	AcctID int64
	Cash   Money
	Assets Money
}

// CustomerPositionHistory is one row of frame 2.
type CustomerPositionHistory struct {
	TradeID int64
	Symbol  string
	Qty     int
	Status  string
	When    time.Time
}

// CustomerPositionOutput is the transaction's result.
type CustomerPositionOutput struct {
	CustID   int64
	Accounts []CustomerPositionAccount
	History  []CustomerPositionHistory
}

// runCustomerPosition runs Customer-Position on the worker's next inputs (its catalogue row).
func (e *executor) runCustomerPosition(ctx context.Context) (Outcome, error) {
	o, _, err := e.customerPosition(ctx, e.gen.CustomerPosition())
	return o, err
}

func (e *executor) customerPosition(ctx context.Context, in CustomerPositionInput) (Outcome, CustomerPositionOutput, error) {
	out := Outcome{Kind: CustomerPosition}
	var res CustomerPositionOutput
	if e.server {
		err := e.callRoutine(ctx, &out, database.ReadOnlyCommitted, &res,
			in.CustID, in.TaxID, in.GetHistory, in.AcctIdx)
		if err == nil {
			err = cpCheckAccounts(res)
		}
		if err == nil && in.GetHistory {
			err = cpCheckHistory(res)
		}
		return out, res, err
	}
	err := e.inTx(ctx, &out, database.ReadOnlyCommitted, func(tx database.Tx) error {
		res = CustomerPositionOutput{}
		if err := e.cpCustomerAccounts(ctx, tx, in, &res); err != nil {
			return err
		}
		if in.GetHistory {
			return e.cpTradeHistory(ctx, tx, in, &res)
		}
		return nil // frame 3: no history, commit
	})
	return out, res, err
}

// cpCustomerAccounts is Customer-Position frame 1: it resolves the customer, reads its
// row and lists its accounts by assets.
func (e *executor) cpCustomerAccounts(ctx context.Context, tx database.Tx, in CustomerPositionInput, res *CustomerPositionOutput) error {
	res.CustID = in.CustID
	if in.TaxID != "" {
		if err := tx.QueryRow(ctx, e.sql.of(customerPositionByTaxID), in.TaxID).Scan(&res.CustID); err != nil {
			return frameErr(CustomerPosition, 1, "customer by tax id", err)
		}
	}
	var (
		stID, lName, fName string
		mName, gndr        *string
		tier               int
		dob                time.Time
		adID               int64
		phones             [12]*string
		email1, email2     *string
	)
	dst := []any{&stID, &lName, &fName, &mName, &gndr, &tier, &dob, &adID}
	for i := range phones {
		dst = append(dst, &phones[i])
	}
	dst = append(dst, &email1, &email2)
	// The customer row and its accounts need only the customer id: one round trip
	// where the database can pipeline, two statements counted either way.
	customers := 0
	qs := []database.Queued{
		{SQL: e.sql.of(customerPositionCustomer), Args: []any{res.CustID}, Scan: func(r database.Rows) error {
			customers++
			return r.Scan(dst...)
		}},
		{SQL: e.sql.of(customerPositionAccounts), Args: []any{res.CustID, cpMaxAccounts}, Scan: func(r database.Rows) error {
			var a CustomerPositionAccount
			if err := r.Scan(&a.AcctID, &a.Cash, &a.Assets); err != nil {
				return err
			}
			res.Accounts = append(res.Accounts, a)
			return nil
		}},
	}
	if err := database.Pipeline(ctx, tx, qs); err != nil {
		return frameErr(CustomerPosition, 1, "customer and accounts", err)
	}
	if customers == 0 {
		return frameErr(CustomerPosition, 1, "customer", database.ErrNoRows)
	}
	return cpCheckAccounts(*res)
}

// cpCheckAccounts is frame 1's output check, in either frame mode.
func cpCheckAccounts(res CustomerPositionOutput) error {
	if n := len(res.Accounts); n < 1 || n > cpMaxAccounts {
		return checkf(CustomerPosition, 1, "%d accounts, want 1-%d", n, cpMaxAccounts)
	}
	return nil
}

// cpTradeHistory is Customer-Position frame 2: it returns the history of the account's
// 10 most recent trades.
func (e *executor) cpTradeHistory(ctx context.Context, tx database.Tx, in CustomerPositionInput, res *CustomerPositionOutput) error {
	idx := min(in.AcctIdx, len(res.Accounts)-1)
	acct := res.Accounts[idx].AcctID
	rows, err := tx.Query(ctx, e.sql.of(customerPositionHistory), acct, cpMaxTrades, cpMaxHistory)
	err = scanRows(rows, err, func(r database.Rows) error {
		var h CustomerPositionHistory
		if err := r.Scan(&h.TradeID, &h.Symbol, &h.Qty, &h.Status, &h.When); err != nil {
			return err
		}
		res.History = append(res.History, h)
		return nil
	})
	if err != nil {
		return frameErr(CustomerPosition, 2, "history", err)
	}
	return cpCheckHistory(*res)
}

// cpCheckHistory is frame 2's output check, in either frame mode. The reference
// wants 10-30 rows. Ten trades give at least 20 (every trade has a submitted and a
// completed or pending row); an account with fewer than ten trades, which a small
// trade-day count allows, is not held to the minimum.
func cpCheckHistory(res CustomerPositionOutput) error {
	trades := map[int64]bool{}
	for _, h := range res.History {
		trades[h.TradeID] = true
	}
	n := len(res.History)
	if n > cpMaxHistory || (len(trades) == cpMaxTrades && n < 10) {
		return checkf(CustomerPosition, 2, "%d history rows for %d trades, want 10-%d", n, len(trades), cpMaxHistory)
	}
	return nil
}

// Customer-Position's statements, in the order its frames run them.
var (
	customerPositionByTaxID  = CustomerPosition.statement("CustomerPositionByTaxID", `SELECT c_id FROM customer WHERE c_tax_id = $1`)
	customerPositionCustomer = CustomerPosition.statement("CustomerPositionCustomer", `SELECT c_st_id, c_l_name, c_f_name, c_m_name, c_gndr, c_tier, c_dob, c_ad_id,
  c_ctry_1, c_area_1, c_local_1, c_ext_1, c_ctry_2, c_area_2, c_local_2, c_ext_2,
  c_ctry_3, c_area_3, c_local_3, c_ext_3, c_email_1, c_email_2
FROM customer WHERE c_id = $1`)
	// LAST_TRADE joins inside the outer join: an account without holdings still
	// appears, with assets 0 (DBT-5's version drops it, docs/workload.md §9.2).
	customerPositionAccounts = CustomerPosition.statement("CustomerPositionAccounts", `SELECT ca_id, ca_bal, COALESCE(SUM(hs_qty * lt_price), 0) AS assets
FROM customer_account
LEFT JOIN (holding_summary JOIN last_trade ON lt_s_symb = hs_s_symb) ON hs_ca_id = ca_id
WHERE ca_c_id = $1
GROUP BY ca_id, ca_bal
ORDER BY assets ASC, ca_id
LIMIT $2`,
		override{database.SQLServer, `SELECT TOP ($2) ca_id, ca_bal, COALESCE(SUM(hs_qty * lt_price), 0) AS assets
FROM customer_account
LEFT JOIN (holding_summary JOIN last_trade ON lt_s_symb = hs_s_symb) ON hs_ca_id = ca_id
WHERE ca_c_id = $1
GROUP BY ca_id, ca_bal
ORDER BY assets ASC, ca_id`})
	customerPositionHistory = CustomerPosition.statement("CustomerPositionHistory", `SELECT t_id, t_s_symb, t_qty, st_name, th_dts
FROM (SELECT t_id AS id FROM trade WHERE t_ca_id = $1 ORDER BY t_dts DESC LIMIT $2) AS recent,
  trade, trade_history, status_type
WHERE t_id = recent.id AND th_t_id = t_id AND st_id = th_st_id
ORDER BY th_dts DESC, t_id
LIMIT $3`,
		override{database.SQLServer, `SELECT TOP ($3) t_id, t_s_symb, t_qty, st_name, th_dts
FROM (SELECT TOP ($2) t_id AS id FROM trade WHERE t_ca_id = $1 ORDER BY t_dts DESC) AS recent,
  trade, trade_history, status_type
WHERE t_id = recent.id AND th_t_id = t_id AND st_id = th_st_id
ORDER BY th_dts DESC, t_id`})
)
