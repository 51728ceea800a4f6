package txn

import (
	"context"
	"encoding/json"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// Security-Detail (docs/workload.md §9.5): the full profile of one security: company, its two
// addresses, exchange, competitors, 20 quarters of financials, a run of daily market
// rows, the last trade and two news items (with the large item text 1 % of the time).
// Read-only, read committed.

// SecurityDetailInput: docs/workload.md §7.3.
type SecurityDetailInput struct {
	Symbol    string
	AccessLOB bool
	MaxRows   int
	StartDay  time.Time
}

// SecurityDetail draws Security-Detail's inputs.
func (g *Gen) SecurityDetail() SecurityDetailInput {
	in := SecurityDetailInput{
		Symbol:    schema.Symbol(g.r.Int64N(g.sc.Securities())),
		AccessLOB: g.r.Chance(1),
		MaxRows:   int(g.r.Between(5, 20)),
	}
	in.StartDay = schema.DailyMarketBase.AddDate(0, 0, int(g.r.Between(0, int64(schema.DailyMarketDays-in.MaxRows))))
	return in
}

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

// runSecurityDetail runs Security-Detail on the worker's next inputs (its catalogue row).
func (e *executor) runSecurityDetail(ctx context.Context) (Outcome, error) {
	o, _, err := e.securityDetail(ctx, e.gen.SecurityDetail())
	return o, err
}

func (e *executor) securityDetail(ctx context.Context, in SecurityDetailInput) (Outcome, SecurityDetailOutput, error) {
	out := Outcome{Kind: SecurityDetail}
	var res SecurityDetailOutput
	if e.server {
		err := e.sdServer(ctx, &out, in, &res)
		return out, res, err
	}
	err := e.inTx(ctx, &out, database.ReadOnlyCommitted, func(tx database.Tx) error {
		res = SecurityDetailOutput{}
		return e.sdSecurityDetails(ctx, tx, in, &res)
	})
	return out, res, err
}

// sdSecurityDetails is Security-Detail frame 1: it reads the security, its company and
// exchange, and their details.
func (e *executor) sdSecurityDetails(ctx context.Context, tx database.Tx, in SecurityDetailInput, res *SecurityDetailOutput) error {
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
	if err := tx.QueryRow(ctx, e.sql.of(securityDetailSecurity), in.Symbol).Scan(
		&res.SecName, &coID, &res.CoName, &spRate, &ceo, &desc, &openDate, &startDate, &exchDate,
		&numOut, &pe, &high, &highDate, &low, &lowDate, &dividend, &yield,
		&coLine1, &coLine2, &coTown, &coZip, &coDiv, &coCtry,
		&exName, &exDesc, &exOpen, &exClose, &exNumSymb,
		&exLine1, &exLine2, &exTown, &exZip, &exDiv, &exCtry); err != nil {
		return frameErr(SecurityDetail, 1, "security", err)
	}
	// The rest of the frame needs only coID and the inputs: one round trip where the
	// database can pipeline, five statements counted either way.
	var ltOpen Money
	var ltVol int64
	lastTrades := 0
	news := e.sql.of(securityDetailNews)
	if in.AccessLOB {
		news = e.sql.of(securityDetailNewsWithItem)
	}
	var (
		name, industry                                   string
		year, qtr                                        int
		start, day, dts                                  time.Time
		rev, earn, beps, deps, margin, inv, assets, liab Money
		outB, outD, vol                                  int64
		cl, hi, lo                                       Money
		item, headline, summary, source                  string
		author                                           *string
	)
	qs := []database.Queued{
		{SQL: e.sql.of(securityDetailCompetitors), Args: []any{coID, sdCompetitors}, Scan: func(r database.Rows) error {
			res.Competitors++
			return r.Scan(&name, &industry)
		}},
		{SQL: e.sql.of(securityDetailFinancials), Args: []any{coID, sdFinancialRows}, Scan: func(r database.Rows) error {
			res.Financials++
			return r.Scan(&year, &qtr, &start, &rev, &earn, &beps, &deps, &margin, &inv, &assets, &liab, &outB, &outD)
		}},
		{SQL: e.sql.of(securityDetailDays), Args: []any{in.Symbol, in.StartDay, in.MaxRows}, Scan: func(r database.Rows) error {
			res.DayRows++
			return r.Scan(&day, &cl, &hi, &lo, &vol)
		}},
		{SQL: e.sql.of(securityDetailLastTrade), Args: []any{in.Symbol}, Scan: func(r database.Rows) error {
			lastTrades++
			return r.Scan(&res.LastPrice, &ltOpen, &ltVol)
		}},
		{SQL: news, Args: []any{coID, sdNewsRows}, Scan: func(r database.Rows) error {
			if err := r.Scan(&item, &dts, &source, &author, &headline, &summary); err != nil {
				return err
			}
			res.News++
			res.NewsBytes += len(item)
			return nil
		}},
	}
	if err := database.Pipeline(ctx, tx, qs); err != nil {
		return frameErr(SecurityDetail, 1, "competitors, financials, daily market, last trade, news", err)
	}
	if lastTrades == 0 {
		return frameErr(SecurityDetail, 1, "last trade", database.ErrNoRows)
	}
	return sdCheck(in, res)
}

// sdCheck is frame 1's output check, in either frame mode.
func sdCheck(in SecurityDetailInput, res *SecurityDetailOutput) error {
	if res.Financials != sdFinancialRows || res.News != sdNewsRows || res.DayRows < 5 || res.DayRows > in.MaxRows {
		return checkf(SecurityDetail, 1, "%s: %d financial rows (want %d), %d news (want %d), %d day rows (want 5-%d)",
			in.Symbol, res.Financials, sdFinancialRows, res.News, sdNewsRows, res.DayRows, in.MaxRows)
	}
	return nil
}

// sdServerResult is the server routine's frame output: every row the client mode
// reads, of which the transaction's output keeps the names, counts and last price.
type sdServerResult struct {
	Security struct {
		SecName, CoName string
	}
	Competitors, Financials, Days []json.RawMessage
	LastTrade                     struct{ Price Money }
	News                          []struct{ Item string }
}

// sdServer runs frame 1 as one call of its server routine.
func (e *executor) sdServer(ctx context.Context, out *Outcome, in SecurityDetailInput, res *SecurityDetailOutput) error {
	var r sdServerResult
	if err := e.callRoutine(ctx, out, database.ReadOnlyCommitted, &r, in.Symbol, in.AccessLOB, in.MaxRows, in.StartDay); err != nil {
		return err
	}
	*res = SecurityDetailOutput{SecName: r.Security.SecName, CoName: r.Security.CoName, Competitors: len(r.Competitors),
		Financials: len(r.Financials), DayRows: len(r.Days), LastPrice: r.LastTrade.Price, News: len(r.News)}
	for _, n := range r.News {
		res.NewsBytes += len(n.Item)
	}
	return sdCheck(in, res)
}

// Security-Detail's statements, in the order its frames run them.
var (
	securityDetailSecurity = SecurityDetail.statement("SecurityDetailSecurity", `SELECT s_name, co_id, co_name, co_sp_rate, co_ceo, co_desc, co_open_date, s_start_date, s_exch_date,
  s_num_out, s_pe, s_52wk_high, s_52wk_high_date, s_52wk_low, s_52wk_low_date, s_dividend, s_yield,
  ca.ad_line1, ca.ad_line2, zca.zc_town, ca.ad_zc_code, zca.zc_div, ca.ad_ctry,
  ex_name, ex_desc, ex_open, ex_close, ex_num_symb,
  ea.ad_line1, ea.ad_line2, zea.zc_town, ea.ad_zc_code, zea.zc_div, ea.ad_ctry
FROM security, company, address ca, address ea, zip_code zca, zip_code zea, exchange
WHERE s_symb = $1 AND co_id = s_co_id AND ca.ad_id = co_ad_id AND ea.ad_id = ex_ad_id
  AND ex_id = s_ex_id AND zca.zc_code = ca.ad_zc_code AND zea.zc_code = ea.ad_zc_code`)
	securityDetailCompetitors = SecurityDetail.statement("SecurityDetailCompetitors", `SELECT co_name, in_name
FROM company_competitor, company, industry
WHERE cp_co_id = $1 AND co_id = cp_comp_co_id AND in_id = cp_in_id
ORDER BY co_name
LIMIT $2`,
		override{database.SQLServer, `SELECT TOP ($2) co_name, in_name
FROM company_competitor, company, industry
WHERE cp_co_id = $1 AND co_id = cp_comp_co_id AND in_id = cp_in_id
ORDER BY co_name`})
	securityDetailFinancials = SecurityDetail.statement("SecurityDetailFinancials", `SELECT fi_year, fi_qtr, fi_qtr_start_date, fi_revenue, fi_net_earn, fi_basic_eps, fi_dilut_eps,
  fi_margin, fi_inventory, fi_assets, fi_liability, fi_out_basic, fi_out_dilut
FROM financial
WHERE fi_co_id = $1
ORDER BY fi_year, fi_qtr
LIMIT $2`,
		override{database.SQLServer, `SELECT TOP ($2) fi_year, fi_qtr, fi_qtr_start_date, fi_revenue, fi_net_earn, fi_basic_eps, fi_dilut_eps,
  fi_margin, fi_inventory, fi_assets, fi_liability, fi_out_basic, fi_out_dilut
FROM financial
WHERE fi_co_id = $1
ORDER BY fi_year, fi_qtr`})
	securityDetailDays = SecurityDetail.statement("SecurityDetailDays", `SELECT dm_date, dm_close, dm_high, dm_low, dm_vol
FROM daily_market
WHERE dm_s_symb = $1 AND dm_date >= $2
ORDER BY dm_date
LIMIT $3`,
		override{database.SQLServer, `SELECT TOP ($3) dm_date, dm_close, dm_high, dm_low, dm_vol
FROM daily_market
WHERE dm_s_symb = $1 AND dm_date >= $2
ORDER BY dm_date`})
	securityDetailLastTrade    = SecurityDetail.statement("SecurityDetailLastTrade", `SELECT lt_price, lt_open_price, lt_vol FROM last_trade WHERE lt_s_symb = $1`)
	securityDetailNewsWithItem = SecurityDetail.statement("SecurityDetailNewsWithItem", `SELECT ni_item, ni_dts, ni_source, ni_author, ni_headline, ni_summary
FROM news_xref, news_item
WHERE nx_co_id = $1 AND ni_id = nx_ni_id
ORDER BY ni_id
LIMIT $2`,
		override{database.SQLServer, `SELECT TOP ($2) ni_item, ni_dts, ni_source, ni_author, ni_headline, ni_summary
FROM news_xref, news_item
WHERE nx_co_id = $1 AND ni_id = nx_ni_id
ORDER BY ni_id`})
	securityDetailNews = SecurityDetail.statement("SecurityDetailNews", `SELECT '' AS ni_item, ni_dts, ni_source, ni_author, ni_headline, ni_summary
FROM news_xref, news_item
WHERE nx_co_id = $1 AND ni_id = nx_ni_id
ORDER BY ni_id
LIMIT $2`,
		override{database.SQLServer, `SELECT TOP ($2) '' AS ni_item, ni_dts, ni_source, ni_author, ni_headline, ni_summary
FROM news_xref, news_item
WHERE nx_co_id = $1 AND ni_id = nx_ni_id
ORDER BY ni_id`})
)
