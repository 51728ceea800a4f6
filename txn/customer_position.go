package txn

import (
	"context"
	"time"

	"github.com/brokerbench/brokerbench/database"
)

// Customer-Position (tpce.md §6.2): a customer's accounts with their cash and market
// value, and optionally the recent trade history of one of them. Read committed.

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

func (e *executor) customerPosition(ctx context.Context, in CustomerPositionInput) (Outcome, CustomerPositionOutput, error) {
	out := Outcome{Kind: CustomerPosition}
	var res CustomerPositionOutput
	err := e.inTx(ctx, &out, database.ReadOnlyCommitted, func(tx database.Tx) error {
		res = CustomerPositionOutput{}
		if err := e.cpFrame1(ctx, tx, in, &res); err != nil {
			return err
		}
		if in.GetHistory {
			return e.cpFrame2(ctx, tx, in, &res)
		}
		return nil // frame 3: no history, commit
	})
	return out, res, err
}

// cpFrame1 resolves the customer, reads its row and lists its accounts by assets.
func (e *executor) cpFrame1(ctx context.Context, tx database.Tx, in CustomerPositionInput, res *CustomerPositionOutput) error {
	res.CustID = in.CustID
	if in.TaxID != "" {
		if err := tx.QueryRow(ctx, e.sql.CustomerPositionByTaxID, in.TaxID).Scan(&res.CustID); err != nil {
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
	if err := tx.QueryRow(ctx, e.sql.CustomerPositionCustomer, res.CustID).Scan(dst...); err != nil {
		return frameErr(CustomerPosition, 1, "customer", err)
	}
	rows, err := tx.Query(ctx, e.sql.CustomerPositionAccounts, res.CustID, cpMaxAccounts)
	err = scanRows(rows, err, func(r database.Rows) error {
		var a CustomerPositionAccount
		if err := r.Scan(&a.AcctID, &a.Cash, &a.Assets); err != nil {
			return err
		}
		res.Accounts = append(res.Accounts, a)
		return nil
	})
	if err != nil {
		return frameErr(CustomerPosition, 1, "accounts", err)
	}
	if n := len(res.Accounts); n < 1 || n > cpMaxAccounts {
		return checkf(CustomerPosition, 1, "%d accounts, want 1-%d", n, cpMaxAccounts)
	}
	return nil
}

// cpFrame2 returns the history of the account's 10 most recent trades.
func (e *executor) cpFrame2(ctx context.Context, tx database.Tx, in CustomerPositionInput, res *CustomerPositionOutput) error {
	idx := min(in.AcctIdx, len(res.Accounts)-1)
	acct := res.Accounts[idx].AcctID
	rows, err := tx.Query(ctx, e.sql.CustomerPositionHistory, acct, cpMaxTrades, cpMaxHistory)
	trades := map[int64]bool{}
	err = scanRows(rows, err, func(r database.Rows) error {
		var h CustomerPositionHistory
		if err := r.Scan(&h.TradeID, &h.Symbol, &h.Qty, &h.Status, &h.When); err != nil {
			return err
		}
		trades[h.TradeID] = true
		res.History = append(res.History, h)
		return nil
	})
	if err != nil {
		return frameErr(CustomerPosition, 2, "history", err)
	}
	// The reference wants 10-30 rows. Ten trades give at least 20 (every trade has a
	// submitted and a completed or pending row); an account with fewer than ten
	// trades, which a small trade-day count allows, is not held to the minimum.
	n := len(res.History)
	if n > cpMaxHistory || (len(trades) == cpMaxTrades && n < 10) {
		return checkf(CustomerPosition, 2, "%d history rows for %d trades, want 10-%d", n, len(trades), cpMaxHistory)
	}
	return nil
}
