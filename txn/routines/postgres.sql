-- brokerbench server frames for PostgreSQL (docs/workload.md §13).
--
-- One PL/pgSQL function per transaction (Market-Feed: per ticker entry), called once
-- inside the transaction the client opens at the transaction's isolation level. Each
-- runs the statements of the client mode's frames (txn/<transaction>.go) in the same
-- order, with the same row limits and locks, takes the same inputs as parameters
-- (times included, so both modes write the same rows) and returns the frames' outputs
-- as one JSON document the client decodes into the client mode's output values.
--
-- Codes the client classifies (never the message): SQLSTATE BBR01 is the
-- transaction's intended rollback; BBC0n a failed output check of frame n, raised
-- before the commit as the client mode fails it. Money crosses as numeric and is
-- computed in cents with the client's float64 rounding (bb_cents_of), so tax and
-- commission come out to the same cent.
--
-- Statements are separated by a line "-- batch"; txn.InstallRoutines sends them one
-- by one in one transaction, then records the version in bb_routines.

CREATE TABLE IF NOT EXISTS bb_routines (
  version INTEGER NOT NULL,
  source_sha256 VARCHAR(64) NOT NULL,
  installed_at TIMESTAMP NOT NULL
);
-- batch
-- bb_ts renders a timestamp the way Go's time.Time reads it from JSON (RFC 3339, UTC).
CREATE OR REPLACE FUNCTION bb_ts(t timestamp) RETURNS text
LANGUAGE sql IMMUTABLE AS $$ SELECT to_char(t, 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') $$;
-- batch
-- bb_cents_of is txn.centsOf: a float amount in currency units to cents, half away
-- from zero, with float64 arithmetic so the client's and the server's cents agree.
CREATE OR REPLACE FUNCTION bb_cents_of(v float8) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN v < 0 THEN -floor(-v * 100 + 0.5)::bigint ELSE floor(v * 100 + 0.5)::bigint END $$;
-- batch
-- bb_check raises a failed output check of frame f (SQLSTATE BBC0f).
CREATE OR REPLACE FUNCTION bb_check(f integer, msg text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'BBC0' || f, MESSAGE = msg;
END $$;
-- batch
-- Broker-Volume frame 1 (txn/broker_volume.go).
CREATE OR REPLACE FUNCTION bb_broker_volume(p_sector varchar, p_brokers varchar[]) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE r json;
BEGIN
  SELECT COALESCE(json_agg(json_build_object('Broker', b_name, 'Volume', volume) ORDER BY volume DESC), '[]'::json) INTO r
  FROM (SELECT b_name, SUM(tr_qty * tr_bid_price) AS volume
    FROM trade_request, sector, industry, company, broker, security
    WHERE tr_b_id = b_id AND tr_s_symb = s_symb AND s_co_id = co_id AND co_in_id = in_id
      AND sc_id = in_sc_id AND sc_name = p_sector AND b_name = ANY (p_brokers)
    GROUP BY b_name
    ORDER BY volume DESC) v;
  RETURN r;
END $$;
-- batch
-- Customer-Position frames 1-3 (txn/customer_position.go).
CREATE OR REPLACE FUNCTION bb_customer_position(p_cust_id bigint, p_tax_id varchar, p_get_history boolean, p_acct_idx integer) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_cust bigint := p_cust_id;
  v_c customer%ROWTYPE;
  v_accounts json;
  v_ids bigint[];
  v_history json := '[]'::json;
  v_trades integer;
  v_rows integer;
BEGIN
  IF p_tax_id <> '' THEN
    SELECT c_id INTO v_cust FROM customer WHERE c_tax_id = p_tax_id;
    IF NOT FOUND THEN PERFORM bb_check(1, 'customer by tax id: no row'); END IF;
  END IF;
  SELECT * INTO v_c FROM customer WHERE c_id = v_cust;
  IF NOT FOUND THEN PERFORM bb_check(1, 'customer: no row'); END IF;
  SELECT COALESCE(json_agg(json_build_object('AcctID', ca_id, 'Cash', ca_bal, 'Assets', assets) ORDER BY assets, ca_id), '[]'::json),
         array_agg(ca_id ORDER BY assets, ca_id)
  INTO v_accounts, v_ids
  FROM (SELECT ca_id, ca_bal, COALESCE(SUM(hs_qty * lt_price), 0) AS assets
    FROM customer_account
    LEFT JOIN (holding_summary JOIN last_trade ON lt_s_symb = hs_s_symb) ON hs_ca_id = ca_id
    WHERE ca_c_id = v_cust
    GROUP BY ca_id, ca_bal
    ORDER BY assets ASC, ca_id
    LIMIT 10) a;
  IF COALESCE(array_length(v_ids, 1), 0) < 1 THEN
    PERFORM bb_check(1, '0 accounts, want 1-10');
  END IF;
  IF p_get_history THEN
    SELECT COALESCE(json_agg(json_build_object('TradeID', t_id, 'Symbol', t_s_symb, 'Qty', t_qty, 'Status', st_name, 'When', bb_ts(th_dts)) ORDER BY th_dts DESC, t_id), '[]'::json),
           count(*), count(DISTINCT t_id)
    INTO v_history, v_rows, v_trades
    FROM (SELECT t_id, t_s_symb, t_qty, st_name, th_dts
      FROM (SELECT t_id AS id FROM trade WHERE t_ca_id = v_ids[LEAST(p_acct_idx, array_length(v_ids, 1) - 1) + 1] ORDER BY t_dts DESC LIMIT 10) AS recent,
        trade, trade_history, status_type
      WHERE t_id = recent.id AND th_t_id = t_id AND st_id = th_st_id
      ORDER BY th_dts DESC, t_id
      LIMIT 30) h;
  END IF;
  RETURN json_build_object('CustID', v_cust, 'Accounts', v_accounts, 'History', v_history);
END $$;
-- batch
-- Market-Feed, one ticker entry (txn/market_feed.go): the client calls it once per
-- entry, each in its own repeatable-read transaction.
CREATE OR REPLACE FUNCTION bb_market_feed(p_price numeric, p_qty integer, p_now timestamp, p_symbol varchar,
  p_stop_loss varchar, p_limit_sell varchar, p_limit_buy varchar, p_submitted varchar) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_n bigint;
  v_out json;
  v_ids bigint[];
  v_id bigint;
BEGIN
  UPDATE last_trade SET lt_price = p_price, lt_vol = lt_vol + p_qty, lt_dts = p_now WHERE lt_s_symb = p_symbol;
  GET DIAGNOSTICS v_n = ROW_COUNT;
  IF v_n <> 1 THEN PERFORM bb_check(1, format('update last trade changed %s rows, want 1', v_n)); END IF;
  SELECT COALESCE(json_agg(json_build_object('TradeID', tr_t_id, 'TradeType', tr_tt_id, 'Symbol', tr_s_symb, 'Qty', tr_qty,
           'Price', (tr_bid_price * 100)::bigint) ORDER BY tr_t_id), '[]'::json),
         array_agg(tr_t_id ORDER BY tr_t_id)
  INTO v_out, v_ids
  FROM trade_request
  WHERE tr_s_symb = p_symbol
    AND ((tr_tt_id = p_stop_loss AND tr_bid_price >= p_price) OR (tr_tt_id = p_limit_sell AND tr_bid_price <= p_price)
      OR (tr_tt_id = p_limit_buy AND tr_bid_price >= p_price));
  FOREACH v_id IN ARRAY COALESCE(v_ids, '{}') LOOP
    UPDATE trade SET t_dts = p_now, t_st_id = p_submitted WHERE t_id = v_id;
    GET DIAGNOSTICS v_n = ROW_COUNT;
    IF v_n <> 1 THEN PERFORM bb_check(1, format('submit trade changed %s rows, want 1', v_n)); END IF;
    DELETE FROM trade_request WHERE tr_t_id = v_id;
    GET DIAGNOSTICS v_n = ROW_COUNT;
    IF v_n <> 1 THEN PERFORM bb_check(1, format('delete trade request changed %s rows, want 1', v_n)); END IF;
    INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (v_id, p_now, p_submitted);
  END LOOP;
  RETURN v_out;
END $$;
-- batch
-- Market-Watch frame 1 (txn/market_watch.go): the client's float64 sums, row by row.
CREATE OR REPLACE FUNCTION bb_market_watch(p_by integer, p_cust_id bigint, p_acct_id bigint, p_industry varchar,
  p_start_co bigint, p_end_co bigint, p_start_day date) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  r record;
  v_symbols integer := 0;
  v_old float8 := 0;
  v_new float8 := 0;
  v_pct float8 := 0;
BEGIN
  IF p_by = 1 THEN
    FOR r IN SELECT s_num_out, lt_price, dm_close
      FROM watch_list, watch_item, security, last_trade, daily_market
      WHERE wl_c_id = p_cust_id AND wi_wl_id = wl_id AND s_symb = wi_s_symb AND lt_s_symb = s_symb
        AND dm_s_symb = s_symb AND dm_date = p_start_day LOOP
      v_symbols := v_symbols + 1;
      v_old := v_old + r.s_num_out::float8 * (r.dm_close * 100)::float8;
      v_new := v_new + r.s_num_out::float8 * (r.lt_price * 100)::float8;
    END LOOP;
  ELSIF p_by = 2 THEN
    FOR r IN SELECT s_num_out, lt_price, dm_close
      FROM holding_summary, security, last_trade, daily_market
      WHERE hs_ca_id = p_acct_id AND s_symb = hs_s_symb AND lt_s_symb = s_symb
        AND dm_s_symb = s_symb AND dm_date = p_start_day LOOP
      v_symbols := v_symbols + 1;
      v_old := v_old + r.s_num_out::float8 * (r.dm_close * 100)::float8;
      v_new := v_new + r.s_num_out::float8 * (r.lt_price * 100)::float8;
    END LOOP;
  ELSE
    FOR r IN SELECT s_num_out, lt_price, dm_close
      FROM industry, company, security, last_trade, daily_market
      WHERE in_name = p_industry AND co_in_id = in_id AND co_id BETWEEN p_start_co AND p_end_co AND s_co_id = co_id
        AND lt_s_symb = s_symb AND dm_s_symb = s_symb AND dm_date = p_start_day LOOP
      v_symbols := v_symbols + 1;
      v_old := v_old + r.s_num_out::float8 * (r.dm_close * 100)::float8;
      v_new := v_new + r.s_num_out::float8 * (r.lt_price * 100)::float8;
    END LOOP;
  END IF;
  IF v_old <> 0 THEN
    v_pct := 100 * (v_new / v_old - 1);
  END IF;
  RETURN json_build_object('Symbols', v_symbols, 'PctChange', v_pct);
END $$;
-- batch
-- Security-Detail frame 1 (txn/security_detail.go).
CREATE OR REPLACE FUNCTION bb_security_detail(p_symbol varchar, p_access_lob boolean, p_max_rows integer, p_start_day date) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_sec json;
  v_co_id bigint;
  v_competitors json;
  v_financials json;
  v_days json;
  v_last json;
  v_news json;
BEGIN
  SELECT json_build_object('SecName', s_name, 'CoName', co_name, 'SpRate', co_sp_rate, 'CEO', co_ceo, 'Desc', co_desc,
      'OpenDate', co_open_date, 'StartDate', s_start_date, 'ExchDate', s_exch_date, 'NumOut', s_num_out, 'PE', s_pe,
      'High', s_52wk_high, 'HighDate', s_52wk_high_date, 'Low', s_52wk_low, 'LowDate', s_52wk_low_date,
      'Dividend', s_dividend, 'Yield', s_yield,
      'CoAddress', json_build_array(ca.ad_line1, ca.ad_line2, zca.zc_town, ca.ad_zc_code, zca.zc_div, ca.ad_ctry),
      'ExName', ex_name, 'ExDesc', ex_desc, 'ExOpen', ex_open, 'ExClose', ex_close, 'ExNumSymb', ex_num_symb,
      'ExAddress', json_build_array(ea.ad_line1, ea.ad_line2, zea.zc_town, ea.ad_zc_code, zea.zc_div, ea.ad_ctry)),
    co_id
  INTO v_sec, v_co_id
  FROM security, company, address ca, address ea, zip_code zca, zip_code zea, exchange
  WHERE s_symb = p_symbol AND co_id = s_co_id AND ca.ad_id = co_ad_id AND ea.ad_id = ex_ad_id
    AND ex_id = s_ex_id AND zca.zc_code = ca.ad_zc_code AND zea.zc_code = ea.ad_zc_code;
  IF NOT FOUND THEN PERFORM bb_check(1, 'security: no row'); END IF;
  SELECT COALESCE(json_agg(json_build_object('Name', co_name, 'Industry', in_name) ORDER BY co_name), '[]'::json) INTO v_competitors
  FROM (SELECT co_name, in_name FROM company_competitor, company, industry
    WHERE cp_co_id = v_co_id AND co_id = cp_comp_co_id AND in_id = cp_in_id
    ORDER BY co_name LIMIT 3) c;
  SELECT COALESCE(json_agg(json_build_array(fi_year, fi_qtr, fi_qtr_start_date, fi_revenue, fi_net_earn, fi_basic_eps, fi_dilut_eps,
      fi_margin, fi_inventory, fi_assets, fi_liability, fi_out_basic, fi_out_dilut) ORDER BY fi_year, fi_qtr), '[]'::json) INTO v_financials
  FROM (SELECT * FROM financial WHERE fi_co_id = v_co_id ORDER BY fi_year, fi_qtr LIMIT 20) f;
  SELECT COALESCE(json_agg(json_build_array(dm_date, dm_close, dm_high, dm_low, dm_vol) ORDER BY dm_date), '[]'::json) INTO v_days
  FROM (SELECT dm_date, dm_close, dm_high, dm_low, dm_vol FROM daily_market
    WHERE dm_s_symb = p_symbol AND dm_date >= p_start_day ORDER BY dm_date LIMIT p_max_rows) d;
  SELECT json_build_object('Price', lt_price, 'OpenPrice', lt_open_price, 'Vol', lt_vol) INTO v_last
  FROM last_trade WHERE lt_s_symb = p_symbol;
  IF NOT FOUND THEN PERFORM bb_check(1, 'last trade: no row'); END IF;
  IF p_access_lob THEN
    SELECT COALESCE(json_agg(json_build_object('Item', ni_item, 'When', bb_ts(ni_dts), 'Source', ni_source, 'Author', ni_author,
        'Headline', ni_headline, 'Summary', ni_summary) ORDER BY ni_id), '[]'::json) INTO v_news
    FROM (SELECT ni_id, ni_item, ni_dts, ni_source, ni_author, ni_headline, ni_summary FROM news_xref, news_item
      WHERE nx_co_id = v_co_id AND ni_id = nx_ni_id ORDER BY ni_id LIMIT 2) n;
  ELSE
    SELECT COALESCE(json_agg(json_build_object('Item', '', 'When', bb_ts(ni_dts), 'Source', ni_source, 'Author', ni_author,
        'Headline', ni_headline, 'Summary', ni_summary) ORDER BY ni_id), '[]'::json) INTO v_news
    FROM (SELECT ni_id, ni_dts, ni_source, ni_author, ni_headline, ni_summary FROM news_xref, news_item
      WHERE nx_co_id = v_co_id AND ni_id = nx_ni_id ORDER BY ni_id LIMIT 2) n;
  END IF;
  RETURN json_build_object('Security', v_sec, 'Competitors', v_competitors, 'Financials', v_financials,
    'Days', v_days, 'LastTrade', v_last, 'News', v_news);
END $$;
-- batch
-- The child rows of one trade, as txn.tradeChildrenAll reads them (Trade-Lookup and
-- Trade-Update frames 1-3): settlement, cash transaction for cash trades, up to three
-- history rows by time; a missing row or a history count outside 1-3 fails frame f.
CREATE OR REPLACE FUNCTION bb_trade_children(p_frame integer, p_t_id bigint, p_is_cash boolean) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v jsonb;
  v_cash jsonb := '{}'::jsonb;
  v_hist jsonb;
  v_n integer;
BEGIN
  SELECT jsonb_build_object('Settlement', se_amt, 'DueDate', bb_ts(se_cash_due_date), 'CashType', se_cash_type) INTO v
  FROM settlement WHERE se_t_id = p_t_id;
  IF NOT FOUND THEN PERFORM bb_check(p_frame, format('settlement: trade %s: no row', p_t_id)); END IF;
  IF p_is_cash THEN
    SELECT jsonb_build_object('CashAmount', ct_amt, 'CashWhen', bb_ts(ct_dts), 'CashName', COALESCE(ct_name, ''), 'HasCash', true) INTO v_cash
    FROM cash_transaction WHERE ct_t_id = p_t_id;
    IF NOT FOUND THEN PERFORM bb_check(p_frame, format('cash transaction: trade %s: no row', p_t_id)); END IF;
  END IF;
  SELECT jsonb_build_object('HistoryDTS', COALESCE(jsonb_agg(bb_ts(th_dts) ORDER BY th_dts), '[]'::jsonb),
      'HistoryStat', COALESCE(jsonb_agg(th_st_id ORDER BY th_dts), '[]'::jsonb)), count(*)
  INTO v_hist, v_n
  FROM (SELECT th_dts, th_st_id FROM trade_history WHERE th_t_id = p_t_id ORDER BY th_dts LIMIT 3) h;
  IF v_n < 1 OR v_n > 3 THEN PERFORM bb_check(p_frame, format('trade %s has %s history rows, want 1-3', p_t_id, v_n)); END IF;
  RETURN v || v_cash || v_hist;
END $$;
-- batch
-- The trades of a list by id (Trade-Lookup and Trade-Update frame 1): all are read
-- first, then their children; a missing trade fails frame 1.
CREATE OR REPLACE FUNCTION bb_trades_by_id(p_ids bigint[]) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_list jsonb[] := '{}';
  v_t jsonb;
  v_id bigint;
  v_out jsonb := '[]'::jsonb;
  i integer;
BEGIN
  FOREACH v_id IN ARRAY p_ids LOOP
    SELECT jsonb_build_object('TradeID', t_id, 'BidPrice', t_bid_price, 'ExecName', t_exec_name, 'IsCash', t_is_cash,
        'IsMarket', tt_is_mrkt, 'TradePrice', COALESCE(t_trade_price, 0)) INTO v_t
    FROM trade, trade_type WHERE t_id = v_id AND tt_id = t_tt_id;
    IF NOT FOUND THEN PERFORM bb_check(1, format('trade: trade %s: no row', v_id)); END IF;
    v_list := v_list || v_t;
  END LOOP;
  FOR i IN 1 .. COALESCE(array_length(v_list, 1), 0) LOOP
    v_out := v_out || jsonb_build_array(v_list[i] || bb_trade_children(1, (v_list[i]->>'TradeID')::bigint, (v_list[i]->>'IsCash')::boolean));
  END LOOP;
  RETURN v_out;
END $$;
-- batch
-- An account's trades in a window (frame 2) or a symbol's (frame 3), oldest first, at
-- most p_max, each with its children; p_names adds the type and security names
-- (Trade-Update frame 3).
CREATE OR REPLACE FUNCTION bb_trade_list(p_frame integer, p_acct_id bigint, p_symbol varchar, p_start timestamp, p_end timestamp,
  p_max integer, p_names boolean) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_list jsonb[];
  v_out jsonb := '[]'::jsonb;
  i integer;
BEGIN
  IF p_frame = 2 THEN
    SELECT array_agg(jsonb_build_object('AcctID', p_acct_id, 'BidPrice', t_bid_price, 'ExecName', t_exec_name, 'IsCash', t_is_cash,
        'TradeID', t_id, 'TradePrice', COALESCE(t_trade_price, 0), 'When', bb_ts(t_dts)) ORDER BY t_dts) INTO v_list
    FROM (SELECT * FROM trade WHERE t_ca_id = p_acct_id AND t_dts >= p_start AND t_dts <= p_end ORDER BY t_dts LIMIT p_max) t;
  ELSIF p_names THEN
    SELECT array_agg(jsonb_build_object('Symbol', p_symbol, 'AcctID', t_ca_id, 'ExecName', t_exec_name, 'IsCash', t_is_cash,
        'TradePrice', COALESCE(t_trade_price, 0), 'Qty', t_qty, 'When', bb_ts(t_dts), 'TradeID', t_id, 'TypeID', t_tt_id,
        'TypeName', tt_name, 'SecName', s_name) ORDER BY t_dts) INTO v_list
    FROM (SELECT t.*, tt_name, s_name FROM trade t, trade_type, security
      WHERE t_s_symb = p_symbol AND t_dts >= p_start AND t_dts <= p_end AND tt_id = t_tt_id AND s_symb = t_s_symb
      ORDER BY t_dts LIMIT p_max) t;
  ELSE
    SELECT array_agg(jsonb_build_object('Symbol', p_symbol, 'AcctID', t_ca_id, 'ExecName', t_exec_name, 'IsCash', t_is_cash,
        'TradePrice', COALESCE(t_trade_price, 0), 'Qty', t_qty, 'When', bb_ts(t_dts), 'TradeID', t_id, 'TypeID', t_tt_id) ORDER BY t_dts) INTO v_list
    FROM (SELECT * FROM trade WHERE t_s_symb = p_symbol AND t_dts >= p_start AND t_dts <= p_end ORDER BY t_dts LIMIT p_max) t;
  END IF;
  FOR i IN 1 .. COALESCE(array_length(v_list, 1), 0) LOOP
    v_out := v_out || jsonb_build_array(v_list[i] || bb_trade_children(p_frame, (v_list[i]->>'TradeID')::bigint, (v_list[i]->>'IsCash')::boolean));
  END LOOP;
  RETURN v_out;
END $$;
-- batch
-- Trade-Lookup frames 1-4 (txn/trade_lookup.go).
CREATE OR REPLACE FUNCTION bb_trade_lookup(p_frame integer, p_ids bigint[], p_acct_id bigint, p_symbol varchar,
  p_start timestamp, p_end timestamp, p_max integer) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_trades jsonb := '[]'::jsonb;
  v_hh jsonb := '[]'::jsonb;
  v_id bigint;
  v_n integer;
BEGIN
  IF p_frame = 1 THEN
    v_trades := bb_trades_by_id(p_ids);
  ELSIF p_frame IN (2, 3) THEN
    v_trades := bb_trade_list(p_frame, p_acct_id, p_symbol, p_start, p_end, p_max, false);
  ELSE
    SELECT t_id INTO v_id FROM trade WHERE t_ca_id = p_acct_id AND t_dts >= p_start ORDER BY t_dts LIMIT 1;
    IF FOUND THEN
      v_trades := jsonb_build_array(jsonb_build_object('TradeID', v_id, 'AcctID', p_acct_id));
      SELECT COALESCE(jsonb_agg(jsonb_build_object('HoldingTradeID', hh_h_t_id, 'TradeID', hh_t_id, 'Before', hh_before_qty,
          'After', hh_after_qty) ORDER BY hh_h_t_id, hh_t_id), '[]'::jsonb), count(*) INTO v_hh, v_n
      FROM (SELECT hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty FROM holding_history
        WHERE hh_h_t_id IN (SELECT hh_h_t_id FROM holding_history WHERE hh_t_id = v_id)
        ORDER BY hh_h_t_id, hh_t_id LIMIT p_max) h;
    END IF;
  END IF;
  RETURN json_build_object('Frame', p_frame, 'Trades', v_trades, 'HoldingHistory', v_hh);
END $$;
-- batch
-- Trade-Order frames 1-6 (txn/trade_order.go). Frame 5's rollbacks (an unauthorized
-- executor, the 1-in-101 input) raise BBR01 after the statements the client mode
-- sends before its ROLLBACK.
CREATE OR REPLACE FUNCTION bb_trade_order(p_acct_id bigint, p_exec_first varchar, p_exec_last varchar, p_exec_tax_id varchar,
  p_by_company boolean, p_symbol varchar, p_co_name varchar, p_issue varchar, p_trade_type varchar, p_is_margin boolean,
  p_lifo boolean, p_qty integer, p_requested numeric, p_rollback boolean, p_now timestamp, p_exec_name varchar,
  p_submitted varchar, p_pending varchar) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_acct_name varchar; v_broker bigint; v_cust bigint; v_tax_st integer;
  v_first varchar; v_last varchar; v_tier integer; v_cust_tax varchar; v_broker_name varchar;
  v_acl varchar;
  v_co bigint; v_ex varchar; v_sec_name varchar; v_symbol varchar; v_co_name varchar;
  v_market numeric; v_is_market boolean; v_is_sell boolean; v_hs integer;
  v_comm_rate numeric; v_charge numeric; v_bal numeric; v_held numeric; v_trade_id bigint;
  v_found_price boolean; v_found_type boolean; v_found_hs boolean; v_found_comm boolean; v_found_charge boolean;
  v_price bigint; v_buy bigint := 0; v_sell bigint := 0; v_needed integer; v_n integer;
  v_rate numeric; v_tax bigint := 0; v_comm bigint; v_status varchar;
  r record;
BEGIN
  -- frame 1
  SELECT ca_name, ca_b_id, ca_c_id, ca_tax_st INTO v_acct_name, v_broker, v_cust, v_tax_st FROM customer_account WHERE ca_id = p_acct_id;
  IF NOT FOUND THEN PERFORM bb_check(1, 'account: no row'); END IF;
  SELECT c_f_name, c_l_name, c_tier, c_tax_id INTO v_first, v_last, v_tier, v_cust_tax FROM customer WHERE c_id = v_cust;
  IF NOT FOUND THEN PERFORM bb_check(1, 'customer: no row'); END IF;
  SELECT b_name INTO v_broker_name FROM broker WHERE b_id = v_broker;
  IF NOT FOUND THEN PERFORM bb_check(1, 'broker: no row'); END IF;
  -- frame 2
  IF p_exec_tax_id <> v_cust_tax OR p_exec_first <> v_first OR p_exec_last <> v_last THEN
    SELECT ap_acl INTO v_acl FROM account_permission
    WHERE ap_ca_id = p_acct_id AND ap_f_name = p_exec_first AND ap_l_name = p_exec_last AND ap_tax_id = p_exec_tax_id;
    IF NOT FOUND THEN
      RAISE EXCEPTION USING ERRCODE = 'BBR01', MESSAGE = 'Trade-Order frame 5: unauthorized executor';
    END IF;
  END IF;
  -- frame 3
  IF p_by_company THEN
    SELECT co_id INTO v_co FROM company WHERE co_name = p_co_name;
    IF NOT FOUND THEN PERFORM bb_check(3, 'company by name: no row'); END IF;
    SELECT s_ex_id, s_name, s_symb INTO v_ex, v_sec_name, v_symbol FROM security WHERE s_co_id = v_co AND s_issue = p_issue;
    IF NOT FOUND THEN PERFORM bb_check(3, 'security by company: no row'); END IF;
  ELSE
    v_symbol := p_symbol;
    SELECT s_co_id, s_ex_id, s_name INTO v_co, v_ex, v_sec_name FROM security WHERE s_symb = p_symbol;
    IF NOT FOUND THEN PERFORM bb_check(3, 'security: no row'); END IF;
    SELECT co_name INTO v_co_name FROM company WHERE co_id = v_co;
    IF NOT FOUND THEN PERFORM bb_check(3, 'company: no row'); END IF;
  END IF;
  SELECT lt_price INTO v_market FROM last_trade WHERE lt_s_symb = v_symbol;
  v_found_price := FOUND;
  SELECT tt_is_mrkt, tt_is_sell INTO v_is_market, v_is_sell FROM trade_type WHERE tt_id = p_trade_type;
  v_found_type := FOUND;
  SELECT hs_qty INTO v_hs FROM holding_summary WHERE hs_ca_id = p_acct_id AND hs_s_symb = v_symbol;
  v_found_hs := FOUND;
  SELECT cr_rate INTO v_comm_rate FROM commission_rate
  WHERE cr_c_tier = v_tier AND cr_tt_id = p_trade_type AND cr_ex_id = v_ex AND cr_from_qty <= p_qty AND cr_to_qty >= p_qty
  LIMIT 1;
  v_found_comm := FOUND;
  SELECT ch_chrg INTO v_charge FROM charge WHERE ch_c_tier = v_tier AND ch_tt_id = p_trade_type;
  v_found_charge := FOUND;
  IF p_is_margin THEN
    SELECT ca_bal INTO v_bal FROM customer_account WHERE ca_id = p_acct_id;
    IF NOT FOUND THEN v_bal := NULL; END IF;
    SELECT COALESCE(SUM(hs_qty * lt_price), 0) INTO v_held FROM holding_summary, last_trade
    WHERE hs_ca_id = p_acct_id AND lt_s_symb = hs_s_symb;
  END IF;
  v_trade_id := nextval('seq_trade_id');
  IF NOT v_found_price THEN PERFORM bb_check(3, 'last trade: no row'); END IF;
  IF NOT v_found_type THEN PERFORM bb_check(3, 'trade type: no row'); END IF;
  IF NOT v_found_hs THEN v_hs := 0; END IF;
  v_price := (p_requested * 100)::bigint;
  IF v_is_market THEN v_price := (v_market * 100)::bigint; END IF;
  IF (v_is_sell AND v_hs > 0) OR (NOT v_is_sell AND v_hs < 0) THEN
    v_needed := p_qty;
    FOR r IN EXECUTE 'SELECT h_qty, (h_price * 100)::bigint AS cents FROM holding WHERE h_ca_id = $1 AND h_s_symb = $2 ORDER BY '
        || CASE WHEN p_lifo THEN 'h_dts DESC, h_t_id DESC' ELSE 'h_dts ASC, h_t_id ASC' END
      USING p_acct_id, v_symbol LOOP
      IF v_needed = 0 THEN CONTINUE; END IF;
      IF v_is_sell THEN
        v_n := LEAST(r.h_qty, v_needed);
        v_buy := v_buy + v_n * r.cents;
        v_sell := v_sell + v_n * v_price;
      ELSE
        v_n := LEAST(-r.h_qty, v_needed);
        v_sell := v_sell + v_n * r.cents;
        v_buy := v_buy + v_n * v_price;
      END IF;
      v_needed := v_needed - v_n;
    END LOOP;
  END IF;
  IF v_sell > v_buy AND v_tax_st IN (1, 2) THEN
    SELECT COALESCE(SUM(tx_rate), 0) INTO v_rate FROM taxrate
    WHERE tx_id IN (SELECT cx_tx_id FROM customer_taxrate WHERE cx_c_id = v_cust);
    v_tax := bb_cents_of((v_sell - v_buy)::float8 / 100 * v_rate::float8);
    IF v_tax <= 0 THEN PERFORM bb_check(3, format('taxable gain %s gave tax %s', v_sell - v_buy, v_tax)); END IF;
  END IF;
  IF NOT v_found_comm THEN PERFORM bb_check(3, 'commission rate: no row'); END IF;
  IF NOT v_found_charge THEN PERFORM bb_check(3, 'charge: no row'); END IF;
  IF v_comm_rate <= 0 OR v_charge <= 0 THEN
    PERFORM bb_check(3, format('commission rate %s and charge %s must be positive', v_comm_rate, v_charge));
  END IF;
  IF p_is_margin AND v_bal IS NULL THEN PERFORM bb_check(3, 'balance: no row'); END IF;
  v_status := p_submitted;
  IF NOT v_is_market THEN v_status := p_pending; END IF;
  -- frame 4
  v_comm := bb_cents_of(v_comm_rate::float8 / 100 * p_qty::float8 * v_price::float8 / 100);
  INSERT INTO trade (t_id, t_dts, t_st_id, t_tt_id, t_is_cash, t_s_symb, t_qty, t_bid_price,
    t_ca_id, t_exec_name, t_trade_price, t_chrg, t_comm, t_tax, t_lifo)
  VALUES (v_trade_id, p_now, v_status, p_trade_type, NOT p_is_margin, v_symbol, p_qty, v_price::numeric / 100,
    p_acct_id, left(p_exec_name, 49), NULL, v_charge, v_comm::numeric / 100, 0, p_lifo);
  IF NOT v_is_market THEN
    INSERT INTO trade_request (tr_t_id, tr_tt_id, tr_s_symb, tr_qty, tr_bid_price, tr_b_id)
    VALUES (v_trade_id, p_trade_type, v_symbol, p_qty, v_price::numeric / 100, v_broker);
  END IF;
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (v_trade_id, p_now, v_status);
  -- frame 5: the input's rollback
  IF p_rollback THEN
    RAISE EXCEPTION USING ERRCODE = 'BBR01', MESSAGE = 'Trade-Order frame 5: intended rollback';
  END IF;
  -- frame 6: the client commits
  RETURN json_build_object('TradeID', v_trade_id, 'Symbol', v_symbol, 'Price', v_price, 'IsMarket', v_is_market,
    'Tax', v_tax, 'CommRate', v_comm_rate, 'Charge', v_charge, 'Comm', v_comm, 'Status', v_status,
    'Assets', CASE WHEN p_is_margin THEN ((v_bal + v_held) * 100)::bigint ELSE 0 END);
END $$;
-- batch
-- Trade-Result frames 1-6 (txn/trade_result.go): the same locks in the same order
-- (TRADE, CUSTOMER_ACCOUNT, the HOLDING lots), every lot locked before any is moved.
CREATE OR REPLACE FUNCTION bb_trade_result(p_trade_id bigint, p_price numeric, p_now timestamp, p_submitted varchar,
  p_completed varchar) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_acct bigint; v_type varchar; v_symbol varchar; v_qty integer; v_charge numeric; v_lifo boolean; v_is_cash boolean; v_status varchar;
  v_type_name varchar; v_is_sell boolean; v_is_market boolean;
  v_broker bigint; v_cust bigint; v_tax_st integer;
  v_hs integer; v_hs_found boolean;
  v_price bigint := (p_price * 100)::bigint;
  v_needed integer; v_delta integer; v_new integer; v_size integer; v_n integer; v_after integer; v_lot integer;
  v_buy bigint := 0; v_sell bigint := 0;
  v_rate numeric; v_tax bigint := 0;
  v_ex varchar; v_sec_name varchar; v_tier integer; v_comm_rate numeric; v_comm bigint;
  v_amount bigint; v_cash_type varchar; v_balance numeric;
  v_rows bigint;
  v_lot_ids bigint[]; v_lot_qtys integer[]; v_lot_cents bigint[];
  l_id bigint; l_qty integer; l_cents bigint;
BEGIN
  -- frame 1
  SELECT t_ca_id, t_tt_id, t_s_symb, t_qty, t_chrg, t_lifo, t_is_cash, t_st_id
  INTO v_acct, v_type, v_symbol, v_qty, v_charge, v_lifo, v_is_cash, v_status
  FROM trade WHERE t_id = p_trade_id FOR UPDATE;
  IF NOT FOUND THEN PERFORM bb_check(1, format('trade %s: no row', p_trade_id)); END IF;
  IF v_status <> p_submitted THEN
    PERFORM bb_check(1, format('trade %s is %s, not %s', p_trade_id, v_status, p_submitted));
  END IF;
  SELECT tt_name, tt_is_sell, tt_is_mrkt INTO v_type_name, v_is_sell, v_is_market FROM trade_type WHERE tt_id = v_type;
  IF NOT FOUND THEN PERFORM bb_check(1, 'trade type: no row'); END IF;
  SELECT ca_b_id, ca_c_id, ca_tax_st INTO v_broker, v_cust, v_tax_st FROM customer_account WHERE ca_id = v_acct FOR UPDATE;
  IF NOT FOUND THEN PERFORM bb_check(1, 'account: no row'); END IF;
  SELECT hs_qty INTO v_hs FROM holding_summary WHERE hs_ca_id = v_acct AND hs_s_symb = v_symbol;
  v_hs_found := FOUND;
  IF NOT v_hs_found THEN v_hs := 0; END IF;
  -- frame 2
  v_needed := v_qty;
  v_delta := CASE WHEN v_is_sell THEN -v_qty ELSE v_qty END;
  v_new := v_hs + v_delta;
  IF NOT v_hs_found THEN
    INSERT INTO holding_summary (hs_ca_id, hs_s_symb, hs_qty) VALUES (v_acct, v_symbol, v_new);
  ELSIF v_new <> 0 THEN
    UPDATE holding_summary SET hs_qty = v_new WHERE hs_ca_id = v_acct AND hs_s_symb = v_symbol;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    IF v_rows <> 1 THEN PERFORM bb_check(2, format('update holding summary changed %s rows, want 1', v_rows)); END IF;
  END IF;
  IF (v_is_sell AND v_hs > 0) OR (NOT v_is_sell AND v_hs < 0) THEN
    -- Every lot is read and locked first, as the client mode reads them all.
    EXECUTE 'SELECT array_agg(h_t_id ORDER BY o), array_agg(h_qty ORDER BY o), array_agg(cents ORDER BY o) FROM ('
        || 'SELECT h_t_id, h_qty, (h_price * 100)::bigint AS cents, row_number() OVER () AS o FROM ('
        || 'SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = $1 AND h_s_symb = $2 ORDER BY '
        || CASE WHEN v_lifo THEN 'h_dts DESC, h_t_id DESC' ELSE 'h_dts ASC, h_t_id ASC' END || ' FOR UPDATE) l) n'
      INTO v_lot_ids, v_lot_qtys, v_lot_cents
      USING v_acct, v_symbol;
    FOR i IN 1 .. COALESCE(array_length(v_lot_ids, 1), 0) LOOP
      EXIT WHEN v_needed = 0;
      l_id := v_lot_ids[i];
      l_qty := v_lot_qtys[i];
      l_cents := v_lot_cents[i];
      v_size := CASE WHEN v_is_sell THEN l_qty ELSE -l_qty END;
      CONTINUE WHEN v_size <= 0;
      v_n := LEAST(v_size, v_needed);
      v_after := CASE WHEN v_is_sell THEN l_qty - v_n ELSE l_qty + v_n END;
      INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES (l_id, p_trade_id, l_qty, v_after);
      IF v_after = 0 THEN
        DELETE FROM holding WHERE h_t_id = l_id;
      ELSE
        UPDATE holding SET h_qty = v_after WHERE h_t_id = l_id;
      END IF;
      GET DIAGNOSTICS v_rows = ROW_COUNT;
      IF v_rows <> 1 THEN PERFORM bb_check(2, format('holding %s changed %s rows, want 1', l_id, v_rows)); END IF;
      IF v_is_sell THEN
        v_buy := v_buy + v_n * l_cents;
        v_sell := v_sell + v_n * v_price;
      ELSE
        v_sell := v_sell + v_n * l_cents;
        v_buy := v_buy + v_n * v_price;
      END IF;
      v_needed := v_needed - v_n;
    END LOOP;
  END IF;
  IF v_needed > 0 THEN
    v_lot := CASE WHEN v_is_sell THEN -v_needed ELSE v_needed END;
    INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES (p_trade_id, p_trade_id, 0, v_lot);
    INSERT INTO holding (h_t_id, h_ca_id, h_s_symb, h_dts, h_price, h_qty) VALUES (p_trade_id, v_acct, v_symbol, p_now, p_price, v_lot);
  ELSIF v_hs_found AND v_new = 0 THEN
    DELETE FROM holding_summary WHERE hs_ca_id = v_acct AND hs_s_symb = v_symbol;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    IF v_rows <> 1 THEN PERFORM bb_check(2, format('delete holding summary changed %s rows, want 1', v_rows)); END IF;
  END IF;
  -- frame 3
  IF v_tax_st IN (1, 2) AND v_sell > v_buy THEN
    SELECT COALESCE(SUM(tx_rate), 0) INTO v_rate FROM taxrate
    WHERE tx_id IN (SELECT cx_tx_id FROM customer_taxrate WHERE cx_c_id = v_cust);
    v_tax := bb_cents_of((v_sell - v_buy)::float8 / 100 * v_rate::float8);
    IF v_tax < 0 THEN PERFORM bb_check(3, format('tax %s is negative', v_tax)); END IF;
    UPDATE trade SET t_tax = v_tax::numeric / 100 WHERE t_id = p_trade_id;
  END IF;
  -- frame 4
  SELECT s_ex_id, s_name INTO v_ex, v_sec_name FROM security WHERE s_symb = v_symbol;
  IF NOT FOUND THEN PERFORM bb_check(4, 'security: no row'); END IF;
  SELECT c_tier INTO v_tier FROM customer WHERE c_id = v_cust;
  IF NOT FOUND THEN PERFORM bb_check(4, 'customer: no row'); END IF;
  SELECT cr_rate INTO v_comm_rate FROM commission_rate
  WHERE cr_c_tier = v_tier AND cr_tt_id = v_type AND cr_ex_id = v_ex AND cr_from_qty <= v_qty AND cr_to_qty >= v_qty
  LIMIT 1;
  IF NOT FOUND THEN PERFORM bb_check(4, 'commission rate: no row'); END IF;
  IF v_comm_rate <= 0 THEN PERFORM bb_check(4, format('commission rate %s is not positive', v_comm_rate)); END IF;
  -- frame 5
  v_comm := bb_cents_of(v_comm_rate::float8 / 100 * v_qty::float8 * v_price::float8 / 100);
  UPDATE trade SET t_comm = v_comm::numeric / 100, t_dts = p_now, t_st_id = p_completed, t_trade_price = p_price WHERE t_id = p_trade_id;
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (p_trade_id, p_now, p_completed);
  UPDATE broker SET b_comm_total = b_comm_total + v_comm::numeric / 100, b_num_trades = b_num_trades + 1 WHERE b_id = v_broker;
  GET DIAGNOSTICS v_rows = ROW_COUNT;
  IF v_rows <> 1 THEN PERFORM bb_check(5, format('update broker changed %s rows, want 1', v_rows)); END IF;
  -- frame 6
  IF v_is_sell THEN
    v_amount := v_qty * v_price - (v_charge * 100)::bigint - v_comm;
  ELSE
    v_amount := -(v_qty * v_price + (v_charge * 100)::bigint + v_comm);
  END IF;
  IF v_tax_st = 1 THEN v_amount := v_amount - v_tax; END IF;
  v_cash_type := CASE WHEN v_is_cash THEN 'Cash Account' ELSE 'Margin' END;
  INSERT INTO settlement (se_t_id, se_cash_type, se_cash_due_date, se_amt)
  VALUES (p_trade_id, v_cash_type, p_now::date + 2, v_amount::numeric / 100);
  IF v_is_cash THEN
    UPDATE customer_account SET ca_bal = ca_bal + v_amount::numeric / 100 WHERE ca_id = v_acct;
    INSERT INTO cash_transaction (ct_t_id, ct_dts, ct_amt, ct_name)
    VALUES (p_trade_id, p_now, v_amount::numeric / 100, left(format('%s %s shares of %s', v_type_name, v_qty, v_sec_name), 100));
  END IF;
  SELECT ca_bal INTO v_balance FROM customer_account WHERE ca_id = v_acct;
  IF NOT FOUND THEN PERFORM bb_check(6, 'balance: no row'); END IF;
  RETURN json_build_object('AcctID', v_acct, 'Balance', v_balance, 'Tax', v_tax::numeric / 100, 'Comm', v_comm::numeric / 100);
END $$;
-- batch
-- Trade-Status frame 1 (txn/trade_status.go), as rows the client scans as client mode
-- scans its statements' (50 trades decoded from JSON cost the driver more than the rows
-- do): one row per trade, newest first, then one row whose last three columns are the
-- customer's and the broker's names (empty on the trade rows; its trade columns are
-- placeholders). Version 1 returned JSON: a function's result type cannot be replaced,
-- so it is dropped first.
DROP FUNCTION IF EXISTS bb_trade_status;
-- batch
CREATE OR REPLACE FUNCTION bb_trade_status(p_acct_id bigint) RETURNS TABLE (
  o_t_id bigint, o_t_dts timestamp, o_st_name varchar, o_tt_name varchar, o_symbol varchar, o_qty integer,
  o_exec_name varchar, o_chrg numeric, o_s_name varchar, o_ex_name varchar,
  o_first varchar, o_last varchar, o_broker varchar)
