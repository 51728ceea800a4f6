package txn

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/brokerbench/brokerbench/database/sqlserver"
	"github.com/brokerbench/brokerbench/schema"
)

// SQLServerSQL returns the T-SQL statements: the same frames, effects and parameter
// order as PostgresSQL, so the executor binds identical arguments. go-mssqldb binds
// positional arguments as @p1..@pN (a number may appear more than once) and sends
// every statement through sp_executesql, so each text is compiled once per plan
// cache entry. Differences from the PostgreSQL text, each for a reason:
//
//   - LIMIT n -> TOP (n) (TOP 1 for constants), in derived tables too.
//   - nextval -> NEXT VALUE FOR seq_trade_id (a SEQUENCE, not IDENTITY, so the
//     id is known before the insert).
//   - FOR UPDATE -> WITH (UPDLOCK, ROWLOCK): update locks taken at read time, in the
//     same order as PostgreSQL's row locks.
//   - Date arithmetic -> DATEADD, EXTRACT(DAY ...) -> DAY(...); BIT compared with 1/0.
//   - A parameter that meets a column in a predicate or in arithmetic is written
//     "@pN:column" below and rendered as CAST(@pN AS <the column's T-SQL type>), the
//     type taken from the schema. The dialect sends strings (and Money, an exact
//     decimal string) as VARCHAR(MAX) so that parameter declarations, part of the
//     plan cache key, never vary with value lengths; the CAST gives the optimizer
//     the column's own type, so predicates stay index seeks, and converts the
//     parameter, never the indexed column. DATE and DATETIME2 parameters are cast
//     the same way, and so is every Money value, also where it is only stored, so
//     that no decimal ever rests on an implicit string conversion. Other stored
//     values (text, times, integers) are converted to the column's type by the
//     server in INSERT values and SET col = @pN.
//
// No MERGE: the upserts are read-then-insert/update, as on PostgreSQL.
func SQLServerSQL() *Statements {
	st := sqlserverStatements()
	expandCasts(reflect.ValueOf(st).Elem(), sqlserverColumnTypes())
	return st
}

