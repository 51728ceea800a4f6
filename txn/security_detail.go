package txn

import (
	"context"
	"time"

	"github.com/brokerbench/brokerbench/database"
)

// Security-Detail (tpce.md §6.5): the full profile of one security: company, its two
// addresses, exchange, competitors, 20 quarters of financials, a run of daily market
// rows, the last trade and two news items (with the large item text 1 % of the time).
// Read-only, read committed.

const (
	sdFinancialRows = 20 // not knobs: the reference's output checks
	sdNewsRows      = 2
	sdCompetitors   = 3
)

// SecurityDetailOutput is the transaction's result (counts and a few values).
type SecurityDetailOutput struct {
	SecName     string
	CoName      string
	Competitors int
	Financials  int
	DayRows     int
	LastPrice   Money
	News        int
	NewsBytes   int
}

func (e *executor) securityDetail(ctx context.Context, in SecurityDetailInput) (Outcome, SecurityDetailOutput, error) {
	out := Outcome{Kind: SecurityDetail}
	var res SecurityDetailOutput
	err := e.inTx(ctx, &out, database.ReadOnlyCommitted, func(tx database.Tx) error {
		res = SecurityDetailOutput{}
		return e.sdFrame1(ctx, tx, in, &res)
	})
	return out, res, err
}

func (e *executor) sdFrame1(ctx context.Context, tx database.Tx, in SecurityDetailInput, res *SecurityDetailOutput) error {
	var (
		coID                            int64
		ceo, desc, exName, exDesc       string
		spRate                          string
		openDate, startDate, exchDate   time.Time
		numOut                          int64
		pe, high, low, dividend, yield  Money
		highDate, lowDate               time.Time
		coLine1, coLine2, coTown, coDiv *string
		coZip, coCtry, exLine1, exLine2 *string
		exTown, exDiv, exZip, exCtry    *string
		exOpen, exClose, exNumSymb      int
	)
	if err := tx.QueryRow(ctx, e.sql.SecurityDetailSecurity, in.Symbol).Scan(
		&res.SecName, &coID, &res.CoName, &spRate, &ceo, &desc, &openDate, &startDate, &exchDate,
		&numOut, &pe, &high, &highDate, &low, &lowDate, &dividend, &yield,
		&coLine1, &coLine2, &coTown, &coZip, &coDiv, &coCtry,
		&exName, &exDesc, &exOpen, &exClose, &exNumSymb,
		&exLine1, &exLine2, &exTown, &exZip, &exDiv, &exCtry); err != nil {
		return frameErr(SecurityDetail, 1, "security", err)
	}
	rows, err := tx.Query(ctx, e.sql.SecurityDetailCompetitors, coID, sdCompetitors)
	err = scanRows(rows, err, func(r database.Rows) error {
		var name, industry string
		res.Competitors++
		return r.Scan(&name, &industry)
	})
	if err != nil {
		return frameErr(SecurityDetail, 1, "competitors", err)
	}
	rows, err = tx.Query(ctx, e.sql.SecurityDetailFinancials, coID, sdFinancialRows)
	err = scanRows(rows, err, func(r database.Rows) error {
		var year, qtr int
		var start time.Time
		var rev, earn, beps, deps, margin, inv, assets, liab Money
		var outB, outD int64
		res.Financials++
		return r.Scan(&year, &qtr, &start, &rev, &earn, &beps, &deps, &margin, &inv, &assets, &liab, &outB, &outD)
	})
	if err != nil {
		return frameErr(SecurityDetail, 1, "financials", err)
	}
	rows, err = tx.Query(ctx, e.sql.SecurityDetailDays, in.Symbol, in.StartDay, in.MaxRows)
	err = scanRows(rows, err, func(r database.Rows) error {
		var d time.Time
		var cl, hi, lo Money
		var vol int64
		res.DayRows++
		return r.Scan(&d, &cl, &hi, &lo, &vol)
	})
	if err != nil {
		return frameErr(SecurityDetail, 1, "daily market", err)
	}
	var ltOpen Money
	var ltVol int64
	if err := tx.QueryRow(ctx, e.sql.SecurityDetailLastTrade, in.Symbol).Scan(&res.LastPrice, &ltOpen, &ltVol); err != nil {
		return frameErr(SecurityDetail, 1, "last trade", err)
	}
	q := e.sql.SecurityDetailNews
	if in.AccessLOB {
		q = e.sql.SecurityDetailNewsWithItem
	}
	rows, err = tx.Query(ctx, q, coID, sdNewsRows)
	err = scanRows(rows, err, func(r database.Rows) error {
		var item, headline, summary, source string
		var author *string
		var dts time.Time
		if err := r.Scan(&item, &dts, &source, &author, &headline, &summary); err != nil {
			return err
		}
		res.News++
		res.NewsBytes += len(item)
		return nil
	})
	if err != nil {
		return frameErr(SecurityDetail, 1, "news", err)
	}
	if res.Financials != sdFinancialRows || res.News != sdNewsRows || res.DayRows < 5 || res.DayRows > in.MaxRows {
		return checkf(SecurityDetail, 1, "%s: %d financial rows (want %d), %d news (want %d), %d day rows (want 5-%d)",
			in.Symbol, res.Financials, sdFinancialRows, res.News, sdNewsRows, res.DayRows, in.MaxRows)
	}
	return nil
}