LANGUAGE plpgsql AS $$
DECLARE
  v_last varchar; v_first varchar; v_broker varchar;
BEGIN
  RETURN QUERY SELECT t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name,
      ''::varchar, ''::varchar, ''::varchar
    FROM trade, status_type, trade_type, security, exchange
    WHERE t_ca_id = p_acct_id AND st_id = t_st_id AND tt_id = t_tt_id AND s_symb = t_s_symb AND ex_id = s_ex_id
    ORDER BY t_dts DESC
    LIMIT 50;
  SELECT c_l_name, c_f_name, b_name INTO v_last, v_first, v_broker
  FROM customer_account, customer, broker
  WHERE ca_id = p_acct_id AND c_id = ca_c_id AND b_id = ca_b_id;
  IF NOT FOUND THEN PERFORM bb_check(1, 'customer and broker: no row'); END IF;
  RETURN QUERY SELECT 0::bigint, 'epoch'::timestamp, ''::varchar, ''::varchar, ''::varchar, 0, ''::varchar, 0::numeric,
    ''::varchar, ''::varchar, v_first, v_last, v_broker;
END $$;
-- batch
-- Trade-Update frames 1-3 (txn/trade_update.go): each trade's value is read, then
-- written toggled, then the frame reads what Trade-Lookup's frame reads.
CREATE OR REPLACE FUNCTION bb_trade_update(p_frame integer, p_ids bigint[], p_acct_id bigint, p_symbol varchar,
  p_start timestamp, p_end timestamp, p_max integer) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_trades jsonb := '[]'::jsonb;
  v_list jsonb;
  v_updated integer := 0;
  v_id bigint;
  v_cur varchar;
  v_next varchar;
  v_t jsonb;
  v_n integer;
  i integer;
