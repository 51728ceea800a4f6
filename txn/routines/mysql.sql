-- brokerbench server frames for MariaDB (docs/workload.md §13, docs/mysql.md §7).
--
-- One stored procedure per transaction (Market-Feed: per ticker entry), called once
-- inside the transaction the client opens at the transaction's isolation level. Each
-- runs the statements of the client mode's MySQL frames (txn/<transaction>.go, the
-- MySQL text where it differs) in the same order, with the same row limits and the
-- same locking reads (Trade-Result's FOR UPDATE), takes the same inputs as parameters
-- (times included, so both modes write the same rows; a list as a JSON array, read
-- with JSON_TABLE: MariaDB has no array parameters) and returns the frames' outputs
-- as one result set: one JSON document, built with JSON_OBJECT and JSON_ARRAYAGG, the
-- client decodes into the client mode's output values (Trade-Status: rows, as
-- txn/routines/postgres.sql says). Written for MariaDB 10.6 and later (JSON_TABLE).
--
-- MariaDB specifics: text parameters and variables are declared ascii_bin, the
-- columns' collation, so that comparisons are case-sensitive as the client mode's Go
-- code is and a parameter compared with a column keeps its index (a utf8mb4 variable
-- would convert the column); a JSON value kept in a variable is text to the JSON
-- functions, so it is nested through JSON_EXTRACT(v, '$'), and a numeric variable
-- would go into JSON as a string, so it goes as "v + 0"; a BOOLEAN column is a
-- TINYINT, so it goes into JSON as "col <> 0"; a cursor's rows are read whole when it
-- opens (MariaDB materialises them), so Trade-Result's lots are all locked before any
-- is moved, as in the client mode. Everything is a procedure (no functions), so one
-- DROP PROCEDURE removes each.
--
-- SQLSTATEs the client classifies (never the message): BBR01 is the transaction's
-- intended rollback; BBC0n a failed output check of frame n, signalled before the
-- commit as the client mode fails it, with the client mode's message. Money crosses
-- as DECIMAL and is computed in cents with the client's float64 rounding (DOUBLE,
-- half away from zero), so tax and commission come out to the same cent.
--
-- Statements are separated by a line "-- batch"; txn.InstallRoutines sends them one
-- by one, then records the version in bb_routines. (Each CREATE commits on MariaDB,
-- so the install holds a named lock instead of one transaction: LockInstall.)

CREATE TABLE IF NOT EXISTS bb_routines (
  version INT NOT NULL,
  source_sha256 VARCHAR(64) NOT NULL,
  installed_at DATETIME(6) NOT NULL
) ENGINE=InnoDB;
-- batch
-- bb_check signals a failed output check of frame p_frame (SQLSTATE BBC0n).
CREATE OR REPLACE PROCEDURE bb_check(IN p_frame INT, IN p_msg VARCHAR(512))
BEGIN
  CASE p_frame
  WHEN 1 THEN SIGNAL SQLSTATE 'BBC01' SET MESSAGE_TEXT = p_msg;
  WHEN 2 THEN SIGNAL SQLSTATE 'BBC02' SET MESSAGE_TEXT = p_msg;
  WHEN 3 THEN SIGNAL SQLSTATE 'BBC03' SET MESSAGE_TEXT = p_msg;
  WHEN 4 THEN SIGNAL SQLSTATE 'BBC04' SET MESSAGE_TEXT = p_msg;
  WHEN 5 THEN SIGNAL SQLSTATE 'BBC05' SET MESSAGE_TEXT = p_msg;
  ELSE SIGNAL SQLSTATE 'BBC06' SET MESSAGE_TEXT = p_msg;
  END CASE;
END;
-- batch
-- Broker-Volume frame 1 (txn/broker_volume.go).
CREATE OR REPLACE PROCEDURE bb_broker_volume(IN p_sector VARCHAR(30) CHARSET ascii COLLATE ascii_bin, IN p_brokers LONGTEXT)
BEGIN
  SELECT COALESCE(JSON_ARRAYAGG(JSON_OBJECT('Broker', b_name, 'Volume', volume) ORDER BY volume DESC), '[]')
  FROM (SELECT b_name, SUM(tr_qty * tr_bid_price) AS volume
    FROM trade_request, sector, industry, company, broker, security
    WHERE tr_b_id = b_id AND tr_s_symb = s_symb AND s_co_id = co_id AND co_in_id = in_id
      AND sc_id = in_sc_id AND sc_name = p_sector
      AND b_name IN (SELECT n FROM JSON_TABLE(p_brokers, '$[*]' COLUMNS (n VARCHAR(49) CHARSET ascii COLLATE ascii_bin PATH '$')) j)
    GROUP BY b_name) v;
END;
-- batch
-- Customer-Position frames 1-3 (txn/customer_position.go).
CREATE OR REPLACE PROCEDURE bb_customer_position(IN p_cust_id BIGINT, IN p_tax_id VARCHAR(20) CHARSET ascii COLLATE ascii_bin,
  IN p_get_history BOOLEAN, IN p_acct_idx INT)
BEGIN
  DECLARE v_cust BIGINT DEFAULT p_cust_id;
  DECLARE v_n INT;
  DECLARE v_acct BIGINT;
  DECLARE v_accounts, v_ids LONGTEXT;
  DECLARE v_history LONGTEXT DEFAULT '[]';
  DECLARE v_nf BOOLEAN DEFAULT FALSE;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_nf = TRUE;
  IF p_tax_id <> '' THEN
    SELECT c_id INTO v_cust FROM customer WHERE c_tax_id = p_tax_id;
    IF v_nf THEN CALL bb_check(1, 'customer by tax id: no row'); END IF;
  END IF;
  SELECT c_id INTO v_cust FROM customer WHERE c_id = v_cust;
  IF v_nf THEN CALL bb_check(1, 'customer: no row'); END IF;
  SELECT JSON_ARRAYAGG(JSON_OBJECT('AcctID', ca_id, 'Cash', ca_bal, 'Assets', assets)), JSON_ARRAYAGG(ca_id), COUNT(*)
  INTO v_accounts, v_ids, v_n
  FROM (SELECT ca_id, ca_bal, COALESCE(SUM(hs_qty * lt_price), 0) AS assets
    FROM customer_account
    LEFT JOIN (holding_summary JOIN last_trade ON lt_s_symb = hs_s_symb) ON hs_ca_id = ca_id
    WHERE ca_c_id = v_cust
    GROUP BY ca_id, ca_bal
    ORDER BY assets ASC, ca_id
    LIMIT 10) a;
  IF v_n < 1 THEN CALL bb_check(1, '0 accounts, want 1-10'); END IF;
  IF p_get_history THEN
    SET v_acct = JSON_VALUE(v_ids, CONCAT('$[', LEAST(p_acct_idx, v_n - 1), ']'));
    SELECT COALESCE(JSON_ARRAYAGG(JSON_OBJECT('TradeID', t_id, 'Symbol', t_s_symb, 'Qty', t_qty, 'Status', st_name,
        'When', DATE_FORMAT(th_dts, '%Y-%m-%dT%H:%i:%s.%fZ'))), '[]')
    INTO v_history
    FROM (SELECT t_id, t_s_symb, t_qty, st_name, th_dts
      FROM (SELECT t_id AS id FROM trade WHERE t_ca_id = v_acct ORDER BY t_dts DESC LIMIT 10) AS recent,
        trade, trade_history, status_type
      WHERE t_id = recent.id AND th_t_id = t_id AND st_id = th_st_id
      ORDER BY th_dts DESC, t_id
      LIMIT 30) h;
  END IF;
  SELECT JSON_OBJECT('CustID', v_cust + 0, 'Accounts', JSON_EXTRACT(v_accounts, '$'), 'History', JSON_EXTRACT(v_history, '$'));
END;
-- batch
-- Market-Feed, one ticker entry (txn/market_feed.go): the client calls it once per
-- entry, each in its own repeatable-read transaction.
CREATE OR REPLACE PROCEDURE bb_market_feed(IN p_price DECIMAL(8,2), IN p_qty INT, IN p_now DATETIME(6),
  IN p_symbol VARCHAR(15) CHARSET ascii COLLATE ascii_bin, IN p_stop_loss VARCHAR(3) CHARSET ascii COLLATE ascii_bin,
  IN p_limit_sell VARCHAR(3) CHARSET ascii COLLATE ascii_bin, IN p_limit_buy VARCHAR(3) CHARSET ascii COLLATE ascii_bin,
  IN p_submitted VARCHAR(4) CHARSET ascii COLLATE ascii_bin)