func sqlserverStatements() *Statements {
	return &Statements{
		// Broker-Volume
		BrokerVolume: `SELECT b_name, SUM(tr_qty * tr_bid_price) AS volume
FROM trade_request, sector, industry, company, broker, security
WHERE tr_b_id = b_id AND tr_s_symb = s_symb AND s_co_id = co_id AND co_in_id = in_id
  AND sc_id = in_sc_id AND sc_name = @p1:sc_name AND b_name IN (` + msPlaceholders(2, MaxBrokerList, "b_name") + `)
GROUP BY b_name
ORDER BY volume DESC`,

		// Customer-Position
		CustomerPositionByTaxID: `SELECT c_id FROM customer WHERE c_tax_id = @p1:c_tax_id`,
		CustomerPositionCustomer: `SELECT c_st_id, c_l_name, c_f_name, c_m_name, c_gndr, c_tier, c_dob, c_ad_id,
  c_ctry_1, c_area_1, c_local_1, c_ext_1, c_ctry_2, c_area_2, c_local_2, c_ext_2,
  c_ctry_3, c_area_3, c_local_3, c_ext_3, c_email_1, c_email_2
FROM customer WHERE c_id = @p1`,
		CustomerPositionAccounts: `SELECT TOP (@p2) ca_id, ca_bal, COALESCE(SUM(hs_qty * lt_price), 0) AS assets
FROM customer_account
LEFT JOIN (holding_summary JOIN last_trade ON lt_s_symb = hs_s_symb) ON hs_ca_id = ca_id
WHERE ca_c_id = @p1
GROUP BY ca_id, ca_bal
ORDER BY assets ASC, ca_id`,
		CustomerPositionHistory: `SELECT TOP (@p3) t_id, t_s_symb, t_qty, st_name, th_dts
FROM (SELECT TOP (@p2) t_id AS id FROM trade WHERE t_ca_id = @p1 ORDER BY t_dts DESC) AS recent,
  trade, trade_history, status_type
WHERE t_id = recent.id AND th_t_id = t_id AND st_id = th_st_id
ORDER BY th_dts DESC, t_id`,

		// Market-Feed
		MarketFeedUpdateLastTrade: `UPDATE last_trade SET lt_price = @p1:lt_price, lt_vol = lt_vol + @p2, lt_dts = @p3 WHERE lt_s_symb = @p4:lt_s_symb`,
		MarketFeedTriggered: `SELECT tr_t_id, tr_tt_id, tr_s_symb, tr_qty, tr_bid_price
FROM trade_request
WHERE tr_s_symb = @p1:tr_s_symb
  AND ((tr_tt_id = @p2:tr_tt_id AND tr_bid_price >= @p3:tr_bid_price)
    OR (tr_tt_id = @p4:tr_tt_id AND tr_bid_price <= @p3:tr_bid_price)
    OR (tr_tt_id = @p5:tr_tt_id AND tr_bid_price >= @p3:tr_bid_price))
ORDER BY tr_t_id`,
		MarketFeedSubmitTrade:   `UPDATE trade SET t_dts = @p1, t_st_id = @p2 WHERE t_id = @p3`,
		MarketFeedDeleteRequest: `DELETE FROM trade_request WHERE tr_t_id = @p1`,
		MarketFeedInsertHistory: `INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (@p1, @p2, @p3)`,

		// Market-Watch
		MarketWatchByWatchList: `SELECT s_num_out, lt_price, dm_close
FROM watch_list, watch_item, security, last_trade, daily_market
WHERE wl_c_id = @p1 AND wi_wl_id = wl_id AND s_symb = wi_s_symb AND lt_s_symb = s_symb
  AND dm_s_symb = s_symb AND dm_date = @p2:dm_date`,
		MarketWatchByAccount: `SELECT s_num_out, lt_price, dm_close
FROM holding_summary, security, last_trade, daily_market
WHERE hs_ca_id = @p1 AND s_symb = hs_s_symb AND lt_s_symb = s_symb
  AND dm_s_symb = s_symb AND dm_date = @p2:dm_date`,
		MarketWatchByIndustry: `SELECT s_num_out, lt_price, dm_close
FROM industry, company, security, last_trade, daily_market
WHERE in_name = @p1:in_name AND co_in_id = in_id AND co_id BETWEEN @p2 AND @p3 AND s_co_id = co_id
  AND lt_s_symb = s_symb AND dm_s_symb = s_symb AND dm_date = @p4:dm_date`,

		// Security-Detail
		SecurityDetailSecurity: `SELECT s_name, co_id, co_name, co_sp_rate, co_ceo, co_desc, co_open_date, s_start_date, s_exch_date,
  s_num_out, s_pe, s_52wk_high, s_52wk_high_date, s_52wk_low, s_52wk_low_date, s_dividend, s_yield,
  ca.ad_line1, ca.ad_line2, zca.zc_town, ca.ad_zc_code, zca.zc_div, ca.ad_ctry,
  ex_name, ex_desc, ex_open, ex_close, ex_num_symb,
  ea.ad_line1, ea.ad_line2, zea.zc_town, ea.ad_zc_code, zea.zc_div, ea.ad_ctry
FROM security, company, address ca, address ea, zip_code zca, zip_code zea, exchange
WHERE s_symb = @p1:s_symb AND co_id = s_co_id AND ca.ad_id = co_ad_id AND ea.ad_id = ex_ad_id
  AND ex_id = s_ex_id AND zca.zc_code = ca.ad_zc_code AND zea.zc_code = ea.ad_zc_code`,
		SecurityDetailCompetitors: `SELECT TOP (@p2) co_name, in_name
FROM company_competitor, company, industry
WHERE cp_co_id = @p1 AND co_id = cp_comp_co_id AND in_id = cp_in_id
ORDER BY co_name`,
		SecurityDetailFinancials: `SELECT TOP (@p2) fi_year, fi_qtr, fi_qtr_start_date, fi_revenue, fi_net_earn, fi_basic_eps, fi_dilut_eps,
  fi_margin, fi_inventory, fi_assets, fi_liability, fi_out_basic, fi_out_dilut
FROM financial
WHERE fi_co_id = @p1
ORDER BY fi_year, fi_qtr`,
		SecurityDetailDays: `SELECT TOP (@p3) dm_date, dm_close, dm_high, dm_low, dm_vol
FROM daily_market
WHERE dm_s_symb = @p1:dm_s_symb AND dm_date >= @p2:dm_date
ORDER BY dm_date`,
		SecurityDetailLastTrade: `SELECT lt_price, lt_open_price, lt_vol FROM last_trade WHERE lt_s_symb = @p1:lt_s_symb`,
		SecurityDetailNewsWithItem: `SELECT TOP (@p2) ni_item, ni_dts, ni_source, ni_author, ni_headline, ni_summary
FROM news_xref, news_item
WHERE nx_co_id = @p1 AND ni_id = nx_ni_id
ORDER BY ni_id`,
		SecurityDetailNews: `SELECT TOP (@p2) '' AS ni_item, ni_dts, ni_source, ni_author, ni_headline, ni_summary
FROM news_xref, news_item
WHERE nx_co_id = @p1 AND ni_id = nx_ni_id
ORDER BY ni_id`,

		// Trade-Lookup (and the reads Trade-Update shares)
		TradeLookupTradeByID: `SELECT t_bid_price, t_exec_name, t_is_cash, tt_is_mrkt, t_trade_price
FROM trade, trade_type
WHERE t_id = @p1 AND tt_id = t_tt_id`,
		TradeLookupSettlement: `SELECT se_amt, se_cash_due_date, se_cash_type FROM settlement WHERE se_t_id = @p1`,
		TradeLookupCash:       `SELECT ct_amt, ct_dts, ct_name FROM cash_transaction WHERE ct_t_id = @p1`,
		TradeLookupHistory: `SELECT TOP 3 th_dts, th_st_id FROM trade_history WHERE th_t_id = @p1
ORDER BY th_dts`,
		TradeLookupTradesByAccount: `SELECT TOP (@p4) t_bid_price, t_exec_name, t_is_cash, t_id, t_trade_price, t_dts
FROM trade
WHERE t_ca_id = @p1 AND t_dts >= @p2:t_dts AND t_dts <= @p3:t_dts
ORDER BY t_dts`,
		TradeLookupTradesBySymbol: `SELECT TOP (@p4) t_ca_id, t_exec_name, t_is_cash, t_trade_price, t_qty, t_dts, t_id, t_tt_id
FROM trade
WHERE t_s_symb = @p1:t_s_symb AND t_dts >= @p2:t_dts AND t_dts <= @p3:t_dts
ORDER BY t_dts`,
		TradeLookupFirstTrade: `SELECT TOP 1 t_id FROM trade WHERE t_ca_id = @p1 AND t_dts >= @p2:t_dts
ORDER BY t_dts`,
		TradeLookupHoldingHistory: `SELECT TOP (@p2) hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty
FROM holding_history
WHERE hh_h_t_id IN (SELECT hh_h_t_id FROM holding_history WHERE hh_t_id = @p1)
ORDER BY hh_h_t_id, hh_t_id`,

		// Trade-Order
		TradeOrderAccount:  `SELECT ca_name, ca_b_id, ca_c_id, ca_tax_st FROM customer_account WHERE ca_id = @p1`,
		TradeOrderCustomer: `SELECT c_f_name, c_l_name, c_tier, c_tax_id FROM customer WHERE c_id = @p1`,
		TradeOrderBroker:   `SELECT b_name FROM broker WHERE b_id = @p1`,
		TradeOrderPermission: `SELECT ap_acl FROM account_permission
WHERE ap_ca_id = @p1 AND ap_f_name = @p2:ap_f_name AND ap_l_name = @p3:ap_l_name AND ap_tax_id = @p4:ap_tax_id`,
		TradeOrderCompanyByName:     `SELECT co_id FROM company WHERE co_name = @p1:co_name`,
		TradeOrderSecurityByCompany: `SELECT s_ex_id, s_name, s_symb FROM security WHERE s_co_id = @p1 AND s_issue = @p2:s_issue`,
		TradeOrderSecurityBySymbol:  `SELECT s_co_id, s_ex_id, s_name FROM security WHERE s_symb = @p1:s_symb`,
		TradeOrderCompanyName:       `SELECT co_name FROM company WHERE co_id = @p1`,
		TradeOrderLastPrice:         `SELECT lt_price FROM last_trade WHERE lt_s_symb = @p1:lt_s_symb`,
		TradeOrderTradeType:         `SELECT tt_is_mrkt, tt_is_sell FROM trade_type WHERE tt_id = @p1:tt_id`,
		TradeOrderHoldingQty:        `SELECT hs_qty FROM holding_summary WHERE hs_ca_id = @p1 AND hs_s_symb = @p2:hs_s_symb`,
		TradeOrderHoldingsAsc: `SELECT h_qty, h_price FROM holding WHERE h_ca_id = @p1 AND h_s_symb = @p2:h_s_symb
ORDER BY h_dts ASC, h_t_id ASC`,
		TradeOrderHoldingsDesc: `SELECT h_qty, h_price FROM holding WHERE h_ca_id = @p1 AND h_s_symb = @p2:h_s_symb
ORDER BY h_dts DESC, h_t_id DESC`,
		TradeOrderTaxRate: `SELECT COALESCE(SUM(tx_rate), 0) FROM taxrate
WHERE tx_id IN (SELECT cx_tx_id FROM customer_taxrate WHERE cx_c_id = @p1)`,
		TradeOrderCommissionRate: `SELECT TOP 1 cr_rate FROM commission_rate
WHERE cr_c_tier = @p1 AND cr_tt_id = @p2:cr_tt_id AND cr_ex_id = @p3:cr_ex_id AND cr_from_qty <= @p4 AND cr_to_qty >= @p4`,
		TradeOrderCharge:  `SELECT ch_chrg FROM charge WHERE ch_c_tier = @p1 AND ch_tt_id = @p2:ch_tt_id`,
		TradeOrderBalance: `SELECT ca_bal FROM customer_account WHERE ca_id = @p1`,
		TradeOrderHoldingAssets: `SELECT COALESCE(SUM(hs_qty * lt_price), 0) FROM holding_summary, last_trade
WHERE hs_ca_id = @p1 AND lt_s_symb = hs_s_symb`,
		TradeOrderNextTradeID: `SELECT NEXT VALUE FOR seq_trade_id`,
		TradeOrderInsertTrade: `INSERT INTO trade (t_id, t_dts, t_st_id, t_tt_id, t_is_cash, t_s_symb, t_qty, t_bid_price,
  t_ca_id, t_exec_name, t_trade_price, t_chrg, t_comm, t_tax, t_lifo)
VALUES (@p1, @p2, @p3, @p4, @p5, @p6, @p7, @p8:t_bid_price, @p9, @p10, NULL, @p11:t_chrg, @p12:t_comm, 0, @p13)`,
		TradeOrderInsertRequest: `INSERT INTO trade_request (tr_t_id, tr_tt_id, tr_s_symb, tr_qty, tr_bid_price, tr_b_id)
VALUES (@p1, @p2, @p3, @p4, @p5:tr_bid_price, @p6)`,
		TradeOrderInsertHistory: `INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (@p1, @p2, @p3)`,

		// Trade-Result
		TradeResultTrade: `SELECT t_ca_id, t_tt_id, t_s_symb, t_qty, t_chrg, t_lifo, t_is_cash, t_st_id
FROM trade WITH (UPDLOCK, ROWLOCK) WHERE t_id = @p1`,
		TradeResultTradeType:      `SELECT tt_name, tt_is_sell, tt_is_mrkt FROM trade_type WHERE tt_id = @p1:tt_id`,
		TradeResultAccount:        `SELECT ca_b_id, ca_c_id, ca_tax_st FROM customer_account WITH (UPDLOCK, ROWLOCK) WHERE ca_id = @p1`,
		TradeResultHoldingSummary: `SELECT hs_qty FROM holding_summary WHERE hs_ca_id = @p1 AND hs_s_symb = @p2:hs_s_symb`,
		TradeResultInsertSummary:  `INSERT INTO holding_summary (hs_ca_id, hs_s_symb, hs_qty) VALUES (@p1, @p2, @p3)`,
		TradeResultUpdateSummary:  `UPDATE holding_summary SET hs_qty = @p1 WHERE hs_ca_id = @p2 AND hs_s_symb = @p3:hs_s_symb`,
		TradeResultDeleteSummary:  `DELETE FROM holding_summary WHERE hs_ca_id = @p1 AND hs_s_symb = @p2:hs_s_symb`,
		TradeResultLotsAsc: `SELECT h_t_id, h_qty, h_price FROM holding WITH (UPDLOCK, ROWLOCK) WHERE h_ca_id = @p1 AND h_s_symb = @p2:h_s_symb
ORDER BY h_dts ASC, h_t_id ASC`,
		TradeResultLotsDesc: `SELECT h_t_id, h_qty, h_price FROM holding WITH (UPDLOCK, ROWLOCK) WHERE h_ca_id = @p1 AND h_s_symb = @p2:h_s_symb
ORDER BY h_dts DESC, h_t_id DESC`,
		TradeResultInsertHoldingHistory: `INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES (@p1, @p2, @p3, @p4)`,
		TradeResultUpdateHolding:        `UPDATE holding SET h_qty = @p1 WHERE h_t_id = @p2`,
		TradeResultDeleteHolding:        `DELETE FROM holding WHERE h_t_id = @p1`,
		TradeResultInsertHolding: `INSERT INTO holding (h_t_id, h_ca_id, h_s_symb, h_dts, h_price, h_qty)
VALUES (@p1, @p2, @p3, @p4, @p5:h_price, @p6)`,
		TradeResultTaxRate: `SELECT COALESCE(SUM(tx_rate), 0) FROM taxrate
WHERE tx_id IN (SELECT cx_tx_id FROM customer_taxrate WHERE cx_c_id = @p1)`,
		TradeResultUpdateTax:    `UPDATE trade SET t_tax = @p1:t_tax WHERE t_id = @p2`,
		TradeResultSecurity:     `SELECT s_ex_id, s_name FROM security WHERE s_symb = @p1:s_symb`,
		TradeResultCustomerTier: `SELECT c_tier FROM customer WHERE c_id = @p1`,
		TradeResultCommissionRate: `SELECT TOP 1 cr_rate FROM commission_rate
WHERE cr_c_tier = @p1 AND cr_tt_id = @p2:cr_tt_id AND cr_ex_id = @p3:cr_ex_id AND cr_from_qty <= @p4 AND cr_to_qty >= @p4`,
		TradeResultCompleteTrade: `UPDATE trade SET t_comm = @p1:t_comm, t_dts = @p2, t_st_id = @p3, t_trade_price = @p4:t_trade_price WHERE t_id = @p5`,
		TradeResultInsertHistory: `INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (@p1, @p2, @p3)`,
		TradeResultUpdateBroker:  `UPDATE broker SET b_comm_total = b_comm_total + @p1:b_comm_total, b_num_trades = b_num_trades + 1 WHERE b_id = @p2`,
		TradeResultInsertSettlement: `INSERT INTO settlement (se_t_id, se_cash_type, se_cash_due_date, se_amt)
VALUES (@p1, @p2, @p3, @p4:se_amt)`,
		TradeResultUpdateBalance: `UPDATE customer_account SET ca_bal = ca_bal + @p1:ca_bal WHERE ca_id = @p2`,
		TradeResultInsertCash:    `INSERT INTO cash_transaction (ct_t_id, ct_dts, ct_amt, ct_name) VALUES (@p1, @p2, @p3:ct_amt, @p4)`,
		TradeResultBalance:       `SELECT ca_bal FROM customer_account WHERE ca_id = @p1`,

		// Trade-Status
		TradeStatusTrades: `SELECT TOP (@p2) t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name
FROM trade, status_type, trade_type, security, exchange
WHERE t_ca_id = @p1 AND st_id = t_st_id AND tt_id = t_tt_id AND s_symb = t_s_symb AND ex_id = s_ex_id
ORDER BY t_dts DESC`,
		TradeStatusNames: `SELECT c_l_name, c_f_name, b_name
FROM customer_account, customer, broker
WHERE ca_id = @p1 AND c_id = ca_c_id AND b_id = ca_b_id`,

		// Trade-Update
		TradeUpdateExecName:    `SELECT t_exec_name FROM trade WHERE t_id = @p1`,
		TradeUpdateSetExecName: `UPDATE trade SET t_exec_name = @p1 WHERE t_id = @p2`,
		TradeUpdateCashType:    `SELECT se_cash_type FROM settlement WHERE se_t_id = @p1`,
		TradeUpdateSetCashType: `UPDATE settlement SET se_cash_type = @p1 WHERE se_t_id = @p2`,
		TradeUpdateTradesBySymbol: `SELECT TOP (@p4) t_ca_id, t_exec_name, t_is_cash, t_trade_price, t_qty, t_dts, t_id, t_tt_id, tt_name, s_name
FROM trade, trade_type, security
WHERE t_s_symb = @p1:t_s_symb AND t_dts >= @p2:t_dts AND t_dts <= @p3:t_dts
  AND tt_id = t_tt_id AND s_symb = t_s_symb
ORDER BY t_dts`,
		TradeUpdateCashName:    `SELECT ct_name FROM cash_transaction WHERE ct_t_id = @p1`,
		TradeUpdateSetCashName: `UPDATE cash_transaction SET ct_name = @p1 WHERE ct_t_id = @p2`,

		// Data-Maintenance
		DMAccountPermissionACL: `SELECT TOP 1 ap_acl FROM account_permission WHERE ap_ca_id = @p1
ORDER BY ap_acl DESC`,
		DMAccountPermissionSetACL: `UPDATE account_permission SET ap_acl = @p1 WHERE ap_ca_id = @p2 AND ap_acl = @p3:ap_acl`,
		DMAddressOfCustomer:       `SELECT c_ad_id FROM customer WHERE c_id = @p1`,
		DMAddressOfCompany:        `SELECT co_ad_id FROM company WHERE co_id = @p1`,
		DMAddressLine2:            `SELECT ad_line2 FROM address WHERE ad_id = @p1`,
		DMAddressSetLine2:         `UPDATE address SET ad_line2 = @p1 WHERE ad_id = @p2`,
		DMCompanySPRate:           `SELECT co_sp_rate FROM company WHERE co_id = @p1`,
		DMCompanySetSPRate:        `UPDATE company SET co_sp_rate = @p1 WHERE co_id = @p2`,
		DMCustomerEmail:           `SELECT c_email_2 FROM customer WHERE c_id = @p1`,
		DMCustomerSetEmail:        `UPDATE customer SET c_email_2 = @p1 WHERE c_id = @p2`,
		DMCustomerTaxRate: `SELECT cx_tx_id FROM customer_taxrate
WHERE cx_c_id = @p1 AND (cx_tx_id LIKE 'US%' OR cx_tx_id LIKE 'CN%')`,
		DMCustomerSetTaxRate: `UPDATE customer_taxrate SET cx_tx_id = @p1 WHERE cx_c_id = @p2 AND cx_tx_id = @p3:cx_tx_id`,
		DMDailyMarketVolume: `UPDATE daily_market SET dm_vol = dm_vol + @p1
WHERE dm_s_symb = @p2:dm_s_symb AND DAY(dm_date) = @p3`,
		DMExchangeDescs:     `SELECT ex_id, ex_desc FROM exchange ORDER BY ex_id`,
		DMExchangeSetDesc:   `UPDATE exchange SET ex_desc = @p1 WHERE ex_id = @p2:ex_id`,
		DMFinancialFirstDay: `SELECT DAY(MIN(fi_qtr_start_date)) FROM financial WHERE fi_co_id = @p1`,
		DMFinancialShift:    `UPDATE financial SET fi_qtr_start_date = DATEADD(day, CAST(@p1 AS INT), fi_qtr_start_date) WHERE fi_co_id = @p2`,
		DMNewsItemDate: `UPDATE news_item SET ni_dts = DATEADD(day, 1, ni_dts)
WHERE ni_id IN (SELECT nx_ni_id FROM news_xref WHERE nx_co_id = @p1)`,
		DMSecurityExchDate: `UPDATE security SET s_exch_date = DATEADD(day, 1, s_exch_date) WHERE s_symb = @p1:s_symb`,
		DMTaxRateName:      `SELECT tx_name FROM taxrate WHERE tx_id = @p1:tx_id`,
		DMTaxRateSetName:   `UPDATE taxrate SET tx_name = @p1 WHERE tx_id = @p2:tx_id`,
		DMWatchItems: `SELECT wi_wl_id, wi_s_symb FROM watch_list, watch_item
WHERE wl_c_id = @p1 AND wi_wl_id = wl_id
ORDER BY wi_s_symb`,
		DMWatchNextSymbol: `SELECT MIN(s_symb) FROM security
WHERE s_symb > @p1:s_symb AND s_symb NOT IN (SELECT wi_s_symb FROM watch_item WHERE wi_wl_id = @p2)`,
		DMWatchSetSymbol: `UPDATE watch_item SET wi_s_symb = @p1 WHERE wi_wl_id = @p2 AND wi_s_symb = @p3:wi_s_symb`,

		// Trade-Cleanup
		TradeCleanupRequests:       `SELECT tr_t_id FROM trade_request ORDER BY tr_t_id`,
		TradeCleanupInsertHistory:  `INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (@p1, @p2, @p3)`,
		TradeCleanupCancelTrade:    `UPDATE trade SET t_dts = @p1, t_st_id = @p2 WHERE t_id = @p3`,
		TradeCleanupDeleteRequests: `DELETE FROM trade_request`,
		TradeCleanupSubmitted:      `SELECT t_id FROM trade WHERE t_id >= @p1 AND t_st_id = @p2:t_st_id ORDER BY t_id`,

		Check: sqlserverCheckSQL(),
	}
}