BEGIN
  IF p_frame = 1 THEN
    FOR i IN 1 .. LEAST(COALESCE(array_length(p_ids, 1), 0), p_max) LOOP
      SELECT t_exec_name INTO v_cur FROM trade WHERE t_id = p_ids[i];
      IF NOT FOUND THEN PERFORM bb_check(1, 'executor name: no row'); END IF;
      IF strpos(v_cur, ' X ') > 0 THEN
        v_next := regexp_replace(v_cur, ' X ', ' ');
      ELSE
        v_next := regexp_replace(v_cur, ' ', ' X ');
      END IF;
      UPDATE trade SET t_exec_name = left(v_next, 49) WHERE t_id = p_ids[i];
      GET DIAGNOSTICS v_n = ROW_COUNT;
      IF v_n <> 1 THEN PERFORM bb_check(1, format('update executor name changed %s rows, want 1', v_n)); END IF;
      v_updated := v_updated + 1;
    END LOOP;
    v_trades := bb_trades_by_id(p_ids);
    IF jsonb_array_length(v_trades) <> COALESCE(array_length(p_ids, 1), 0) OR v_updated <> COALESCE(array_length(p_ids, 1), 0) THEN
      PERFORM bb_check(1, format('found %s and updated %s of %s trades', jsonb_array_length(v_trades), v_updated, COALESCE(array_length(p_ids, 1), 0)));
    END IF;
  ELSIF p_frame = 2 THEN
    FOR v_t IN SELECT jsonb_build_object('TradeID', t_id, 'IsCash', t_is_cash)
        FROM (SELECT t_id, t_is_cash FROM trade WHERE t_ca_id = p_acct_id AND t_dts >= p_start AND t_dts <= p_end ORDER BY t_dts LIMIT p_max) t LOOP
      v_id := (v_t->>'TradeID')::bigint;
      SELECT se_cash_type INTO v_cur FROM settlement WHERE se_t_id = v_id;
      IF NOT FOUND THEN PERFORM bb_check(2, 'settlement: no row'); END IF;
      IF (v_t->>'IsCash')::boolean THEN
        v_next := CASE WHEN v_cur = 'Cash Account' THEN 'Cash' ELSE 'Cash Account' END;
      ELSE
        v_next := CASE WHEN v_cur = 'Margin' THEN 'Margin Account' ELSE 'Margin' END;
      END IF;
      UPDATE settlement SET se_cash_type = v_next WHERE se_t_id = v_id;
      GET DIAGNOSTICS v_n = ROW_COUNT;
      IF v_n <> 1 THEN PERFORM bb_check(2, format('update cash type changed %s rows, want 1', v_n)); END IF;
      v_updated := v_updated + 1;
    END LOOP;
    v_trades := bb_trade_list(2, p_acct_id, p_symbol, p_start, p_end, p_max, false);
    IF v_updated <> jsonb_array_length(v_trades) THEN
      PERFORM bb_check(2, format('updated %s of %s trades found', v_updated, jsonb_array_length(v_trades)));
    END IF;
  ELSE
    FOR v_id IN SELECT t_id FROM (SELECT t_id, t_is_cash, t_dts FROM trade, trade_type, security
        WHERE t_s_symb = p_symbol AND t_dts >= p_start AND t_dts <= p_end AND tt_id = t_tt_id AND s_symb = t_s_symb
        ORDER BY t_dts LIMIT p_max) t WHERE t_is_cash ORDER BY t_dts LOOP
      SELECT ct_name INTO v_cur FROM cash_transaction WHERE ct_t_id = v_id;
      IF NOT FOUND THEN PERFORM bb_check(3, 'cash transaction: no row'); END IF;
      v_cur := COALESCE(v_cur, '');
      IF strpos(v_cur, ' shares ') > 0 THEN
        v_next := regexp_replace(v_cur, ' shares ', ' Shares ');
      ELSE
        v_next := regexp_replace(v_cur, ' Shares ', ' shares ');
      END IF;
      UPDATE cash_transaction SET ct_name = left(v_next, 100) WHERE ct_t_id = v_id;
      GET DIAGNOSTICS v_n = ROW_COUNT;
      IF v_n <> 1 THEN PERFORM bb_check(3, format('update cash name changed %s rows, want 1', v_n)); END IF;
      v_updated := v_updated + 1;
    END LOOP;
    v_trades := bb_trade_list(3, p_acct_id, p_symbol, p_start, p_end, p_max, true);
    IF jsonb_array_length(v_trades) = 0 THEN
      PERFORM bb_check(3, format('no trade of %s in the window', p_symbol));
    END IF;
  END IF;
  RETURN json_build_object('Frame', p_frame, 'Trades', v_trades, 'Updated', v_updated);