BEGIN
  DECLARE v_n BIGINT;
  DECLARE v_msg VARCHAR(512);
  DECLARE v_out LONGTEXT;
  UPDATE last_trade SET lt_price = p_price, lt_vol = lt_vol + p_qty, lt_dts = p_now WHERE lt_s_symb = p_symbol;
  SET v_n = ROW_COUNT();
  IF v_n <> 1 THEN
    SET v_msg = CONCAT('update last trade changed ', v_n, ' rows, want 1');
    CALL bb_check(1, v_msg);
  END IF;
  SELECT COALESCE(JSON_ARRAYAGG(JSON_OBJECT('TradeID', tr_t_id, 'TradeType', tr_tt_id, 'Symbol', tr_s_symb, 'Qty', tr_qty,
      'Price', CAST(tr_bid_price * 100 AS SIGNED)) ORDER BY tr_t_id), '[]')
  INTO v_out
  FROM trade_request
  WHERE tr_s_symb = p_symbol
    AND ((tr_tt_id = p_stop_loss AND tr_bid_price >= p_price) OR (tr_tt_id = p_limit_sell AND tr_bid_price <= p_price)
      OR (tr_tt_id = p_limit_buy AND tr_bid_price >= p_price));
  FOR r IN (SELECT id FROM JSON_TABLE(v_out, '$[*]' COLUMNS (o FOR ORDINALITY, id BIGINT PATH '$.TradeID')) j ORDER BY o) DO
    UPDATE trade SET t_dts = p_now, t_st_id = p_submitted WHERE t_id = r.id;
    SET v_n = ROW_COUNT();
    IF v_n <> 1 THEN
      SET v_msg = CONCAT('submit trade changed ', v_n, ' rows, want 1');
      CALL bb_check(1, v_msg);
    END IF;
    DELETE FROM trade_request WHERE tr_t_id = r.id;
    SET v_n = ROW_COUNT();
    IF v_n <> 1 THEN
      SET v_msg = CONCAT('delete trade request changed ', v_n, ' rows, want 1');
      CALL bb_check(1, v_msg);
    END IF;
    INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (r.id, p_now, p_submitted);
  END FOR;
  SELECT v_out;
END;
-- batch
-- Market-Watch frame 1 (txn/market_watch.go): the client's float64 sums.
CREATE OR REPLACE PROCEDURE bb_market_watch(IN p_by INT, IN p_cust_id BIGINT, IN p_acct_id BIGINT,
  IN p_industry VARCHAR(50) CHARSET ascii COLLATE ascii_bin, IN p_start_co BIGINT, IN p_end_co BIGINT, IN p_start_day DATE)
BEGIN
  DECLARE v_symbols INT DEFAULT 0;
  DECLARE v_old, v_new DOUBLE DEFAULT 0;
  DECLARE v_pct DOUBLE DEFAULT 0;
  IF p_by = 1 THEN
    SELECT COUNT(*), COALESCE(SUM(CAST(s_num_out AS DOUBLE) * CAST(dm_close * 100 AS DOUBLE)), 0),
        COALESCE(SUM(CAST(s_num_out AS DOUBLE) * CAST(lt_price * 100 AS DOUBLE)), 0)
    INTO v_symbols, v_old, v_new
    FROM watch_list, watch_item, security, last_trade, daily_market
    WHERE wl_c_id = p_cust_id AND wi_wl_id = wl_id AND s_symb = wi_s_symb AND lt_s_symb = s_symb
      AND dm_s_symb = s_symb AND dm_date = p_start_day;
  ELSEIF p_by = 2 THEN
    SELECT COUNT(*), COALESCE(SUM(CAST(s_num_out AS DOUBLE) * CAST(dm_close * 100 AS DOUBLE)), 0),
        COALESCE(SUM(CAST(s_num_out AS DOUBLE) * CAST(lt_price * 100 AS DOUBLE)), 0)
    INTO v_symbols, v_old, v_new
    FROM holding_summary, security, last_trade, daily_market
    WHERE hs_ca_id = p_acct_id AND s_symb = hs_s_symb AND lt_s_symb = s_symb
      AND dm_s_symb = s_symb AND dm_date = p_start_day;
  ELSE
    SELECT COUNT(*), COALESCE(SUM(CAST(s_num_out AS DOUBLE) * CAST(dm_close * 100 AS DOUBLE)), 0),
        COALESCE(SUM(CAST(s_num_out AS DOUBLE) * CAST(lt_price * 100 AS DOUBLE)), 0)
    INTO v_symbols, v_old, v_new
    FROM industry, company, security, last_trade, daily_market
    WHERE in_name = p_industry AND co_in_id = in_id AND co_id BETWEEN p_start_co AND p_end_co AND s_co_id = co_id
      AND lt_s_symb = s_symb AND dm_s_symb = s_symb AND dm_date = p_start_day;
  END IF;
  IF v_old <> 0 THEN
    SET v_pct = 100 * (v_new / v_old - 1);
  END IF;
  SELECT JSON_OBJECT('Symbols', v_symbols + 0, 'PctChange', v_pct + 0);
END;
-- batch
-- Security-Detail frame 1 (txn/security_detail.go).
CREATE OR REPLACE PROCEDURE bb_security_detail(IN p_symbol VARCHAR(15) CHARSET ascii COLLATE ascii_bin, IN p_access_lob BOOLEAN,
  IN p_max_rows INT, IN p_start_day DATE)
BEGIN
  DECLARE v_sec, v_competitors, v_financials, v_days, v_last, v_news LONGTEXT;
  DECLARE v_co_id BIGINT;
  DECLARE v_nf BOOLEAN DEFAULT FALSE;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_nf = TRUE;
  SELECT JSON_OBJECT('SecName', s_name, 'CoName', co_name, 'SpRate', co_sp_rate, 'CEO', co_ceo, 'Desc', co_desc,
      'OpenDate', co_open_date, 'StartDate', s_start_date, 'ExchDate', s_exch_date, 'NumOut', s_num_out, 'PE', s_pe,
      'High', s_52wk_high, 'HighDate', s_52wk_high_date, 'Low', s_52wk_low, 'LowDate', s_52wk_low_date,
      'Dividend', s_dividend, 'Yield', s_yield,
      'CoAddress', JSON_ARRAY(ca.ad_line1, ca.ad_line2, zca.zc_town, ca.ad_zc_code, zca.zc_div, ca.ad_ctry),
      'ExName', ex_name, 'ExDesc', ex_desc, 'ExOpen', ex_open, 'ExClose', ex_close, 'ExNumSymb', ex_num_symb,
      'ExAddress', JSON_ARRAY(ea.ad_line1, ea.ad_line2, zea.zc_town, ea.ad_zc_code, zea.zc_div, ea.ad_ctry)),
    co_id
  INTO v_sec, v_co_id
  FROM security, company, address ca, address ea, zip_code zca, zip_code zea, exchange
  WHERE s_symb = p_symbol AND co_id = s_co_id AND ca.ad_id = co_ad_id AND ea.ad_id = ex_ad_id
    AND ex_id = s_ex_id AND zca.zc_code = ca.ad_zc_code AND zea.zc_code = ea.ad_zc_code;
  IF v_nf THEN CALL bb_check(1, 'security: no row'); END IF;
  SELECT COALESCE(JSON_ARRAYAGG(JSON_OBJECT('Name', co_name, 'Industry', in_name)), '[]') INTO v_competitors
  FROM (SELECT co_name, in_name FROM company_competitor, company, industry
    WHERE cp_co_id = v_co_id AND co_id = cp_comp_co_id AND in_id = cp_in_id
    ORDER BY co_name LIMIT 3) c;
  SELECT COALESCE(JSON_ARRAYAGG(JSON_ARRAY(fi_year, fi_qtr, fi_qtr_start_date, fi_revenue, fi_net_earn, fi_basic_eps, fi_dilut_eps,
      fi_margin, fi_inventory, fi_assets, fi_liability, fi_out_basic, fi_out_dilut)), '[]') INTO v_financials
  FROM (SELECT fi_year, fi_qtr, fi_qtr_start_date, fi_revenue, fi_net_earn, fi_basic_eps, fi_dilut_eps,
      fi_margin, fi_inventory, fi_assets, fi_liability, fi_out_basic, fi_out_dilut
    FROM financial WHERE fi_co_id = v_co_id ORDER BY fi_year, fi_qtr LIMIT 20) f;
  SELECT COALESCE(JSON_ARRAYAGG(JSON_ARRAY(dm_date, dm_close, dm_high, dm_low, dm_vol)), '[]') INTO v_days
  FROM (SELECT dm_date, dm_close, dm_high, dm_low, dm_vol FROM daily_market
    WHERE dm_s_symb = p_symbol AND dm_date >= p_start_day ORDER BY dm_date LIMIT p_max_rows) d;
  SELECT JSON_OBJECT('Price', lt_price, 'OpenPrice', lt_open_price, 'Vol', lt_vol) INTO v_last
  FROM last_trade WHERE lt_s_symb = p_symbol;
  IF v_nf THEN CALL bb_check(1, 'last trade: no row'); END IF;
  IF p_access_lob THEN
    SELECT COALESCE(JSON_ARRAYAGG(JSON_OBJECT('Item', ni_item, 'When', DATE_FORMAT(ni_dts, '%Y-%m-%dT%H:%i:%s.%fZ'),
        'Source', ni_source, 'Author', ni_author, 'Headline', ni_headline, 'Summary', ni_summary)), '[]') INTO v_news
    FROM (SELECT ni_item, ni_dts, ni_source, ni_author, ni_headline, ni_summary FROM news_xref, news_item
      WHERE nx_co_id = v_co_id AND ni_id = nx_ni_id ORDER BY ni_id LIMIT 2) n;
  ELSE
    SELECT COALESCE(JSON_ARRAYAGG(JSON_OBJECT('Item', '', 'When', DATE_FORMAT(ni_dts, '%Y-%m-%dT%H:%i:%s.%fZ'),
        'Source', ni_source, 'Author', ni_author, 'Headline', ni_headline, 'Summary', ni_summary)), '[]') INTO v_news
    FROM (SELECT ni_dts, ni_source, ni_author, ni_headline, ni_summary FROM news_xref, news_item
      WHERE nx_co_id = v_co_id AND ni_id = nx_ni_id ORDER BY ni_id LIMIT 2) n;
  END IF;
  SELECT JSON_OBJECT('Security', JSON_EXTRACT(v_sec, '$'), 'Competitors', JSON_EXTRACT(v_competitors, '$'),
    'Financials', JSON_EXTRACT(v_financials, '$'), 'Days', JSON_EXTRACT(v_days, '$'),
    'LastTrade', JSON_EXTRACT(v_last, '$'), 'News', JSON_EXTRACT(v_news, '$'));