// sqlserverCheckSQL is `brokerbench check` in T-SQL: the PostgreSQL checks with TOP
// for LIMIT, BIT compared with 1/0, and COUNT_BIG for the row counts.
func sqlserverCheckSQL() CheckSQL {
	top := fmt.Sprintf("SELECT TOP %d ", maxPerCheck+1)
	var counts []string
	for _, t := range countedTables {
		counts = append(counts, fmt.Sprintf("SELECT '%s', COUNT_BIG(*) FROM %s", t, t))
	}
	return CheckSQL{
		BrokerTotals: top + `b_id, b_num_trades, b_comm_total, COALESCE(n, 0), COALESCE(comm, 0)
FROM broker LEFT JOIN (
  SELECT ca_b_id, COUNT_BIG(*) AS n, SUM(t_comm) AS comm
  FROM trade, customer_account
  WHERE t_st_id = 'CMPT' AND ca_id = t_ca_id
  GROUP BY ca_b_id) done ON done.ca_b_id = b_id
WHERE b_num_trades <> COALESCE(n, 0) OR b_comm_total <> COALESCE(comm, 0)
ORDER BY b_id`,
		HoldingSummaries: top + `hs_ca_id, hs_s_symb, hs_qty, COALESCE(lots, 0)
FROM holding_summary LEFT JOIN (
  SELECT h_ca_id, h_s_symb, SUM(h_qty) AS lots FROM holding GROUP BY h_ca_id, h_s_symb) h
  ON h.h_ca_id = hs_ca_id AND h.h_s_symb = hs_s_symb
WHERE hs_qty <> COALESCE(lots, 0)
ORDER BY hs_ca_id, hs_s_symb`,
		OrphanLots: top + `h_t_id, h_ca_id, h_s_symb FROM holding
WHERE NOT EXISTS (SELECT 1 FROM holding_summary WHERE hs_ca_id = h_ca_id AND hs_s_symb = h_s_symb)
ORDER BY h_t_id`,
		CompletedTrades: top + `t_id, COALESCE(se, 0), COALESCE(th, 0), t_is_cash, COALESCE(ct, 0)
FROM trade
  LEFT JOIN (SELECT se_t_id, COUNT_BIG(*) AS se FROM settlement GROUP BY se_t_id) s ON s.se_t_id = t_id
  LEFT JOIN (SELECT th_t_id, COUNT_BIG(*) AS th FROM trade_history WHERE th_st_id = 'CMPT' GROUP BY th_t_id) h ON h.th_t_id = t_id
  LEFT JOIN (SELECT ct_t_id, COUNT_BIG(*) AS ct FROM cash_transaction GROUP BY ct_t_id) c ON c.ct_t_id = t_id
WHERE t_st_id = 'CMPT'
  AND (COALESCE(se, 0) <> 1 OR COALESCE(th, 0) <> 1 OR (t_is_cash = 1 AND COALESCE(ct, 0) <> 1) OR (t_is_cash = 0 AND COALESCE(ct, 0) <> 0))
ORDER BY t_id`,
		Balances: top + `a.ca_id, a.ca_bal, o.bal + COALESCE(cash, 0)
FROM customer_account a
  LEFT JOIN bb_opening_balance o ON o.ca_id = a.ca_id
  LEFT JOIN (SELECT t_ca_id, SUM(ct_amt) AS cash FROM cash_transaction, trade WHERE t_id = ct_t_id GROUP BY t_ca_id) c
    ON c.t_ca_id = a.ca_id
WHERE o.ca_id IS NULL OR a.ca_bal <> o.bal + COALESCE(cash, 0)
ORDER BY a.ca_id`,
		RunTimeTrades: top + `t_id, t_st_id FROM trade
WHERE t_id >= @p1 AND t_st_id NOT IN ('CMPT', 'SBMT', 'CNCL')
  AND NOT (t_st_id = 'PNDG' AND EXISTS (SELECT 1 FROM trade_request WHERE tr_t_id = t_id))
ORDER BY t_id`,
		LoadedTrades: top + `t_id, t_st_id FROM trade WHERE t_id < @p1 AND t_st_id <> 'CMPT'
ORDER BY t_id`,
		Requests: top + `tr_t_id, t_st_id FROM trade_request LEFT JOIN trade ON t_id = tr_t_id
WHERE t_st_id IS NULL OR t_st_id <> 'PNDG'
ORDER BY tr_t_id`,
		RowCounts:        strings.Join(counts, "\nUNION ALL "),
		LoadedTradeCount: `SELECT COUNT_BIG(*) FROM trade WHERE t_id <= @p1`,
	}
}