END $$;
-- batch
-- Data-Maintenance frame 1 (txn/data_maintenance.go). The client passes what it
-- derives without the database: the mailbox for a customer without one and the
-- EXCHANGE stamp of its clock.
CREATE OR REPLACE FUNCTION bb_data_maintenance(p_table varchar, p_acct_id bigint, p_cust_id bigint, p_co_id bigint,
  p_addr_of_cust boolean, p_symbol varchar, p_day integer, p_vol_incr integer, p_tax_id varchar, p_box varchar, p_stamp varchar,
  p_marker varchar) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_cur varchar;
  v_next varchar;
  v_box varchar;
  v_domain varchar;
  v_id bigint;
  v_n bigint := 0;
  v_c bigint;
  v_day integer;
  v_ids varchar[] := ARRAY['US1', 'US2', 'US3', 'US4', 'US5', 'CN1', 'CN2', 'CN3', 'CN4'];
  v_i integer;
  v_syms varchar[];
  v_wl bigint;
  r record;
BEGIN
  CASE p_table
  WHEN 'account_permission' THEN
    SELECT ap_acl INTO v_cur FROM account_permission WHERE ap_ca_id = p_acct_id ORDER BY ap_acl DESC LIMIT 1;
    IF NOT FOUND THEN PERFORM bb_check(1, 'account_permission: no row'); END IF;
    v_cur := COALESCE(v_cur, '');
    v_next := CASE WHEN v_cur = '1111' THEN '0011' ELSE '1111' END;
    UPDATE account_permission SET ap_acl = v_next WHERE ap_ca_id = p_acct_id AND ap_acl = v_cur;
    GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 'address' THEN
    IF p_addr_of_cust THEN
      SELECT c_ad_id INTO v_id FROM customer WHERE c_id = p_cust_id;
    ELSE
      SELECT co_ad_id INTO v_id FROM company WHERE co_id = p_co_id;
    END IF;
    IF NOT FOUND THEN PERFORM bb_check(1, 'address id: no row'); END IF;
    SELECT ad_line2 INTO v_cur FROM address WHERE ad_id = v_id;
    IF NOT FOUND THEN PERFORM bb_check(1, 'address: no row'); END IF;
    v_next := CASE WHEN v_cur = 'Apt. 10C' THEN 'Apt. 22' ELSE 'Apt. 10C' END;
    UPDATE address SET ad_line2 = v_next WHERE ad_id = v_id;
    GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 'company' THEN
    SELECT co_sp_rate INTO v_cur FROM company WHERE co_id = p_co_id;
    IF NOT FOUND THEN PERFORM bb_check(1, 'company: no row'); END IF;
    v_next := CASE WHEN v_cur = 'ABA' THEN 'AAA' ELSE 'ABA' END;
    UPDATE company SET co_sp_rate = v_next WHERE co_id = p_co_id;
    GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 'customer' THEN
    SELECT c_email_2 INTO v_cur FROM customer WHERE c_id = p_cust_id;
    IF NOT FOUND THEN PERFORM bb_check(1, 'customer: no row'); END IF;
    v_cur := COALESCE(v_cur, '');
    v_box := split_part(v_cur, '@', 1);
    v_domain := CASE WHEN strpos(v_cur, '@') > 0 THEN substr(v_cur, strpos(v_cur, '@') + 1) ELSE '' END;
    IF v_box = '' THEN v_box := p_box; END IF;
    v_next := CASE WHEN v_domain = 'mindspring.com' THEN 'earthlink.com' ELSE 'mindspring.com' END;
    UPDATE customer SET c_email_2 = left(v_box || '@' || v_next, 50) WHERE c_id = p_cust_id;
    GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 'customer_taxrate' THEN
    SELECT cx_tx_id INTO v_cur FROM customer_taxrate WHERE cx_c_id = p_cust_id AND (cx_tx_id LIKE 'US%' OR cx_tx_id LIKE 'CN%');
    IF NOT FOUND THEN PERFORM bb_check(1, 'customer_taxrate: no row'); END IF;
    v_i := array_position(v_ids, v_cur::varchar);
    IF v_i IS NULL THEN
      v_next := v_ids[1];
    ELSIF v_i <= 5 THEN
      v_next := v_ids[v_i % 5 + 1];
    ELSE
      v_next := v_ids[6 + (v_i - 6 + 1) % 4];
    END IF;
    UPDATE customer_taxrate SET cx_tx_id = v_next WHERE cx_c_id = p_cust_id AND cx_tx_id = v_cur;
    GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 'daily_market' THEN
    UPDATE daily_market SET dm_vol = dm_vol + p_vol_incr WHERE dm_s_symb = p_symbol AND EXTRACT(DAY FROM dm_date) = p_day;
    GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 'exchange' THEN
    FOR r IN SELECT ex_id, COALESCE(ex_desc, '') AS d FROM exchange ORDER BY ex_id LOOP
      v_next := CASE WHEN strpos(r.d, p_marker) > 0 THEN substr(r.d, 1, strpos(r.d, p_marker) - 1) ELSE r.d END;
      UPDATE exchange SET ex_desc = left(v_next, 150 - length(p_stamp)) || p_stamp WHERE ex_id = r.ex_id;
      GET DIAGNOSTICS v_c = ROW_COUNT;
      v_n := v_n + v_c;
    END LOOP;
  WHEN 'financial' THEN
    SELECT CAST(EXTRACT(DAY FROM MIN(fi_qtr_start_date)) AS INTEGER) INTO v_day FROM financial WHERE fi_co_id = p_co_id;
    UPDATE financial SET fi_qtr_start_date = fi_qtr_start_date + CASE WHEN v_day = 1 THEN 1 ELSE -1 END WHERE fi_co_id = p_co_id;
    GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 'news_item' THEN
    UPDATE news_item SET ni_dts = ni_dts + INTERVAL '1 day' WHERE ni_id IN (SELECT nx_ni_id FROM news_xref WHERE nx_co_id = p_co_id);
    GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 'security' THEN
    UPDATE security SET s_exch_date = s_exch_date + 1 WHERE s_symb = p_symbol;
    GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 'taxrate' THEN
    SELECT tx_name INTO v_cur FROM taxrate WHERE tx_id = p_tax_id;
    IF NOT FOUND THEN PERFORM bb_check(1, 'taxrate: no row'); END IF;
    v_cur := COALESCE(v_cur, '');
    v_next := regexp_replace(v_cur, 'Tax', 'tax');
    IF v_next = v_cur THEN v_next := regexp_replace(v_cur, 'tax', 'Tax'); END IF;
    IF v_next = v_cur THEN v_next := v_cur || ' Tax'; END IF;
    UPDATE taxrate SET tx_name = left(v_next, 50) WHERE tx_id = p_tax_id;
    GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 'watch_item' THEN
    SELECT array_agg(wi_s_symb ORDER BY wi_s_symb), max(wi_wl_id) INTO v_syms, v_wl
    FROM watch_list, watch_item WHERE wl_c_id = p_cust_id AND wi_wl_id = wl_id;
    IF v_syms IS NULL THEN PERFORM bb_check(1, 'watch items: no row'); END IF;
    v_cur := v_syms[array_length(v_syms, 1) / 2 + 1];
    SELECT MIN(s_symb) INTO v_next FROM security WHERE s_symb > v_cur AND s_symb NOT IN (SELECT wi_s_symb FROM watch_item WHERE wi_wl_id = v_wl);
    IF v_next IS NULL THEN
      SELECT MIN(s_symb) INTO v_next FROM security WHERE s_symb > '' AND s_symb NOT IN (SELECT wi_s_symb FROM watch_item WHERE wi_wl_id = v_wl);
      IF v_next IS NULL THEN PERFORM bb_check(1, format('watch list %s holds every security', v_wl)); END IF;
    END IF;
    UPDATE watch_item SET wi_s_symb = v_next WHERE wi_wl_id = v_wl AND wi_s_symb = v_cur;
    GET DIAGNOSTICS v_n = ROW_COUNT;
  ELSE
    RAISE EXCEPTION 'data maintenance: unknown table %', p_table;
  END CASE;
  IF v_n = 0 THEN PERFORM bb_check(1, format('%s: no row changed', p_table)); END IF;
  RETURN json_build_object('Table', p_table, 'Changed', v_n);