END;
-- batch
-- The child rows of one trade, as txn.tradeChildrenAll reads them (Trade-Lookup and
-- Trade-Update frames 1-3), added to the trade's JSON object p_trade: settlement,
-- cash transaction for cash trades, up to three history rows by time; a missing row
-- or a history count outside 1-3 fails frame p_frame.
CREATE OR REPLACE PROCEDURE bb_trade_children(IN p_frame INT, INOUT p_trade LONGTEXT)
BEGIN
  DECLARE v_id BIGINT DEFAULT JSON_VALUE(p_trade, '$.TradeID');
  DECLARE v_kids, v_cash, v_hist LONGTEXT;
  DECLARE v_n INT;
  DECLARE v_msg VARCHAR(512);
  DECLARE v_nf BOOLEAN DEFAULT FALSE;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_nf = TRUE;
  SELECT JSON_OBJECT('Settlement', se_amt, 'DueDate', DATE_FORMAT(se_cash_due_date, '%Y-%m-%dT%H:%i:%s.%fZ'), 'CashType', se_cash_type)
  INTO v_kids
  FROM settlement WHERE se_t_id = v_id;
  IF v_nf THEN
    SET v_msg = CONCAT('settlement: trade ', v_id, ': no row');
    CALL bb_check(p_frame, v_msg);
  END IF;
  IF JSON_EXTRACT(p_trade, '$.IsCash') = 'true' THEN
    SELECT JSON_OBJECT('CashAmount', ct_amt, 'CashWhen', DATE_FORMAT(ct_dts, '%Y-%m-%dT%H:%i:%s.%fZ'), 'CashName', COALESCE(ct_name, ''),
        'HasCash', TRUE)
    INTO v_cash
    FROM cash_transaction WHERE ct_t_id = v_id;
    IF v_nf THEN
      SET v_msg = CONCAT('cash transaction: trade ', v_id, ': no row');
      CALL bb_check(p_frame, v_msg);
    END IF;
    SET v_kids = JSON_MERGE_PATCH(v_kids, v_cash);
  END IF;
  SELECT JSON_OBJECT('HistoryDTS', COALESCE(JSON_ARRAYAGG(DATE_FORMAT(th_dts, '%Y-%m-%dT%H:%i:%s.%fZ')), JSON_ARRAY()),
      'HistoryStat', COALESCE(JSON_ARRAYAGG(th_st_id), JSON_ARRAY())), COUNT(*)
  INTO v_hist, v_n
  FROM (SELECT th_dts, th_st_id FROM trade_history WHERE th_t_id = v_id ORDER BY th_dts LIMIT 3) h;
  IF v_n < 1 OR v_n > 3 THEN
    SET v_msg = CONCAT('trade ', v_id, ' has ', v_n, ' history rows, want 1-3');
    CALL bb_check(p_frame, v_msg);
  END IF;
  SET p_trade = JSON_MERGE_PATCH(p_trade, v_kids, v_hist);
END;
-- batch
-- The trades of a list by id (Trade-Lookup and Trade-Update frame 1): all are read
-- first, then their children; a missing trade fails frame 1.
CREATE OR REPLACE PROCEDURE bb_trades_by_id(IN p_ids LONGTEXT, OUT p_out LONGTEXT)
BEGIN
  DECLARE v_list LONGTEXT DEFAULT '[]';
  DECLARE v_t LONGTEXT;
  DECLARE v_i INT DEFAULT 0;
  DECLARE v_msg VARCHAR(512);
  DECLARE v_nf BOOLEAN DEFAULT FALSE;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_nf = TRUE;
  FOR r IN (SELECT id FROM JSON_TABLE(p_ids, '$[*]' COLUMNS (o FOR ORDINALITY, id BIGINT PATH '$')) j ORDER BY o) DO
    SELECT JSON_OBJECT('TradeID', t_id, 'BidPrice', t_bid_price, 'ExecName', t_exec_name, 'IsCash', t_is_cash <> 0,
        'IsMarket', tt_is_mrkt <> 0, 'TradePrice', COALESCE(t_trade_price, 0)) INTO v_t
    FROM trade, trade_type WHERE t_id = r.id AND tt_id = t_tt_id;
    IF v_nf THEN
      SET v_msg = CONCAT('trade: trade ', r.id, ': no row');
      CALL bb_check(1, v_msg);
    END IF;
    SET v_list = JSON_ARRAY_APPEND(v_list, '$', JSON_EXTRACT(v_t, '$'));
  END FOR;
  SET p_out = '[]';
  WHILE v_i < JSON_LENGTH(v_list) DO
    SET v_t = JSON_EXTRACT(v_list, CONCAT('$[', v_i, ']'));
    CALL bb_trade_children(1, v_t);
    SET p_out = JSON_ARRAY_APPEND(p_out, '$', JSON_EXTRACT(v_t, '$'));
    SET v_i = v_i + 1;
  END WHILE;
END;
-- batch
-- An account's trades in a window (frame 2) or a symbol's (frame 3), oldest first, at
-- most p_max, each with its children; p_names adds the type and security names
-- (Trade-Update frame 3).
CREATE OR REPLACE PROCEDURE bb_trade_list(IN p_frame INT, IN p_acct_id BIGINT, IN p_symbol VARCHAR(15) CHARSET ascii COLLATE ascii_bin,
  IN p_start DATETIME(6), IN p_end DATETIME(6), IN p_max INT, IN p_names BOOLEAN, OUT p_out LONGTEXT)
BEGIN
  DECLARE v_list LONGTEXT;
  DECLARE v_t LONGTEXT;
  DECLARE v_i INT DEFAULT 0;
  IF p_frame = 2 THEN
    SELECT JSON_ARRAYAGG(JSON_OBJECT('AcctID', p_acct_id + 0, 'BidPrice', t_bid_price, 'ExecName', t_exec_name, 'IsCash', t_is_cash <> 0,
        'TradeID', t_id, 'TradePrice', COALESCE(t_trade_price, 0), 'When', DATE_FORMAT(t_dts, '%Y-%m-%dT%H:%i:%s.%fZ'))) INTO v_list
    FROM (SELECT t_bid_price, t_exec_name, t_is_cash, t_id, t_trade_price, t_dts FROM trade
      WHERE t_ca_id = p_acct_id AND t_dts >= p_start AND t_dts <= p_end ORDER BY t_dts LIMIT p_max) t;
  ELSEIF p_names THEN
    SELECT JSON_ARRAYAGG(JSON_OBJECT('Symbol', p_symbol, 'AcctID', t_ca_id, 'ExecName', t_exec_name, 'IsCash', t_is_cash <> 0,
        'TradePrice', COALESCE(t_trade_price, 0), 'Qty', t_qty, 'When', DATE_FORMAT(t_dts, '%Y-%m-%dT%H:%i:%s.%fZ'), 'TradeID', t_id,
        'TypeID', t_tt_id, 'TypeName', tt_name, 'SecName', s_name)) INTO v_list
    FROM (SELECT t_ca_id, t_exec_name, t_is_cash, t_trade_price, t_qty, t_dts, t_id, t_tt_id, tt_name, s_name
      FROM trade, trade_type, security
      WHERE t_s_symb = p_symbol AND t_dts >= p_start AND t_dts <= p_end AND tt_id = t_tt_id AND s_symb = t_s_symb
      ORDER BY t_dts LIMIT p_max) t;
  ELSE
    SELECT JSON_ARRAYAGG(JSON_OBJECT('Symbol', p_symbol, 'AcctID', t_ca_id, 'ExecName', t_exec_name, 'IsCash', t_is_cash <> 0,
        'TradePrice', COALESCE(t_trade_price, 0), 'Qty', t_qty, 'When', DATE_FORMAT(t_dts, '%Y-%m-%dT%H:%i:%s.%fZ'), 'TradeID', t_id,
        'TypeID', t_tt_id)) INTO v_list
    FROM (SELECT t_ca_id, t_exec_name, t_is_cash, t_trade_price, t_qty, t_dts, t_id, t_tt_id FROM trade
      WHERE t_s_symb = p_symbol AND t_dts >= p_start AND t_dts <= p_end ORDER BY t_dts LIMIT p_max) t;
  END IF;
  SET p_out = '[]';
  WHILE v_i < COALESCE(JSON_LENGTH(v_list), 0) DO
    SET v_t = JSON_EXTRACT(v_list, CONCAT('$[', v_i, ']'));
    CALL bb_trade_children(p_frame, v_t);
    SET p_out = JSON_ARRAY_APPEND(p_out, '$', JSON_EXTRACT(v_t, '$'));
    SET v_i = v_i + 1;
  END WHILE;