// msPlaceholders returns "@p<from>:col, ..., @p<from+n-1>:col".
func msPlaceholders(from, n int, col string) string {
	p := make([]string, n)
	for i := range p {
		p[i] = fmt.Sprintf("@p%d:%s", from+i, col)
	}
	return strings.Join(p, ", ")
}

// castMarker is "@pN:column" in the statement sources.
var castMarker = regexp.MustCompile(`@p([0-9]+):([a-z0-9_]+)`)

// sqlserverColumnTypes maps every column of the schema to its T-SQL type. Column
// names carry their table's prefix, so they are unique across the tables.
func sqlserverColumnTypes() map[string]string {
	out := map[string]string{}
	for _, t := range append(schema.Tables(), schema.MetaTables()...) {
		for _, c := range t.Columns {
			out[c.Name] = sqlserver.ColumnType(c.Type)
		}
	}
	return out
}

// expandCasts renders the markers of every statement. A marker naming no column is
// a bug in this file, caught by the tests that build the statements.
func expandCasts(v reflect.Value, types map[string]string) {
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(castMarker.ReplaceAllStringFunc(f.String(), func(m string) string {
				sub := castMarker.FindStringSubmatch(m)
				typ, ok := types[sub[2]]
				if !ok {
					panic(fmt.Sprintf("txn: SQL Server statement casts to unknown column %q", sub[2]))
				}
				return "CAST(@p" + sub[1] + " AS " + typ + ")"
			}))
		case reflect.Struct:
			expandCasts(f, types)
		}
	}
}