END $$;
-- batch
-- Trade-Cleanup (txn/trade_cleanup.go).
CREATE OR REPLACE FUNCTION bb_trade_cleanup(p_now timestamp, p_first_run_id bigint, p_submitted varchar, p_canceled varchar) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
  v_pending integer := 0;
  v_submitted integer := 0;
BEGIN
  FOR v_id IN SELECT tr_t_id FROM trade_request ORDER BY tr_t_id LOOP
    INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (v_id, p_now, p_submitted);
    UPDATE trade SET t_dts = p_now, t_st_id = p_canceled WHERE t_id = v_id;
    IF NOT FOUND THEN PERFORM bb_check(1, format('cancel trade %s changed 0 rows, want 1', v_id)); END IF;
    INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (v_id, p_now, p_canceled);
    v_pending := v_pending + 1;
  END LOOP;
  DELETE FROM trade_request;
  FOR v_id IN SELECT t_id FROM trade WHERE t_id >= p_first_run_id AND t_st_id = p_submitted ORDER BY t_id LOOP
    UPDATE trade SET t_dts = p_now, t_st_id = p_canceled WHERE t_id = v_id;
    IF NOT FOUND THEN PERFORM bb_check(1, format('cancel trade %s changed 0 rows, want 1', v_id)); END IF;
    INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (v_id, p_now, p_canceled);
    v_submitted := v_submitted + 1;
  END LOOP;
  RETURN json_build_object('Pending', v_pending, 'Submitted', v_submitted);
END $$;