END;
-- batch
-- Trade-Lookup frames 1-4 (txn/trade_lookup.go).
CREATE OR REPLACE PROCEDURE bb_trade_lookup(IN p_frame INT, IN p_ids LONGTEXT, IN p_acct_id BIGINT,
  IN p_symbol VARCHAR(15) CHARSET ascii COLLATE ascii_bin, IN p_start DATETIME(6), IN p_end DATETIME(6), IN p_max INT)
BEGIN
  DECLARE v_trades LONGTEXT DEFAULT '[]';
  DECLARE v_hh LONGTEXT DEFAULT '[]';
  DECLARE v_id BIGINT;
  DECLARE v_nf BOOLEAN DEFAULT FALSE;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_nf = TRUE;
  IF p_frame = 1 THEN
    CALL bb_trades_by_id(p_ids, v_trades);
  ELSEIF p_frame IN (2, 3) THEN
    CALL bb_trade_list(p_frame, p_acct_id, p_symbol, p_start, p_end, p_max, FALSE, v_trades);
  ELSE
    SELECT t_id INTO v_id FROM trade WHERE t_ca_id = p_acct_id AND t_dts >= p_start ORDER BY t_dts LIMIT 1;
    IF NOT v_nf THEN
      SET v_trades = JSON_ARRAY(JSON_OBJECT('TradeID', v_id + 0, 'AcctID', p_acct_id + 0));
      SELECT COALESCE(JSON_ARRAYAGG(JSON_OBJECT('HoldingTradeID', hh_h_t_id, 'TradeID', hh_t_id, 'Before', hh_before_qty,
          'After', hh_after_qty)), '[]') INTO v_hh
      FROM (SELECT hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty FROM holding_history
        WHERE hh_h_t_id IN (SELECT hh_h_t_id FROM holding_history WHERE hh_t_id = v_id)
        ORDER BY hh_h_t_id, hh_t_id LIMIT p_max) h;
    END IF;
  END IF;
  SELECT JSON_OBJECT('Frame', p_frame + 0, 'Trades', JSON_EXTRACT(v_trades, '$'), 'HoldingHistory', JSON_EXTRACT(v_hh, '$'));
END;
-- batch
-- Trade-Order frames 1-6 (txn/trade_order.go). Frame 5's rollbacks (an unauthorized
-- executor, the 1-in-101 input) signal BBR01 after the statements the client mode
-- sends before its ROLLBACK.
CREATE OR REPLACE PROCEDURE bb_trade_order(IN p_acct_id BIGINT, IN p_exec_first VARCHAR(20) CHARSET ascii COLLATE ascii_bin,
  IN p_exec_last VARCHAR(25) CHARSET ascii COLLATE ascii_bin, IN p_exec_tax_id VARCHAR(20) CHARSET ascii COLLATE ascii_bin,
  IN p_by_company BOOLEAN, IN p_symbol VARCHAR(15) CHARSET ascii COLLATE ascii_bin, IN p_co_name VARCHAR(60) CHARSET ascii COLLATE ascii_bin,
  IN p_issue VARCHAR(6) CHARSET ascii COLLATE ascii_bin, IN p_trade_type VARCHAR(3) CHARSET ascii COLLATE ascii_bin,
  IN p_is_margin BOOLEAN, IN p_lifo BOOLEAN, IN p_qty INT, IN p_requested DECIMAL(8,2), IN p_rollback BOOLEAN,
  IN p_now DATETIME(6), IN p_exec_name VARCHAR(64) CHARSET ascii COLLATE ascii_bin,
  IN p_submitted VARCHAR(4) CHARSET ascii COLLATE ascii_bin, IN p_pending VARCHAR(4) CHARSET ascii COLLATE ascii_bin)
