package txn

import (
	"fmt"
	"strings"
)

// PostgresSQL returns the PostgreSQL statements. Parameters are always bound ($n);
// pgx prepares and caches each text per connection. Statements keep to standard SQL
// where a standard form exists so the SQL Server set can mirror them; the ones marked
// "T-SQL:" need a different form there (LIMIT -> TOP / OFFSET FETCH, sequences,
// date arithmetic, FOR UPDATE -> UPDLOCK hints).
func PostgresSQL() *Statements {
	return &Statements{
		// Broker-Volume
		BrokerVolume: `SELECT b_name, SUM(tr_qty * tr_bid_price) AS volume
FROM trade_request, sector, industry, company, broker, security
WHERE tr_b_id = b_id AND tr_s_symb = s_symb AND s_co_id = co_id AND co_in_id = in_id
  AND sc_id = in_sc_id AND sc_name = $1 AND b_name IN (` + placeholders(2, MaxBrokerList) + `)
GROUP BY b_name
ORDER BY volume DESC`,

		// Customer-Position
		CustomerPositionByTaxID: `SELECT c_id FROM customer WHERE c_tax_id = $1`,
		CustomerPositionCustomer: `SELECT c_st_id, c_l_name, c_f_name, c_m_name, c_gndr, c_tier, c_dob, c_ad_id,
  c_ctry_1, c_area_1, c_local_1, c_ext_1, c_ctry_2, c_area_2, c_local_2, c_ext_2,
  c_ctry_3, c_area_3, c_local_3, c_ext_3, c_email_1, c_email_2
FROM customer WHERE c_id = $1`,
		// LAST_TRADE joins inside the outer join: an account without holdings still
		// appears, with assets 0 (DBT-5's version drops it, tpce.md §6.2).
		// T-SQL: TOP (@p2).
		CustomerPositionAccounts: `SELECT ca_id, ca_bal, COALESCE(SUM(hs_qty * lt_price), 0) AS assets
FROM customer_account
LEFT JOIN (holding_summary JOIN last_trade ON lt_s_symb = hs_s_symb) ON hs_ca_id = ca_id
WHERE ca_c_id = $1
GROUP BY ca_id, ca_bal
ORDER BY assets ASC, ca_id
LIMIT $2`,
		// T-SQL: TOP in both the derived table and the outer query.
		CustomerPositionHistory: `SELECT t_id, t_s_symb, t_qty, st_name, th_dts
FROM (SELECT t_id AS id FROM trade WHERE t_ca_id = $1 ORDER BY t_dts DESC LIMIT $2) AS recent,
  trade, trade_history, status_type
WHERE t_id = recent.id AND th_t_id = t_id AND st_id = th_st_id
ORDER BY th_dts DESC, t_id
LIMIT $3`,

		// Market-Feed
		MarketFeedUpdateLastTrade: `UPDATE last_trade SET lt_price = $1, lt_vol = lt_vol + $2, lt_dts = $3 WHERE lt_s_symb = $4`,
		MarketFeedTriggered: `SELECT tr_t_id, tr_tt_id, tr_s_symb, tr_qty, tr_bid_price
FROM trade_request
WHERE tr_s_symb = $1
  AND ((tr_tt_id = $2 AND tr_bid_price >= $3) OR (tr_tt_id = $4 AND tr_bid_price <= $3) OR (tr_tt_id = $5 AND tr_bid_price >= $3))
ORDER BY tr_t_id`,
		MarketFeedSubmitTrade:   `UPDATE trade SET t_dts = $1, t_st_id = $2 WHERE t_id = $3`,
		MarketFeedDeleteRequest: `DELETE FROM trade_request WHERE tr_t_id = $1`,
		MarketFeedInsertHistory: `INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES ($1, $2, $3)`,

		// Market-Watch
		MarketWatchByWatchList: `SELECT s_num_out, lt_price, dm_close
FROM watch_list, watch_item, security, last_trade, daily_market
WHERE wl_c_id = $1 AND wi_wl_id = wl_id AND s_symb = wi_s_symb AND lt_s_symb = s_symb
  AND dm_s_symb = s_symb AND dm_date = $2`,
		MarketWatchByAccount: `SELECT s_num_out, lt_price, dm_close
FROM holding_summary, security, last_trade, daily_market
WHERE hs_ca_id = $1 AND s_symb = hs_s_symb AND lt_s_symb = s_symb
  AND dm_s_symb = s_symb AND dm_date = $2`,
		MarketWatchByIndustry: `SELECT s_num_out, lt_price, dm_close
FROM industry, company, security, last_trade, daily_market
WHERE in_name = $1 AND co_in_id = in_id AND co_id BETWEEN $2 AND $3 AND s_co_id = co_id
  AND lt_s_symb = s_symb AND dm_s_symb = s_symb AND dm_date = $4`,

		// Security-Detail
		SecurityDetailSecurity: `SELECT s_name, co_id, co_name, co_sp_rate, co_ceo, co_desc, co_open_date, s_start_date, s_exch_date,
  s_num_out, s_pe, s_52wk_high, s_52wk_high_date, s_52wk_low, s_52wk_low_date, s_dividend, s_yield,
  ca.ad_line1, ca.ad_line2, zca.zc_town, ca.ad_zc_code, zca.zc_div, ca.ad_ctry,
  ex_name, ex_desc, ex_open, ex_close, ex_num_symb,
  ea.ad_line1, ea.ad_line2, zea.zc_town, ea.ad_zc_code, zea.zc_div, ea.ad_ctry
FROM security, company, address ca, address ea, zip_code zca, zip_code zea, exchange
WHERE s_symb = $1 AND co_id = s_co_id AND ca.ad_id = co_ad_id AND ea.ad_id = ex_ad_id
  AND ex_id = s_ex_id AND zca.zc_code = ca.ad_zc_code AND zea.zc_code = ea.ad_zc_code`,
		// T-SQL: TOP (@p2).
		SecurityDetailCompetitors: `SELECT co_name, in_name
FROM company_competitor, company, industry
WHERE cp_co_id = $1 AND co_id = cp_comp_co_id AND in_id = cp_in_id
ORDER BY co_name
LIMIT $2`,
		SecurityDetailFinancials: `SELECT fi_year, fi_qtr, fi_qtr_start_date, fi_revenue, fi_net_earn, fi_basic_eps, fi_dilut_eps,
  fi_margin, fi_inventory, fi_assets, fi_liability, fi_out_basic, fi_out_dilut
FROM financial
WHERE fi_co_id = $1
ORDER BY fi_year, fi_qtr
LIMIT $2`,
		SecurityDetailDays: `SELECT dm_date, dm_close, dm_high, dm_low, dm_vol
FROM daily_market
WHERE dm_s_symb = $1 AND dm_date >= $2
ORDER BY dm_date
LIMIT $3`,
		SecurityDetailLastTrade: `SELECT lt_price, lt_open_price, lt_vol FROM last_trade WHERE lt_s_symb = $1`,
		SecurityDetailNewsWithItem: `SELECT ni_item, ni_dts, ni_source, ni_author, ni_headline, ni_summary
FROM news_xref, news_item
WHERE nx_co_id = $1 AND ni_id = nx_ni_id
ORDER BY ni_id
LIMIT $2`,
		SecurityDetailNews: `SELECT '' AS ni_item, ni_dts, ni_source, ni_author, ni_headline, ni_summary
FROM news_xref, news_item
WHERE nx_co_id = $1 AND ni_id = nx_ni_id
ORDER BY ni_id
LIMIT $2`,

		// Trade-Lookup (and the reads Trade-Update shares)
		TradeLookupTradeByID: `SELECT t_bid_price, t_exec_name, t_is_cash, tt_is_mrkt, t_trade_price
FROM trade, trade_type
WHERE t_id = $1 AND tt_id = t_tt_id`,
		TradeLookupSettlement: `SELECT se_amt, se_cash_due_date, se_cash_type FROM settlement WHERE se_t_id = $1`,
		TradeLookupCash:       `SELECT ct_amt, ct_dts, ct_name FROM cash_transaction WHERE ct_t_id = $1`,
		TradeLookupHistory: `SELECT th_dts, th_st_id FROM trade_history WHERE th_t_id = $1
ORDER BY th_dts
LIMIT 3`,
		TradeLookupTradesByAccount: `SELECT t_bid_price, t_exec_name, t_is_cash, t_id, t_trade_price, t_dts
FROM trade
WHERE t_ca_id = $1 AND t_dts >= $2 AND t_dts <= $3
ORDER BY t_dts
LIMIT $4`,
		TradeLookupTradesBySymbol: `SELECT t_ca_id, t_exec_name, t_is_cash, t_trade_price, t_qty, t_dts, t_id, t_tt_id
FROM trade
WHERE t_s_symb = $1 AND t_dts >= $2 AND t_dts <= $3
ORDER BY t_dts
LIMIT $4`,
		TradeLookupFirstTrade: `SELECT t_id FROM trade WHERE t_ca_id = $1 AND t_dts >= $2
ORDER BY t_dts
LIMIT 1`,
		TradeLookupHoldingHistory: `SELECT hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty
FROM holding_history
WHERE hh_h_t_id IN (SELECT hh_h_t_id FROM holding_history WHERE hh_t_id = $1)
ORDER BY hh_h_t_id, hh_t_id
LIMIT $2`,

		// Trade-Order
		TradeOrderAccount:  `SELECT ca_name, ca_b_id, ca_c_id, ca_tax_st FROM customer_account WHERE ca_id = $1`,
		TradeOrderCustomer: `SELECT c_f_name, c_l_name, c_tier, c_tax_id FROM customer WHERE c_id = $1`,
		TradeOrderBroker:   `SELECT b_name FROM broker WHERE b_id = $1`,
		TradeOrderPermission: `SELECT ap_acl FROM account_permission
WHERE ap_ca_id = $1 AND ap_f_name = $2 AND ap_l_name = $3 AND ap_tax_id = $4`,
		TradeOrderCompanyByName:     `SELECT co_id FROM company WHERE co_name = $1`,
		TradeOrderSecurityByCompany: `SELECT s_ex_id, s_name, s_symb FROM security WHERE s_co_id = $1 AND s_issue = $2`,
		TradeOrderSecurityBySymbol:  `SELECT s_co_id, s_ex_id, s_name FROM security WHERE s_symb = $1`,
		TradeOrderCompanyName:       `SELECT co_name FROM company WHERE co_id = $1`,
		TradeOrderLastPrice:         `SELECT lt_price FROM last_trade WHERE lt_s_symb = $1`,
		TradeOrderTradeType:         `SELECT tt_is_mrkt, tt_is_sell FROM trade_type WHERE tt_id = $1`,
		TradeOrderHoldingQty:        `SELECT hs_qty FROM holding_summary WHERE hs_ca_id = $1 AND hs_s_symb = $2`,
		TradeOrderHoldingsAsc: `SELECT h_qty, h_price FROM holding WHERE h_ca_id = $1 AND h_s_symb = $2
ORDER BY h_dts ASC, h_t_id ASC`,
		TradeOrderHoldingsDesc: `SELECT h_qty, h_price FROM holding WHERE h_ca_id = $1 AND h_s_symb = $2
ORDER BY h_dts DESC, h_t_id DESC`,
		TradeOrderTaxRate: `SELECT COALESCE(SUM(tx_rate), 0) FROM taxrate
WHERE tx_id IN (SELECT cx_tx_id FROM customer_taxrate WHERE cx_c_id = $1)`,
		// T-SQL: TOP 1, and @p4 written twice for the band.
		TradeOrderCommissionRate: `SELECT cr_rate FROM commission_rate
WHERE cr_c_tier = $1 AND cr_tt_id = $2 AND cr_ex_id = $3 AND cr_from_qty <= $4 AND cr_to_qty >= $4
LIMIT 1`,
		TradeOrderCharge:  `SELECT ch_chrg FROM charge WHERE ch_c_tier = $1 AND ch_tt_id = $2`,
		TradeOrderBalance: `SELECT ca_bal FROM customer_account WHERE ca_id = $1`,
		TradeOrderHoldingAssets: `SELECT COALESCE(SUM(hs_qty * lt_price), 0) FROM holding_summary, last_trade
WHERE hs_ca_id = $1 AND lt_s_symb = hs_s_symb`,
		// T-SQL: SELECT NEXT VALUE FOR seq_trade_id.
		TradeOrderNextTradeID: `SELECT nextval('seq_trade_id')`,
		TradeOrderInsertTrade: `INSERT INTO trade (t_id, t_dts, t_st_id, t_tt_id, t_is_cash, t_s_symb, t_qty, t_bid_price,
  t_ca_id, t_exec_name, t_trade_price, t_chrg, t_comm, t_tax, t_lifo)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL, $11, $12, 0, $13)`,
		TradeOrderInsertRequest: `INSERT INTO trade_request (tr_t_id, tr_tt_id, tr_s_symb, tr_qty, tr_bid_price, tr_b_id)
VALUES ($1, $2, $3, $4, $5, $6)`,
		TradeOrderInsertHistory: `INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES ($1, $2, $3)`,

		// Trade-Result. T-SQL: FOR UPDATE -> WITH (UPDLOCK, ROWLOCK).
		TradeResultTrade: `SELECT t_ca_id, t_tt_id, t_s_symb, t_qty, t_chrg, t_lifo, t_is_cash, t_st_id
FROM trade WHERE t_id = $1 FOR UPDATE`,
		TradeResultTradeType:      `SELECT tt_name, tt_is_sell, tt_is_mrkt FROM trade_type WHERE tt_id = $1`,
		TradeResultAccount:        `SELECT ca_b_id, ca_c_id, ca_tax_st FROM customer_account WHERE ca_id = $1 FOR UPDATE`,
		TradeResultHoldingSummary: `SELECT hs_qty FROM holding_summary WHERE hs_ca_id = $1 AND hs_s_symb = $2`,
		TradeResultInsertSummary:  `INSERT INTO holding_summary (hs_ca_id, hs_s_symb, hs_qty) VALUES ($1, $2, $3)`,
		TradeResultUpdateSummary:  `UPDATE holding_summary SET hs_qty = $1 WHERE hs_ca_id = $2 AND hs_s_symb = $3`,
		TradeResultDeleteSummary:  `DELETE FROM holding_summary WHERE hs_ca_id = $1 AND hs_s_symb = $2`,
		TradeResultLotsAsc: `SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = $1 AND h_s_symb = $2
ORDER BY h_dts ASC, h_t_id ASC FOR UPDATE`,
		TradeResultLotsDesc: `SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = $1 AND h_s_symb = $2
ORDER BY h_dts DESC, h_t_id DESC FOR UPDATE`,
		TradeResultInsertHoldingHistory: `INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES ($1, $2, $3, $4)`,
		TradeResultUpdateHolding:        `UPDATE holding SET h_qty = $1 WHERE h_t_id = $2`,
		TradeResultDeleteHolding:        `DELETE FROM holding WHERE h_t_id = $1`,
		TradeResultInsertHolding: `INSERT INTO holding (h_t_id, h_ca_id, h_s_symb, h_dts, h_price, h_qty)
VALUES ($1, $2, $3, $4, $5, $6)`,
		TradeResultTaxRate: `SELECT COALESCE(SUM(tx_rate), 0) FROM taxrate
WHERE tx_id IN (SELECT cx_tx_id FROM customer_taxrate WHERE cx_c_id = $1)`,
		TradeResultUpdateTax:    `UPDATE trade SET t_tax = $1 WHERE t_id = $2`,
		TradeResultSecurity:     `SELECT s_ex_id, s_name FROM security WHERE s_symb = $1`,
		TradeResultCustomerTier: `SELECT c_tier FROM customer WHERE c_id = $1`,
		TradeResultCommissionRate: `SELECT cr_rate FROM commission_rate
WHERE cr_c_tier = $1 AND cr_tt_id = $2 AND cr_ex_id = $3 AND cr_from_qty <= $4 AND cr_to_qty >= $4
LIMIT 1`,
		TradeResultCompleteTrade: `UPDATE trade SET t_comm = $1, t_dts = $2, t_st_id = $3, t_trade_price = $4 WHERE t_id = $5`,
		TradeResultInsertHistory: `INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES ($1, $2, $3)`,
		TradeResultUpdateBroker:  `UPDATE broker SET b_comm_total = b_comm_total + $1, b_num_trades = b_num_trades + 1 WHERE b_id = $2`,
		TradeResultInsertSettlement: `INSERT INTO settlement (se_t_id, se_cash_type, se_cash_due_date, se_amt)
VALUES ($1, $2, $3, $4)`,
		TradeResultUpdateBalance: `UPDATE customer_account SET ca_bal = ca_bal + $1 WHERE ca_id = $2`,
		TradeResultInsertCash:    `INSERT INTO cash_transaction (ct_t_id, ct_dts, ct_amt, ct_name) VALUES ($1, $2, $3, $4)`,
		TradeResultBalance:       `SELECT ca_bal FROM customer_account WHERE ca_id = $1`,

		// Trade-Status. T-SQL: TOP (@p2).
		TradeStatusTrades: `SELECT t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name
FROM trade, status_type, trade_type, security, exchange
WHERE t_ca_id = $1 AND st_id = t_st_id AND tt_id = t_tt_id AND s_symb = t_s_symb AND ex_id = s_ex_id
ORDER BY t_dts DESC
LIMIT $2`,
		TradeStatusNames: `SELECT c_l_name, c_f_name, b_name
FROM customer_account, customer, broker
WHERE ca_id = $1 AND c_id = ca_c_id AND b_id = ca_b_id`,

		// Trade-Update
		TradeUpdateExecName:    `SELECT t_exec_name FROM trade WHERE t_id = $1`,
		TradeUpdateSetExecName: `UPDATE trade SET t_exec_name = $1 WHERE t_id = $2`,
		TradeUpdateCashType:    `SELECT se_cash_type FROM settlement WHERE se_t_id = $1`,
		TradeUpdateSetCashType: `UPDATE settlement SET se_cash_type = $1 WHERE se_t_id = $2`,
		TradeUpdateTradesBySymbol: `SELECT t_ca_id, t_exec_name, t_is_cash, t_trade_price, t_qty, t_dts, t_id, t_tt_id, tt_name, s_name
FROM trade, trade_type, security
WHERE t_s_symb = $1 AND t_dts >= $2 AND t_dts <= $3 AND tt_id = t_tt_id AND s_symb = t_s_symb
ORDER BY t_dts
LIMIT $4`,
		TradeUpdateCashName:    `SELECT ct_name FROM cash_transaction WHERE ct_t_id = $1`,
		TradeUpdateSetCashName: `UPDATE cash_transaction SET ct_name = $1 WHERE ct_t_id = $2`,

		// Data-Maintenance. T-SQL: TOP 1; DATEADD for the date shifts; DAY() for EXTRACT.
		DMAccountPermissionACL: `SELECT ap_acl FROM account_permission WHERE ap_ca_id = $1
ORDER BY ap_acl DESC
LIMIT 1`,
		DMAccountPermissionSetACL: `UPDATE account_permission SET ap_acl = $1 WHERE ap_ca_id = $2 AND ap_acl = $3`,
		DMAddressOfCustomer:       `SELECT c_ad_id FROM customer WHERE c_id = $1`,
		DMAddressOfCompany:        `SELECT co_ad_id FROM company WHERE co_id = $1`,
		DMAddressLine2:            `SELECT ad_line2 FROM address WHERE ad_id = $1`,
		DMAddressSetLine2:         `UPDATE address SET ad_line2 = $1 WHERE ad_id = $2`,
		DMCompanySPRate:           `SELECT co_sp_rate FROM company WHERE co_id = $1`,
		DMCompanySetSPRate:        `UPDATE company SET co_sp_rate = $1 WHERE co_id = $2`,
		DMCustomerEmail:           `SELECT c_email_2 FROM customer WHERE c_id = $1`,
		DMCustomerSetEmail:        `UPDATE customer SET c_email_2 = $1 WHERE c_id = $2`,
		DMCustomerTaxRate: `SELECT cx_tx_id FROM customer_taxrate
WHERE cx_c_id = $1 AND (cx_tx_id LIKE 'US%' OR cx_tx_id LIKE 'CN%')`,
		DMCustomerSetTaxRate: `UPDATE customer_taxrate SET cx_tx_id = $1 WHERE cx_c_id = $2 AND cx_tx_id = $3`,
		DMDailyMarketVolume: `UPDATE daily_market SET dm_vol = dm_vol + $1
WHERE dm_s_symb = $2 AND EXTRACT(DAY FROM dm_date) = $3`,
		DMExchangeDescs:     `SELECT ex_id, ex_desc FROM exchange ORDER BY ex_id`,
		DMExchangeSetDesc:   `UPDATE exchange SET ex_desc = $1 WHERE ex_id = $2`,
		DMFinancialFirstDay: `SELECT CAST(EXTRACT(DAY FROM MIN(fi_qtr_start_date)) AS INTEGER) FROM financial WHERE fi_co_id = $1`,
		DMFinancialShift:    `UPDATE financial SET fi_qtr_start_date = fi_qtr_start_date + CAST($1 AS INTEGER) WHERE fi_co_id = $2`,
		DMNewsItemDate: `UPDATE news_item SET ni_dts = ni_dts + INTERVAL '1 day'
WHERE ni_id IN (SELECT nx_ni_id FROM news_xref WHERE nx_co_id = $1)`,
		DMSecurityExchDate: `UPDATE security SET s_exch_date = s_exch_date + 1 WHERE s_symb = $1`,
		DMTaxRateName:      `SELECT tx_name FROM taxrate WHERE tx_id = $1`,
		DMTaxRateSetName:   `UPDATE taxrate SET tx_name = $1 WHERE tx_id = $2`,
		DMWatchItems: `SELECT wi_wl_id, wi_s_symb FROM watch_list, watch_item
WHERE wl_c_id = $1 AND wi_wl_id = wl_id
ORDER BY wi_s_symb`,
		DMWatchNextSymbol: `SELECT MIN(s_symb) FROM security
WHERE s_symb > $1 AND s_symb NOT IN (SELECT wi_s_symb FROM watch_item WHERE wi_wl_id = $2)`,
		DMWatchSetSymbol: `UPDATE watch_item SET wi_s_symb = $1 WHERE wi_wl_id = $2 AND wi_s_symb = $3`,

		// Trade-Cleanup
		TradeCleanupRequests:       `SELECT tr_t_id FROM trade_request ORDER BY tr_t_id`,
		TradeCleanupInsertHistory:  `INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES ($1, $2, $3)`,
		TradeCleanupCancelTrade:    `UPDATE trade SET t_dts = $1, t_st_id = $2 WHERE t_id = $3`,
		TradeCleanupDeleteRequests: `DELETE FROM trade_request`,
		TradeCleanupSubmitted:      `SELECT t_id FROM trade WHERE t_id >= $1 AND t_st_id = $2 ORDER BY t_id`,

		Check: postgresCheckSQL(),
	}
}

// placeholders returns "$from, ..., $(from+n-1)".
func placeholders(from, n int) string {
	p := make([]string, n)
	for i := range p {
		p[i] = fmt.Sprintf("$%d", from+i)
	}
	return strings.Join(p, ", ")
}