BEGIN
  DECLARE v_acct_name VARCHAR(50) CHARSET ascii COLLATE ascii_bin;
  DECLARE v_first, v_last, v_cust_tax, v_broker_name, v_sec_name, v_co_name VARCHAR(100) CHARSET ascii COLLATE ascii_bin;
  DECLARE v_acl, v_status VARCHAR(4) CHARSET ascii COLLATE ascii_bin;
  DECLARE v_ex VARCHAR(6) CHARSET ascii COLLATE ascii_bin;
  DECLARE v_symbol VARCHAR(15) CHARSET ascii COLLATE ascii_bin;
  DECLARE v_broker, v_cust, v_co, v_trade_id BIGINT;
  DECLARE v_tax_st, v_tier, v_hs, v_needed, v_n, v_h_qty INT;
  DECLARE v_market, v_bal, v_h_price DECIMAL(12,2);
  DECLARE v_comm_rate DECIMAL(5,2);
  DECLARE v_charge DECIMAL(10,2);
  DECLARE v_held DECIMAL(38,2);
  DECLARE v_rate DECIMAL(20,5);
  DECLARE v_is_market, v_is_sell BOOLEAN;
  DECLARE v_found_price, v_found_type, v_found_hs, v_found_comm, v_found_charge BOOLEAN;
  DECLARE v_price, v_cents, v_tax, v_comm BIGINT;
  DECLARE v_buy, v_sell BIGINT DEFAULT 0;
  DECLARE v_x DOUBLE;
  DECLARE v_msg VARCHAR(512);
  DECLARE v_nf, v_done BOOLEAN DEFAULT FALSE;
  DECLARE c_fifo CURSOR FOR SELECT h_qty, h_price FROM holding WHERE h_ca_id = p_acct_id AND h_s_symb = v_symbol
    ORDER BY h_dts ASC, h_t_id ASC;
  DECLARE c_lifo CURSOR FOR SELECT h_qty, h_price FROM holding WHERE h_ca_id = p_acct_id AND h_s_symb = v_symbol
    ORDER BY h_dts DESC, h_t_id DESC;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_nf = TRUE;
  SET v_tax = 0;
  -- frame 1
  SELECT ca_name, ca_b_id, ca_c_id, ca_tax_st INTO v_acct_name, v_broker, v_cust, v_tax_st FROM customer_account WHERE ca_id = p_acct_id;
  IF v_nf THEN CALL bb_check(1, 'account: no row'); END IF;
  SELECT c_f_name, c_l_name, c_tier, c_tax_id INTO v_first, v_last, v_tier, v_cust_tax FROM customer WHERE c_id = v_cust;
  IF v_nf THEN CALL bb_check(1, 'customer: no row'); END IF;
  SELECT b_name INTO v_broker_name FROM broker WHERE b_id = v_broker;
  IF v_nf THEN CALL bb_check(1, 'broker: no row'); END IF;
  -- frame 2
  IF p_exec_tax_id <> v_cust_tax OR p_exec_first <> v_first OR p_exec_last <> v_last THEN
    SELECT ap_acl INTO v_acl FROM account_permission
    WHERE ap_ca_id = p_acct_id AND ap_f_name = p_exec_first AND ap_l_name = p_exec_last AND ap_tax_id = p_exec_tax_id;
    IF v_nf THEN
      SIGNAL SQLSTATE 'BBR01' SET MESSAGE_TEXT = 'Trade-Order frame 5: unauthorized executor';
    END IF;
  END IF;
  -- frame 3
  IF p_by_company THEN
    SELECT co_id INTO v_co FROM company WHERE co_name = p_co_name;
    IF v_nf THEN CALL bb_check(3, 'company by name: no row'); END IF;
    SELECT s_ex_id, s_name, s_symb INTO v_ex, v_sec_name, v_symbol FROM security WHERE s_co_id = v_co AND s_issue = p_issue;
    IF v_nf THEN CALL bb_check(3, 'security by company: no row'); END IF;
  ELSE
    SET v_symbol = p_symbol;
    SELECT s_co_id, s_ex_id, s_name INTO v_co, v_ex, v_sec_name FROM security WHERE s_symb = p_symbol;
    IF v_nf THEN CALL bb_check(3, 'security: no row'); END IF;
    SELECT co_name INTO v_co_name FROM company WHERE co_id = v_co;
    IF v_nf THEN CALL bb_check(3, 'company: no row'); END IF;
  END IF;
  SELECT lt_price INTO v_market FROM last_trade WHERE lt_s_symb = v_symbol;
  SET v_found_price = NOT v_nf, v_nf = FALSE;
  SELECT tt_is_mrkt, tt_is_sell INTO v_is_market, v_is_sell FROM trade_type WHERE tt_id = p_trade_type;
  SET v_found_type = NOT v_nf, v_nf = FALSE;
  SELECT hs_qty INTO v_hs FROM holding_summary WHERE hs_ca_id = p_acct_id AND hs_s_symb = v_symbol;
  SET v_found_hs = NOT v_nf, v_nf = FALSE;
  SELECT cr_rate INTO v_comm_rate FROM commission_rate
  WHERE cr_c_tier = v_tier AND cr_tt_id = p_trade_type AND cr_ex_id = v_ex AND p_qty BETWEEN cr_from_qty AND cr_to_qty
  LIMIT 1;
  SET v_found_comm = NOT v_nf, v_nf = FALSE;
  SELECT ch_chrg INTO v_charge FROM charge WHERE ch_c_tier = v_tier AND ch_tt_id = p_trade_type;
  SET v_found_charge = NOT v_nf, v_nf = FALSE;
  IF p_is_margin THEN
    SELECT ca_bal INTO v_bal FROM customer_account WHERE ca_id = p_acct_id;
    IF v_nf THEN SET v_bal = NULL, v_nf = FALSE; END IF;
    SELECT COALESCE(SUM(hs_qty * lt_price), 0) INTO v_held FROM holding_summary, last_trade
    WHERE hs_ca_id = p_acct_id AND lt_s_symb = hs_s_symb;
  END IF;
  SET v_trade_id = NEXT VALUE FOR seq_trade_id;
  IF NOT v_found_price THEN CALL bb_check(3, 'last trade: no row'); END IF;
  IF NOT v_found_type THEN CALL bb_check(3, 'trade type: no row'); END IF;
  IF NOT v_found_hs THEN SET v_hs = 0; END IF;
  SET v_price = CAST(p_requested * 100 AS SIGNED);
  IF v_is_market THEN SET v_price = CAST(v_market * 100 AS SIGNED); END IF;
  IF (v_is_sell AND v_hs > 0) OR (NOT v_is_sell AND v_hs < 0) THEN
    SET v_needed = p_qty;
    IF p_lifo THEN OPEN c_lifo; ELSE OPEN c_fifo; END IF;
    lots: LOOP
      IF p_lifo THEN FETCH c_lifo INTO v_h_qty, v_h_price; ELSE FETCH c_fifo INTO v_h_qty, v_h_price; END IF;
      IF v_nf THEN LEAVE lots; END IF;
      IF v_needed = 0 THEN ITERATE lots; END IF;
      SET v_cents = CAST(v_h_price * 100 AS SIGNED);
      IF v_is_sell THEN
        SET v_n = LEAST(v_h_qty, v_needed);
        SET v_buy = v_buy + v_n * v_cents;
        SET v_sell = v_sell + v_n * v_price;
      ELSE
        SET v_n = LEAST(-v_h_qty, v_needed);
        SET v_sell = v_sell + v_n * v_cents;
        SET v_buy = v_buy + v_n * v_price;
      END IF;
      SET v_needed = v_needed - v_n;
    END LOOP;
    IF p_lifo THEN CLOSE c_lifo; ELSE CLOSE c_fifo; END IF;
    SET v_nf = FALSE;
  END IF;
  IF v_sell > v_buy AND v_tax_st IN (1, 2) THEN
    SELECT COALESCE(SUM(tx_rate), 0) INTO v_rate FROM taxrate
    WHERE tx_id IN (SELECT cx_tx_id FROM customer_taxrate WHERE cx_c_id = v_cust);
    SET v_x = CAST(v_sell - v_buy AS DOUBLE) / 100 * CAST(v_rate AS DOUBLE);
    SET v_tax = IF(v_x < 0, -FLOOR(-v_x * 100 + 0.5), FLOOR(v_x * 100 + 0.5));
    IF v_tax <= 0 THEN
      SET v_msg = CONCAT('taxable gain ', v_sell - v_buy, ' gave tax ', v_tax);
      CALL bb_check(3, v_msg);
    END IF;
  END IF;
  IF NOT v_found_comm THEN CALL bb_check(3, 'commission rate: no row'); END IF;
  IF NOT v_found_charge THEN CALL bb_check(3, 'charge: no row'); END IF;
  IF v_comm_rate <= 0 OR v_charge <= 0 THEN
    SET v_msg = CONCAT('commission rate ', v_comm_rate, ' and charge ', v_charge, ' must be positive');
    CALL bb_check(3, v_msg);
  END IF;
  IF p_is_margin AND v_bal IS NULL THEN CALL bb_check(3, 'balance: no row'); END IF;
  SET v_status = p_submitted;
  IF NOT v_is_market THEN SET v_status = p_pending; END IF;
  -- frame 4
  SET v_x = CAST(v_comm_rate AS DOUBLE) / 100 * CAST(p_qty AS DOUBLE) * CAST(v_price AS DOUBLE) / 100;
  SET v_comm = IF(v_x < 0, -FLOOR(-v_x * 100 + 0.5), FLOOR(v_x * 100 + 0.5));
  INSERT INTO trade (t_id, t_dts, t_st_id, t_tt_id, t_is_cash, t_s_symb, t_qty, t_bid_price,
    t_ca_id, t_exec_name, t_trade_price, t_chrg, t_comm, t_tax, t_lifo)
  VALUES (v_trade_id, p_now, v_status, p_trade_type, NOT p_is_margin, v_symbol, p_qty, v_price / 100,
    p_acct_id, LEFT(p_exec_name, 49), NULL, v_charge, v_comm / 100, 0, p_lifo);
  IF NOT v_is_market THEN
    INSERT INTO trade_request (tr_t_id, tr_tt_id, tr_s_symb, tr_qty, tr_bid_price, tr_b_id)
    VALUES (v_trade_id, p_trade_type, v_symbol, p_qty, v_price / 100, v_broker);
  END IF;
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (v_trade_id, p_now, v_status);
  -- frame 5: the input's rollback
  IF p_rollback THEN
    SIGNAL SQLSTATE 'BBR01' SET MESSAGE_TEXT = 'Trade-Order frame 5: intended rollback';
  END IF;
  -- frame 6: the client commits
  SELECT JSON_OBJECT('TradeID', v_trade_id + 0, 'Symbol', v_symbol, 'Price', v_price + 0, 'IsMarket', v_is_market <> 0,
    'Tax', v_tax + 0, 'CommRate', v_comm_rate + 0, 'Charge', v_charge + 0, 'Comm', v_comm + 0, 'Status', v_status,
    'Assets', IF(p_is_margin, CAST((v_bal + v_held) * 100 AS SIGNED), 0) + 0);
END;
-- batch
-- Trade-Result frames 1-6 (txn/trade_result.go): the same locks in the same order
-- (TRADE, CUSTOMER_ACCOUNT, the HOLDING lots), every lot locked before any is moved
-- (the cursor's rows are read when it opens).
CREATE OR REPLACE PROCEDURE bb_trade_result(IN p_trade_id BIGINT, IN p_price DECIMAL(8,2), IN p_now DATETIME(6),
  IN p_submitted VARCHAR(4) CHARSET ascii COLLATE ascii_bin, IN p_completed VARCHAR(4) CHARSET ascii COLLATE ascii_bin)
BEGIN
  DECLARE v_type, v_status VARCHAR(4) CHARSET ascii COLLATE ascii_bin;
  DECLARE v_symbol VARCHAR(15) CHARSET ascii COLLATE ascii_bin;
  DECLARE v_type_name, v_sec_name, v_cash_type VARCHAR(100) CHARSET ascii COLLATE ascii_bin;
  DECLARE v_ex VARCHAR(6) CHARSET ascii COLLATE ascii_bin;
  DECLARE v_acct, v_broker, v_cust, v_rows, l_id BIGINT;
  DECLARE v_qty, v_tax_st, v_hs, v_needed, v_delta, v_new, v_size, v_n, v_after, v_lot, v_tier, l_qty INT;
  DECLARE v_charge DECIMAL(10,2);
  DECLARE v_comm_rate DECIMAL(5,2);
  DECLARE v_balance, l_price DECIMAL(12,2);
  DECLARE v_rate DECIMAL(20,5);
  DECLARE v_lifo, v_is_cash, v_is_sell, v_is_market, v_hs_found BOOLEAN;
  DECLARE v_price BIGINT DEFAULT CAST(p_price * 100 AS SIGNED);
  DECLARE v_buy, v_sell, v_tax BIGINT DEFAULT 0;
  DECLARE v_comm, v_amount, l_cents BIGINT;
  DECLARE v_x DOUBLE;
  DECLARE v_msg VARCHAR(512);
  DECLARE v_nf BOOLEAN DEFAULT FALSE;
  DECLARE c_fifo CURSOR FOR SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = v_acct AND h_s_symb = v_symbol
    ORDER BY h_dts ASC, h_t_id ASC FOR UPDATE;
  DECLARE c_lifo CURSOR FOR SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = v_acct AND h_s_symb = v_symbol
    ORDER BY h_dts DESC, h_t_id DESC FOR UPDATE;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_nf = TRUE;
  -- frame 1
  SELECT t_ca_id, t_tt_id, t_s_symb, t_qty, t_chrg, t_lifo, t_is_cash, t_st_id
  INTO v_acct, v_type, v_symbol, v_qty, v_charge, v_lifo, v_is_cash, v_status
  FROM trade WHERE t_id = p_trade_id FOR UPDATE;
  IF v_nf THEN
    SET v_msg = CONCAT('trade ', p_trade_id, ': no row');
    CALL bb_check(1, v_msg);
  END IF;
  IF v_status <> p_submitted THEN
    SET v_msg = CONCAT('trade ', p_trade_id, ' is ', v_status, ', not ', p_submitted);
    CALL bb_check(1, v_msg);
  END IF;
  SELECT tt_name, tt_is_sell, tt_is_mrkt INTO v_type_name, v_is_sell, v_is_market FROM trade_type WHERE tt_id = v_type;
  IF v_nf THEN CALL bb_check(1, 'trade type: no row'); END IF;
  SELECT ca_b_id, ca_c_id, ca_tax_st INTO v_broker, v_cust, v_tax_st FROM customer_account WHERE ca_id = v_acct FOR UPDATE;
  IF v_nf THEN CALL bb_check(1, 'account: no row'); END IF;
  SELECT hs_qty INTO v_hs FROM holding_summary WHERE hs_ca_id = v_acct AND hs_s_symb = v_symbol;
  SET v_hs_found = NOT v_nf, v_nf = FALSE;
  IF NOT v_hs_found THEN SET v_hs = 0; END IF;
  -- frame 2
  SET v_needed = v_qty;
  SET v_delta = IF(v_is_sell, -v_qty, v_qty);
  SET v_new = v_hs + v_delta;
  IF NOT v_hs_found THEN
    INSERT INTO holding_summary (hs_ca_id, hs_s_symb, hs_qty) VALUES (v_acct, v_symbol, v_new);
  ELSEIF v_new <> 0 THEN
    UPDATE holding_summary SET hs_qty = v_new WHERE hs_ca_id = v_acct AND hs_s_symb = v_symbol;
    SET v_rows = ROW_COUNT();
    IF v_rows <> 1 THEN
      SET v_msg = CONCAT('update holding summary changed ', v_rows, ' rows, want 1');
      CALL bb_check(2, v_msg);
    END IF;
  END IF;
  IF (v_is_sell AND v_hs > 0) OR (NOT v_is_sell AND v_hs < 0) THEN
    IF v_lifo THEN OPEN c_lifo; ELSE OPEN c_fifo; END IF;
    lots: LOOP
      IF v_needed = 0 THEN LEAVE lots; END IF;
      IF v_lifo THEN FETCH c_lifo INTO l_id, l_qty, l_price; ELSE FETCH c_fifo INTO l_id, l_qty, l_price; END IF;
      IF v_nf THEN LEAVE lots; END IF;
      SET l_cents = CAST(l_price * 100 AS SIGNED);
      SET v_size = IF(v_is_sell, l_qty, -l_qty);
      IF v_size <= 0 THEN ITERATE lots; END IF;
      SET v_n = LEAST(v_size, v_needed);
      SET v_after = IF(v_is_sell, l_qty - v_n, l_qty + v_n);
      INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES (l_id, p_trade_id, l_qty, v_after);
      IF v_after = 0 THEN
        DELETE FROM holding WHERE h_t_id = l_id;
      ELSE
        UPDATE holding SET h_qty = v_after WHERE h_t_id = l_id;
      END IF;
      SET v_rows = ROW_COUNT();
      IF v_rows <> 1 THEN
        SET v_msg = CONCAT('holding ', l_id, ' changed ', v_rows, ' rows, want 1');
        CALL bb_check(2, v_msg);
      END IF;
      IF v_is_sell THEN
        SET v_buy = v_buy + v_n * l_cents;
        SET v_sell = v_sell + v_n * v_price;
      ELSE
        SET v_sell = v_sell + v_n * l_cents;
        SET v_buy = v_buy + v_n * v_price;
      END IF;
      SET v_needed = v_needed - v_n;
    END LOOP;
    IF v_lifo THEN CLOSE c_lifo; ELSE CLOSE c_fifo; END IF;
    SET v_nf = FALSE;
  END IF;
  IF v_needed > 0 THEN
    SET v_lot = IF(v_is_sell, -v_needed, v_needed);
    INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES (p_trade_id, p_trade_id, 0, v_lot);
    INSERT INTO holding (h_t_id, h_ca_id, h_s_symb, h_dts, h_price, h_qty) VALUES (p_trade_id, v_acct, v_symbol, p_now, p_price, v_lot);
  ELSEIF v_hs_found AND v_new = 0 THEN
    DELETE FROM holding_summary WHERE hs_ca_id = v_acct AND hs_s_symb = v_symbol;
    SET v_rows = ROW_COUNT();
    IF v_rows <> 1 THEN
      SET v_msg = CONCAT('delete holding summary changed ', v_rows, ' rows, want 1');
      CALL bb_check(2, v_msg);
    END IF;
  END IF;
  -- frame 3
  IF v_tax_st IN (1, 2) AND v_sell > v_buy THEN
    SELECT COALESCE(SUM(tx_rate), 0) INTO v_rate FROM taxrate
    WHERE tx_id IN (SELECT cx_tx_id FROM customer_taxrate WHERE cx_c_id = v_cust);
    SET v_x = CAST(v_sell - v_buy AS DOUBLE) / 100 * CAST(v_rate AS DOUBLE);
    SET v_tax = IF(v_x < 0, -FLOOR(-v_x * 100 + 0.5), FLOOR(v_x * 100 + 0.5));
    IF v_tax < 0 THEN
      SET v_msg = CONCAT('tax ', v_tax, ' is negative');
      CALL bb_check(3, v_msg);
    END IF;
    UPDATE trade SET t_tax = v_tax / 100 WHERE t_id = p_trade_id;
  END IF;
  -- frame 4
  SELECT s_ex_id, s_name INTO v_ex, v_sec_name FROM security WHERE s_symb = v_symbol;
  IF v_nf THEN CALL bb_check(4, 'security: no row'); END IF;
  SELECT c_tier INTO v_tier FROM customer WHERE c_id = v_cust;
  IF v_nf THEN CALL bb_check(4, 'customer: no row'); END IF;
  SELECT cr_rate INTO v_comm_rate FROM commission_rate
  WHERE cr_c_tier = v_tier AND cr_tt_id = v_type AND cr_ex_id = v_ex AND v_qty BETWEEN cr_from_qty AND cr_to_qty
  LIMIT 1;
  IF v_nf THEN CALL bb_check(4, 'commission rate: no row'); END IF;
  IF v_comm_rate <= 0 THEN
    SET v_msg = CONCAT('commission rate ', v_comm_rate, ' is not positive');
    CALL bb_check(4, v_msg);
  END IF;
  -- frame 5
  SET v_x = CAST(v_comm_rate AS DOUBLE) / 100 * CAST(v_qty AS DOUBLE) * CAST(v_price AS DOUBLE) / 100;
  SET v_comm = IF(v_x < 0, -FLOOR(-v_x * 100 + 0.5), FLOOR(v_x * 100 + 0.5));
  UPDATE trade SET t_comm = v_comm / 100, t_dts = p_now, t_st_id = p_completed, t_trade_price = p_price WHERE t_id = p_trade_id;
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (p_trade_id, p_now, p_completed);
  UPDATE broker SET b_comm_total = b_comm_total + v_comm / 100, b_num_trades = b_num_trades + 1 WHERE b_id = v_broker;
  SET v_rows = ROW_COUNT();
  IF v_rows <> 1 THEN
    SET v_msg = CONCAT('update broker changed ', v_rows, ' rows, want 1');
    CALL bb_check(5, v_msg);
  END IF;
  -- frame 6
  IF v_is_sell THEN
    SET v_amount = v_qty * v_price - CAST(v_charge * 100 AS SIGNED) - v_comm;
  ELSE
    SET v_amount = -(v_qty * v_price + CAST(v_charge * 100 AS SIGNED) + v_comm);
  END IF;
  IF v_tax_st = 1 THEN SET v_amount = v_amount - v_tax; END IF;
  SET v_cash_type = IF(v_is_cash, 'Cash Account', 'Margin');
  INSERT INTO settlement (se_t_id, se_cash_type, se_cash_due_date, se_amt)
  VALUES (p_trade_id, v_cash_type, DATE(p_now) + INTERVAL 2 DAY, v_amount / 100);
  IF v_is_cash THEN
    UPDATE customer_account SET ca_bal = ca_bal + v_amount / 100 WHERE ca_id = v_acct;
    INSERT INTO cash_transaction (ct_t_id, ct_dts, ct_amt, ct_name)
    VALUES (p_trade_id, p_now, v_amount / 100, LEFT(CONCAT(v_type_name, ' ', v_qty, ' shares of ', v_sec_name), 100));
  END IF;
  SELECT ca_bal INTO v_balance FROM customer_account WHERE ca_id = v_acct;
  IF v_nf THEN CALL bb_check(6, 'balance: no row'); END IF;
  SELECT JSON_OBJECT('AcctID', v_acct + 0, 'Balance', v_balance + 0, 'Tax', CAST(v_tax / 100 AS DECIMAL(20,2)),
    'Comm', CAST(v_comm / 100 AS DECIMAL(20,2)));
END;
-- batch
-- Trade-Status frame 1 (txn/trade_status.go), as rows the client scans as client mode
-- scans its statement's: one row per trade, newest first, then one row whose last
-- three columns are the customer's and the broker's names (empty on the trade rows;
-- its trade columns are placeholders). The client reads one result set, so both are
-- one UNION ALL; a UNION's rows have no order but the one its ORDER BY gives, so
-- o_part puts the names row last and t_dts orders the trades as the client's
-- statement does. The names are read first.
CREATE OR REPLACE PROCEDURE bb_trade_status(IN p_acct_id BIGINT)
BEGIN
  DECLARE v_last, v_first, v_broker VARCHAR(100) CHARSET ascii COLLATE ascii_bin;
  DECLARE v_nf BOOLEAN DEFAULT FALSE;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_nf = TRUE;
  SELECT c_l_name, c_f_name, b_name INTO v_last, v_first, v_broker
  FROM customer_account, customer, broker
  WHERE ca_id = p_acct_id AND c_id = ca_c_id AND b_id = ca_b_id;
  IF v_nf THEN CALL bb_check(1, 'customer and broker: no row'); END IF;
  SELECT t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name, c_f_name, c_l_name, b_name
  FROM (
    (SELECT 0 AS o_part, t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name,
        '' AS c_f_name, '' AS c_l_name, '' AS b_name
      FROM trade, status_type, trade_type, security, exchange
      WHERE t_ca_id = p_acct_id AND st_id = t_st_id AND tt_id = t_tt_id AND s_symb = t_s_symb AND ex_id = s_ex_id
      ORDER BY t_dts DESC
      LIMIT 50)
    UNION ALL
    (SELECT 1, 0, TIMESTAMP '1970-01-01 00:00:00', '', '', '', 0, '', 0, '', '', v_first, v_last, v_broker)
  ) AS rows_out
  ORDER BY o_part, t_dts DESC;
END;
-- batch
-- Trade-Update frames 1-3 (txn/trade_update.go): each trade's value is read, then
-- written toggled (the first occurrence, as Go's strings.Replace(s, old, new, 1)),
-- then the frame reads what Trade-Lookup's frame reads.
CREATE OR REPLACE PROCEDURE bb_trade_update(IN p_frame INT, IN p_ids LONGTEXT, IN p_acct_id BIGINT,
  IN p_symbol VARCHAR(15) CHARSET ascii COLLATE ascii_bin, IN p_start DATETIME(6), IN p_end DATETIME(6), IN p_max INT)
BEGIN
  DECLARE v_trades LONGTEXT DEFAULT '[]';
  DECLARE v_updated, v_listed, v_found INT DEFAULT 0;
  DECLARE v_cur, v_next VARCHAR(200) CHARSET ascii COLLATE ascii_bin;
  DECLARE v_n BIGINT;
  DECLARE v_msg VARCHAR(512);
  DECLARE v_nf BOOLEAN DEFAULT FALSE;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_nf = TRUE;
  IF p_frame = 1 THEN
    SET v_listed = COALESCE(JSON_LENGTH(p_ids), 0);
    FOR r IN (SELECT id FROM JSON_TABLE(p_ids, '$[*]' COLUMNS (o FOR ORDINALITY, id BIGINT PATH '$')) j
        WHERE o <= p_max ORDER BY o) DO
      SELECT t_exec_name INTO v_cur FROM trade WHERE t_id = r.id;
      IF v_nf THEN CALL bb_check(1, 'executor name: no row'); END IF;
      IF LOCATE(' X ', v_cur) > 0 THEN
        SET v_next = INSERT(v_cur, LOCATE(' X ', v_cur), 3, ' ');
      ELSE
        SET v_next = INSERT(v_cur, LOCATE(' ', v_cur), 1, ' X ');
      END IF;
      UPDATE trade SET t_exec_name = LEFT(v_next, 49) WHERE t_id = r.id;
      SET v_n = ROW_COUNT();
      IF v_n <> 1 THEN
        SET v_msg = CONCAT('update executor name changed ', v_n, ' rows, want 1');
        CALL bb_check(1, v_msg);
      END IF;
      SET v_updated = v_updated + 1;
    END FOR;
    CALL bb_trades_by_id(p_ids, v_trades);
    SET v_found = JSON_LENGTH(v_trades);
    IF v_found <> v_listed OR v_updated <> v_listed THEN
      SET v_msg = CONCAT('found ', v_found, ' and updated ', v_updated, ' of ', v_listed, ' trades');
      CALL bb_check(1, v_msg);
    END IF;
  ELSEIF p_frame = 2 THEN
    FOR r IN (SELECT t_id, t_is_cash FROM trade WHERE t_ca_id = p_acct_id AND t_dts >= p_start AND t_dts <= p_end
        ORDER BY t_dts LIMIT p_max) DO
      SELECT se_cash_type INTO v_cur FROM settlement WHERE se_t_id = r.t_id;
      IF v_nf THEN CALL bb_check(2, 'settlement: no row'); END IF;
      IF r.t_is_cash THEN
        SET v_next = IF(v_cur = 'Cash Account', 'Cash', 'Cash Account');
      ELSE
        SET v_next = IF(v_cur = 'Margin', 'Margin Account', 'Margin');
      END IF;
      UPDATE settlement SET se_cash_type = v_next WHERE se_t_id = r.t_id;
      SET v_n = ROW_COUNT();
      IF v_n <> 1 THEN
        SET v_msg = CONCAT('update cash type changed ', v_n, ' rows, want 1');
        CALL bb_check(2, v_msg);
      END IF;
      SET v_updated = v_updated + 1;
    END FOR;
    CALL bb_trade_list(2, p_acct_id, p_symbol, p_start, p_end, p_max, FALSE, v_trades);
    IF v_updated <> JSON_LENGTH(v_trades) THEN
      SET v_msg = CONCAT('updated ', v_updated, ' of ', JSON_LENGTH(v_trades), ' trades found');
      CALL bb_check(2, v_msg);
    END IF;
  ELSE
    FOR r IN (SELECT t_id FROM (SELECT t_id, t_is_cash, t_dts FROM trade, trade_type, security
        WHERE t_s_symb = p_symbol AND t_dts >= p_start AND t_dts <= p_end AND tt_id = t_tt_id AND s_symb = t_s_symb
        ORDER BY t_dts LIMIT p_max) t WHERE t_is_cash ORDER BY t_dts) DO
      SELECT ct_name INTO v_cur FROM cash_transaction WHERE ct_t_id = r.t_id;
      IF v_nf THEN CALL bb_check(3, 'cash transaction: no row'); END IF;
      SET v_cur = COALESCE(v_cur, '');
      IF LOCATE(' shares ', v_cur) > 0 THEN
        SET v_next = INSERT(v_cur, LOCATE(' shares ', v_cur), 8, ' Shares ');
      ELSE
        SET v_next = INSERT(v_cur, LOCATE(' Shares ', v_cur), 8, ' shares ');
      END IF;
      UPDATE cash_transaction SET ct_name = LEFT(v_next, 100) WHERE ct_t_id = r.t_id;
      SET v_n = ROW_COUNT();
      IF v_n <> 1 THEN
        SET v_msg = CONCAT('update cash name changed ', v_n, ' rows, want 1');
        CALL bb_check(3, v_msg);
      END IF;
      SET v_updated = v_updated + 1;
    END FOR;
    CALL bb_trade_list(3, p_acct_id, p_symbol, p_start, p_end, p_max, TRUE, v_trades);
    IF JSON_LENGTH(v_trades) = 0 THEN
      SET v_msg = CONCAT('no trade of ', p_symbol, ' in the window');
      CALL bb_check(3, v_msg);
    END IF;
  END IF;
  SELECT JSON_OBJECT('Frame', p_frame + 0, 'Trades', JSON_EXTRACT(v_trades, '$'), 'Updated', v_updated + 0);
END;
-- batch
-- Data-Maintenance frame 1 (txn/data_maintenance.go). The client passes what it
-- derives without the database: the mailbox for a customer without one and the
-- EXCHANGE stamp of its clock.
CREATE OR REPLACE PROCEDURE bb_data_maintenance(IN p_table VARCHAR(30) CHARSET ascii COLLATE ascii_bin, IN p_acct_id BIGINT,
  IN p_cust_id BIGINT, IN p_co_id BIGINT, IN p_addr_of_cust BOOLEAN, IN p_symbol VARCHAR(15) CHARSET ascii COLLATE ascii_bin,
  IN p_day INT, IN p_vol_incr INT, IN p_tax_id VARCHAR(4) CHARSET ascii COLLATE ascii_bin,
  IN p_box VARCHAR(50) CHARSET ascii COLLATE ascii_bin, IN p_stamp VARCHAR(60) CHARSET ascii COLLATE ascii_bin,
  IN p_marker VARCHAR(30) CHARSET ascii COLLATE ascii_bin)
BEGIN
  DECLARE v_cur, v_next, v_box, v_domain, v_syms VARCHAR(4000) CHARSET ascii COLLATE ascii_bin;
  DECLARE v_id, v_wl BIGINT;
  DECLARE v_n BIGINT DEFAULT 0;
  DECLARE v_day, v_i, v_count INT;
  DECLARE v_msg VARCHAR(512);
  DECLARE v_nf BOOLEAN DEFAULT FALSE;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_nf = TRUE;
  CASE p_table
  WHEN 'account_permission' THEN
    SELECT ap_acl INTO v_cur FROM account_permission WHERE ap_ca_id = p_acct_id ORDER BY ap_acl DESC LIMIT 1;
    IF v_nf THEN CALL bb_check(1, 'account_permission: no row'); END IF;
    SET v_cur = COALESCE(v_cur, '');
    SET v_next = IF(v_cur = '1111', '0011', '1111');
    UPDATE account_permission SET ap_acl = v_next WHERE ap_ca_id = p_acct_id AND ap_acl = v_cur;
    SET v_n = ROW_COUNT();
  WHEN 'address' THEN
    IF p_addr_of_cust THEN
      SELECT c_ad_id INTO v_id FROM customer WHERE c_id = p_cust_id;
    ELSE
      SELECT co_ad_id INTO v_id FROM company WHERE co_id = p_co_id;
    END IF;
    IF v_nf THEN CALL bb_check(1, 'address id: no row'); END IF;
    SELECT ad_line2 INTO v_cur FROM address WHERE ad_id = v_id;
    IF v_nf THEN CALL bb_check(1, 'address: no row'); END IF;
    SET v_next = IF(v_cur <=> 'Apt. 10C', 'Apt. 22', 'Apt. 10C');
    UPDATE address SET ad_line2 = v_next WHERE ad_id = v_id;
    SET v_n = ROW_COUNT();
  WHEN 'company' THEN
    SELECT co_sp_rate INTO v_cur FROM company WHERE co_id = p_co_id;
    IF v_nf THEN CALL bb_check(1, 'company: no row'); END IF;
    SET v_next = IF(v_cur <=> 'ABA', 'AAA', 'ABA');
    UPDATE company SET co_sp_rate = v_next WHERE co_id = p_co_id;
    SET v_n = ROW_COUNT();
  WHEN 'customer' THEN
    SELECT c_email_2 INTO v_cur FROM customer WHERE c_id = p_cust_id;
    IF v_nf THEN CALL bb_check(1, 'customer: no row'); END IF;
    SET v_cur = COALESCE(v_cur, '');
    SET v_box = SUBSTRING_INDEX(v_cur, '@', 1);
    SET v_domain = IF(LOCATE('@', v_cur) > 0, SUBSTRING(v_cur, LOCATE('@', v_cur) + 1), '');
    IF v_box = '' THEN SET v_box = p_box; END IF;
    SET v_next = IF(v_domain = 'mindspring.com', 'earthlink.com', 'mindspring.com');
    UPDATE customer SET c_email_2 = LEFT(CONCAT(v_box, '@', v_next), 50) WHERE c_id = p_cust_id;
    SET v_n = ROW_COUNT();
  WHEN 'customer_taxrate' THEN
    SELECT cx_tx_id INTO v_cur FROM customer_taxrate WHERE cx_c_id = p_cust_id AND (cx_tx_id LIKE 'US%' OR cx_tx_id LIKE 'CN%');
    IF v_nf THEN CALL bb_check(1, 'customer_taxrate: no row'); END IF;
    SET v_i = FIELD(v_cur, 'US1', 'US2', 'US3', 'US4', 'US5', 'CN1', 'CN2', 'CN3', 'CN4');
    IF v_i = 0 THEN
      SET v_i = 1;
    ELSEIF v_i <= 5 THEN
      SET v_i = v_i % 5 + 1;
    ELSE
      SET v_i = 6 + (v_i - 6 + 1) % 4;
    END IF;
    SET v_next = ELT(v_i, 'US1', 'US2', 'US3', 'US4', 'US5', 'CN1', 'CN2', 'CN3', 'CN4');
    UPDATE customer_taxrate SET cx_tx_id = v_next WHERE cx_c_id = p_cust_id AND cx_tx_id = v_cur;
    SET v_n = ROW_COUNT();
  WHEN 'daily_market' THEN
    UPDATE daily_market SET dm_vol = dm_vol + p_vol_incr WHERE dm_s_symb = p_symbol AND EXTRACT(DAY FROM dm_date) = p_day;
    SET v_n = ROW_COUNT();
  WHEN 'exchange' THEN
    FOR r IN (SELECT ex_id, COALESCE(ex_desc, '') AS d FROM exchange ORDER BY ex_id) DO
      SET v_cur = r.d;
      SET v_next = IF(LOCATE(p_marker, v_cur) > 0, LEFT(v_cur, LOCATE(p_marker, v_cur) - 1), v_cur);
      UPDATE exchange SET ex_desc = CONCAT(LEFT(v_next, 150 - LENGTH(p_stamp)), p_stamp) WHERE ex_id = r.ex_id;
      SET v_n = v_n + ROW_COUNT();
    END FOR;
  WHEN 'financial' THEN
    SELECT DAY(MIN(fi_qtr_start_date)) INTO v_day FROM financial WHERE fi_co_id = p_co_id;
    UPDATE financial SET fi_qtr_start_date = fi_qtr_start_date + INTERVAL IF(v_day = 1, 1, -1) DAY WHERE fi_co_id = p_co_id;
    SET v_n = ROW_COUNT();
  WHEN 'news_item' THEN
    UPDATE news_item SET ni_dts = ni_dts + INTERVAL 1 DAY WHERE ni_id IN (SELECT nx_ni_id FROM news_xref WHERE nx_co_id = p_co_id);
    SET v_n = ROW_COUNT();
  WHEN 'security' THEN
    UPDATE security SET s_exch_date = s_exch_date + INTERVAL 1 DAY WHERE s_symb = p_symbol;
    SET v_n = ROW_COUNT();
  WHEN 'taxrate' THEN
    SELECT tx_name INTO v_cur FROM taxrate WHERE tx_id = p_tax_id;
    IF v_nf THEN CALL bb_check(1, 'taxrate: no row'); END IF;
    SET v_cur = COALESCE(v_cur, '');
    SET v_next = IF(LOCATE('Tax', v_cur) > 0, INSERT(v_cur, LOCATE('Tax', v_cur), 3, 'tax'), v_cur);
    IF v_next = v_cur THEN SET v_next = IF(LOCATE('tax', v_cur) > 0, INSERT(v_cur, LOCATE('tax', v_cur), 3, 'Tax'), v_cur); END IF;
    IF v_next = v_cur THEN SET v_next = CONCAT(v_cur, ' Tax'); END IF;
    UPDATE taxrate SET tx_name = LEFT(v_next, 50) WHERE tx_id = p_tax_id;
    SET v_n = ROW_COUNT();
  WHEN 'watch_item' THEN
    SELECT JSON_ARRAYAGG(wi_s_symb ORDER BY wi_s_symb), MAX(wi_wl_id), COUNT(*) INTO v_syms, v_wl, v_count
    FROM watch_list, watch_item WHERE wl_c_id = p_cust_id AND wi_wl_id = wl_id;
    IF v_count = 0 THEN CALL bb_check(1, 'watch items: no row'); END IF;
    SET v_cur = JSON_VALUE(v_syms, CONCAT('$[', v_count DIV 2, ']'));
    SELECT MIN(s_symb) INTO v_next FROM security WHERE s_symb > v_cur AND s_symb NOT IN (SELECT wi_s_symb FROM watch_item WHERE wi_wl_id = v_wl);
    IF v_next IS NULL THEN
      SELECT MIN(s_symb) INTO v_next FROM security WHERE s_symb > '' AND s_symb NOT IN (SELECT wi_s_symb FROM watch_item WHERE wi_wl_id = v_wl);
      IF v_next IS NULL THEN
        SET v_msg = CONCAT('watch list ', v_wl, ' holds every security');
        CALL bb_check(1, v_msg);
      END IF;
    END IF;
    UPDATE watch_item SET wi_s_symb = v_next WHERE wi_wl_id = v_wl AND wi_s_symb = v_cur;
    SET v_n = ROW_COUNT();
  ELSE
    SET v_msg = CONCAT('data maintenance: unknown table ', p_table);
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = v_msg;
  END CASE;
  IF v_n = 0 THEN
    SET v_msg = CONCAT(p_table, ': no row changed');
    CALL bb_check(1, v_msg);
  END IF;
  SELECT JSON_OBJECT('Table', p_table, 'Changed', v_n + 0);
END;
-- batch
-- Trade-Cleanup (txn/trade_cleanup.go).
CREATE OR REPLACE PROCEDURE bb_trade_cleanup(IN p_now DATETIME(6), IN p_first_run_id BIGINT,
  IN p_submitted VARCHAR(4) CHARSET ascii COLLATE ascii_bin, IN p_canceled VARCHAR(4) CHARSET ascii COLLATE ascii_bin)
BEGIN
  DECLARE v_pending, v_submitted INT DEFAULT 0;
  DECLARE v_msg VARCHAR(512);
  FOR r IN (SELECT tr_t_id FROM trade_request ORDER BY tr_t_id) DO
    INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (r.tr_t_id, p_now, p_submitted);
    UPDATE trade SET t_dts = p_now, t_st_id = p_canceled WHERE t_id = r.tr_t_id;
    IF ROW_COUNT() = 0 THEN
      SET v_msg = CONCAT('cancel trade ', r.tr_t_id, ' changed 0 rows, want 1');
      CALL bb_check(1, v_msg);
    END IF;
    INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (r.tr_t_id, p_now, p_canceled);
    SET v_pending = v_pending + 1;
  END FOR;
  DELETE FROM trade_request;
  FOR r IN (SELECT t_id FROM trade WHERE t_id >= p_first_run_id AND t_st_id = p_submitted ORDER BY t_id) DO
    UPDATE trade SET t_dts = p_now, t_st_id = p_canceled WHERE t_id = r.t_id;
    IF ROW_COUNT() = 0 THEN
      SET v_msg = CONCAT('cancel trade ', r.t_id, ' changed 0 rows, want 1');
      CALL bb_check(1, v_msg);
    END IF;
    INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (r.t_id, p_now, p_canceled);
    SET v_submitted = v_submitted + 1;
  END FOR;
  SELECT JSON_OBJECT('Pending', v_pending + 0, 'Submitted', v_submitted + 0);
END;
