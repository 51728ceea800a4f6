-- brokerbench server frames for SQL Server (docs/workload.md §13).
--
-- One T-SQL procedure per transaction (Market-Feed: per ticker entry), called once
-- inside the transaction the client opens at the transaction's isolation level. Each
-- runs the statements of the client mode's T-SQL frames (txn/<transaction>.go, the
-- SQL Server text where it differs) in the same order, with the same row limits and
-- the same locking hints (Trade-Result's UPDLOCK, ROWLOCK), takes the same inputs as
-- parameters (times included, so both modes write the same rows; a list as a JSON
-- array, read with OPENJSON: T-SQL has no array parameters) and returns the frames'
-- outputs as one JSON document the client decodes into the client mode's output
-- values (Trade-Status: rows, as txn/routines/postgres.sql says).
--
-- Written for SQL Server 2016 and later and for Babelfish for PostgreSQL alike: JSON
-- is put together from FOR JSON PATH fragments by concatenation (Babelfish quotes a
-- nested FOR JSON subquery as a string; it has no FOR JSON AUTO, no STRING_AGG ...
-- WITHIN GROUP), a time is rendered by CONVERT style 126 with any blank made a "T"
-- (Babelfish puts a blank there), a procedure is dropped and created again (Babelfish
-- has no CREATE OR ALTER), loops walk table variables numbered by IDENTITY, and text
-- is compared case-sensitively where the client mode's Go code compares it.
--
-- Error numbers the client classifies (never the message): 50001 is the transaction's
-- intended rollback; 5001n a failed output check of frame n, thrown before the commit
-- as the client mode fails it, with the client mode's message. Money crosses as
-- DECIMAL and is computed in cents with the client's float64 rounding (FLOOR of a
-- FLOAT, half away from zero), so tax and commission come out to the same cent.
--
-- Statements are separated by a line "-- batch"; txn.InstallRoutines sends them one
-- by one in one transaction, then records the version in bb_routines.

IF OBJECT_ID('bb_routines') IS NULL
  CREATE TABLE bb_routines (
    version INT NOT NULL,
    source_sha256 VARCHAR(64) NOT NULL,
    installed_at DATETIME2(3) NOT NULL
  );
-- batch
-- Broker-Volume frame 1 (txn/broker_volume.go).
DROP PROCEDURE IF EXISTS bb_broker_volume;
-- batch
CREATE PROCEDURE bb_broker_volume @p_sector VARCHAR(30), @p_brokers VARCHAR(MAX) AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @r NVARCHAR(MAX);
  SET @r = (SELECT b_name AS Broker, volume AS Volume
    FROM (SELECT b_name, SUM(tr_qty * tr_bid_price) AS volume
      FROM trade_request, sector, industry, company, broker, security
      WHERE tr_b_id = b_id AND tr_s_symb = s_symb AND s_co_id = co_id AND co_in_id = in_id
        AND sc_id = in_sc_id AND sc_name = @p_sector
        AND b_name IN (SELECT CAST(value AS VARCHAR(49)) FROM OPENJSON(@p_brokers))
      GROUP BY b_name) v
    ORDER BY volume DESC
    FOR JSON PATH);
  SELECT COALESCE(@r, N'[]');
END;
-- batch
-- Customer-Position frames 1-3 (txn/customer_position.go).
DROP PROCEDURE IF EXISTS bb_customer_position;
-- batch
CREATE PROCEDURE bb_customer_position @p_cust_id BIGINT, @p_tax_id VARCHAR(20), @p_get_history BIT, @p_acct_idx INT AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @cust BIGINT = @p_cust_id, @n INT, @acct BIGINT, @accounts NVARCHAR(MAX), @history NVARCHAR(MAX) = N'[]';
  DECLARE @c_st_id VARCHAR(4), @c_l_name VARCHAR(25), @c_f_name VARCHAR(20), @c_tier SMALLINT, @c_dob DATE;
  DECLARE @acc TABLE (o INT IDENTITY(1,1) PRIMARY KEY, ca_id BIGINT, ca_bal DECIMAL(12,2), assets DECIMAL(38,2));
  IF @p_tax_id <> ''
  BEGIN
    SELECT @cust = c_id FROM customer WHERE c_tax_id = @p_tax_id;
    IF @@ROWCOUNT = 0 THROW 50011, 'customer by tax id: no row', 1;
  END;
  SELECT @c_st_id = c_st_id, @c_l_name = c_l_name, @c_f_name = c_f_name, @c_tier = c_tier, @c_dob = c_dob
  FROM customer WHERE c_id = @cust;
  IF @@ROWCOUNT = 0 THROW 50011, 'customer: no row', 1;
  INSERT INTO @acc (ca_id, ca_bal, assets)
  SELECT TOP (10) ca_id, ca_bal, COALESCE(SUM(hs_qty * lt_price), 0) AS assets
  FROM customer_account
  LEFT JOIN (holding_summary JOIN last_trade ON lt_s_symb = hs_s_symb) ON hs_ca_id = ca_id
  WHERE ca_c_id = @cust
  GROUP BY ca_id, ca_bal
  ORDER BY assets ASC, ca_id;
  SET @n = @@ROWCOUNT;
  IF @n < 1 THROW 50011, '0 accounts, want 1-10', 1;
  SET @accounts = (SELECT ca_id AS AcctID, ca_bal AS Cash, assets AS Assets FROM @acc ORDER BY o FOR JSON PATH);
  IF @p_get_history = 1
  BEGIN
    SELECT @acct = ca_id FROM @acc WHERE o = (CASE WHEN @p_acct_idx < @n - 1 THEN @p_acct_idx ELSE @n - 1 END) + 1;
    SET @history = COALESCE((SELECT t_id AS TradeID, t_s_symb AS Symbol, t_qty AS Qty, st_name AS Status,
        REPLACE(CONVERT(VARCHAR(30), th_dts, 126), ' ', 'T') + 'Z' AS [When]
      FROM (SELECT TOP (30) t_id, t_s_symb, t_qty, st_name, th_dts
        FROM (SELECT TOP (10) t_id AS id FROM trade WHERE t_ca_id = @acct ORDER BY t_dts DESC) AS recent,
          trade, trade_history, status_type
        WHERE t_id = recent.id AND th_t_id = t_id AND st_id = th_st_id
        ORDER BY th_dts DESC, t_id) h
      ORDER BY th_dts DESC, t_id
      FOR JSON PATH), N'[]');
  END;
  SELECT CONCAT(N'{"CustID":', @cust, N',"Accounts":', @accounts, N',"History":', @history, N'}');
END;
-- batch
-- Market-Feed, one ticker entry (txn/market_feed.go): the client calls it once per
-- entry, each in its own repeatable-read transaction.
DROP PROCEDURE IF EXISTS bb_market_feed;
-- batch
CREATE PROCEDURE bb_market_feed @p_price DECIMAL(12,2), @p_qty INT, @p_now DATETIME2, @p_symbol VARCHAR(15),
  @p_stop_loss VARCHAR(3), @p_limit_sell VARCHAR(3), @p_limit_buy VARCHAR(3), @p_submitted VARCHAR(4) AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @n INT, @rows INT, @i INT = 1, @id BIGINT, @out NVARCHAR(MAX), @msg NVARCHAR(2048);
  DECLARE @req TABLE (o INT IDENTITY(1,1) PRIMARY KEY, id BIGINT, tt VARCHAR(3), symb VARCHAR(15), qty INT, price DECIMAL(12,2));
  UPDATE last_trade SET lt_price = @p_price, lt_vol = lt_vol + @p_qty, lt_dts = @p_now WHERE lt_s_symb = @p_symbol;
  SET @n = @@ROWCOUNT;
  IF @n <> 1
  BEGIN
    SET @msg = CONCAT('update last trade changed ', @n, ' rows, want 1');
    THROW 50011, @msg, 1;
  END;
  INSERT INTO @req (id, tt, symb, qty, price)
  SELECT tr_t_id, tr_tt_id, tr_s_symb, tr_qty, tr_bid_price
  FROM trade_request
  WHERE tr_s_symb = @p_symbol
    AND ((tr_tt_id = @p_stop_loss AND tr_bid_price >= @p_price)
      OR (tr_tt_id = @p_limit_sell AND tr_bid_price <= @p_price)
      OR (tr_tt_id = @p_limit_buy AND tr_bid_price >= @p_price))
  ORDER BY tr_t_id;
  SET @n = @@ROWCOUNT;
  SET @out = (SELECT id AS TradeID, tt AS TradeType, symb AS Symbol, qty AS Qty, CAST(price * 100 AS BIGINT) AS Price
    FROM @req ORDER BY o FOR JSON PATH);
  WHILE @i <= @n
  BEGIN
    SELECT @id = id FROM @req WHERE o = @i;
    UPDATE trade SET t_dts = @p_now, t_st_id = @p_submitted WHERE t_id = @id;
    SET @rows = @@ROWCOUNT;
    IF @rows <> 1
    BEGIN
      SET @msg = CONCAT('submit trade changed ', @rows, ' rows, want 1');
      THROW 50011, @msg, 1;
    END;
    DELETE FROM trade_request WHERE tr_t_id = @id;
    SET @rows = @@ROWCOUNT;
    IF @rows <> 1
    BEGIN
      SET @msg = CONCAT('delete trade request changed ', @rows, ' rows, want 1');
      THROW 50011, @msg, 1;
    END;
    INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (@id, @p_now, @p_submitted);
    SET @i = @i + 1;
  END;
  SELECT COALESCE(@out, N'[]');
END;
-- batch
-- Market-Watch frame 1 (txn/market_watch.go): the client's float64 sums.
DROP PROCEDURE IF EXISTS bb_market_watch;
-- batch
CREATE PROCEDURE bb_market_watch @p_by INT, @p_cust_id BIGINT, @p_acct_id BIGINT, @p_industry VARCHAR(50),
  @p_start_co BIGINT, @p_end_co BIGINT, @p_start_day DATE AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @symbols INT = 0, @old FLOAT = 0, @new FLOAT = 0, @pct FLOAT = 0;
  IF @p_by = 1
    SELECT @symbols = COUNT(*),
      @old = COALESCE(SUM(CAST(s_num_out AS FLOAT) * CAST(dm_close * 100 AS FLOAT)), 0),
      @new = COALESCE(SUM(CAST(s_num_out AS FLOAT) * CAST(lt_price * 100 AS FLOAT)), 0)
    FROM watch_list, watch_item, security, last_trade, daily_market
    WHERE wl_c_id = @p_cust_id AND wi_wl_id = wl_id AND s_symb = wi_s_symb AND lt_s_symb = s_symb
      AND dm_s_symb = s_symb AND dm_date = @p_start_day;
  ELSE IF @p_by = 2
    SELECT @symbols = COUNT(*),
      @old = COALESCE(SUM(CAST(s_num_out AS FLOAT) * CAST(dm_close * 100 AS FLOAT)), 0),
      @new = COALESCE(SUM(CAST(s_num_out AS FLOAT) * CAST(lt_price * 100 AS FLOAT)), 0)
    FROM holding_summary, security, last_trade, daily_market
    WHERE hs_ca_id = @p_acct_id AND s_symb = hs_s_symb AND lt_s_symb = s_symb
      AND dm_s_symb = s_symb AND dm_date = @p_start_day;
  ELSE
    SELECT @symbols = COUNT(*),
      @old = COALESCE(SUM(CAST(s_num_out AS FLOAT) * CAST(dm_close * 100 AS FLOAT)), 0),
      @new = COALESCE(SUM(CAST(s_num_out AS FLOAT) * CAST(lt_price * 100 AS FLOAT)), 0)
    FROM industry, company, security, last_trade, daily_market
    WHERE in_name = @p_industry AND co_in_id = in_id AND co_id BETWEEN @p_start_co AND @p_end_co AND s_co_id = co_id
      AND lt_s_symb = s_symb AND dm_s_symb = s_symb AND dm_date = @p_start_day;
  IF @old <> 0 SET @pct = 100 * (@new / @old - 1);
  SELECT (SELECT @symbols AS Symbols, @pct AS PctChange FOR JSON PATH, WITHOUT_ARRAY_WRAPPER);
END;
-- batch
-- Security-Detail frame 1 (txn/security_detail.go).
DROP PROCEDURE IF EXISTS bb_security_detail;
-- batch
CREATE PROCEDURE bb_security_detail @p_symbol VARCHAR(15), @p_access_lob BIT, @p_max_rows INT, @p_start_day DATE AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @sec NVARCHAR(MAX), @co BIGINT, @competitors NVARCHAR(MAX), @financials NVARCHAR(MAX), @days NVARCHAR(MAX),
    @last NVARCHAR(MAX), @news NVARCHAR(MAX);
  SET @sec = (SELECT s_name AS SecName, co_id AS CoID, co_name AS CoName, co_sp_rate AS SpRate, co_ceo AS CEO, co_desc AS [Desc],
      co_open_date AS OpenDate, s_start_date AS StartDate, s_exch_date AS ExchDate, s_num_out AS NumOut, s_pe AS PE,
      s_52wk_high AS High, s_52wk_high_date AS HighDate, s_52wk_low AS Low, s_52wk_low_date AS LowDate,
      s_dividend AS Dividend, s_yield AS Yield,
      ca.ad_line1 AS [CoAddress.Line1], ca.ad_line2 AS [CoAddress.Line2], zca.zc_town AS [CoAddress.Town],
      ca.ad_zc_code AS [CoAddress.Zip], zca.zc_div AS [CoAddress.Div], ca.ad_ctry AS [CoAddress.Country],
      ex_name AS ExName, ex_desc AS ExDesc, ex_open AS ExOpen, ex_close AS ExClose, ex_num_symb AS ExNumSymb,
      ea.ad_line1 AS [ExAddress.Line1], ea.ad_line2 AS [ExAddress.Line2], zea.zc_town AS [ExAddress.Town],
      ea.ad_zc_code AS [ExAddress.Zip], zea.zc_div AS [ExAddress.Div], ea.ad_ctry AS [ExAddress.Country]
    FROM security, company, address ca, address ea, zip_code zca, zip_code zea, exchange
    WHERE s_symb = @p_symbol AND co_id = s_co_id AND ca.ad_id = co_ad_id AND ea.ad_id = ex_ad_id
      AND ex_id = s_ex_id AND zca.zc_code = ca.ad_zc_code AND zea.zc_code = ea.ad_zc_code
    FOR JSON PATH, WITHOUT_ARRAY_WRAPPER);
  IF @sec IS NULL THROW 50011, 'security: no row', 1;
  SET @co = CAST(JSON_VALUE(@sec, '$.CoID') AS BIGINT);
  SET @competitors = (SELECT TOP (3) co_name AS Name, in_name AS Industry
    FROM company_competitor, company, industry
    WHERE cp_co_id = @co AND co_id = cp_comp_co_id AND in_id = cp_in_id
    ORDER BY co_name
    FOR JSON PATH);
  SET @financials = (SELECT TOP (20) fi_year AS Year, fi_qtr AS Qtr, fi_qtr_start_date AS QtrStart, fi_revenue AS Revenue,
      fi_net_earn AS NetEarn, fi_basic_eps AS BasicEPS, fi_dilut_eps AS DilutEPS, fi_margin AS Margin,
      fi_inventory AS Inventory, fi_assets AS Assets, fi_liability AS Liability, fi_out_basic AS OutBasic,
      fi_out_dilut AS OutDilut
    FROM financial
    WHERE fi_co_id = @co
    ORDER BY fi_year, fi_qtr
    FOR JSON PATH);
  SET @days = (SELECT TOP (@p_max_rows) dm_date AS [Date], dm_close AS [Close], dm_high AS High, dm_low AS Low, dm_vol AS Vol
    FROM daily_market
    WHERE dm_s_symb = @p_symbol AND dm_date >= @p_start_day
    ORDER BY dm_date
    FOR JSON PATH);
  SET @last = (SELECT lt_price AS Price, lt_open_price AS OpenPrice, lt_vol AS Vol
    FROM last_trade WHERE lt_s_symb = @p_symbol FOR JSON PATH, WITHOUT_ARRAY_WRAPPER);
  IF @last IS NULL THROW 50011, 'last trade: no row', 1;
  IF @p_access_lob = 1
    SET @news = (SELECT TOP (2) ni_item AS Item, REPLACE(CONVERT(VARCHAR(30), ni_dts, 126), ' ', 'T') + 'Z' AS [When], ni_source AS Source,
        ni_author AS Author, ni_headline AS Headline, ni_summary AS Summary
      FROM news_xref, news_item
      WHERE nx_co_id = @co AND ni_id = nx_ni_id
      ORDER BY ni_id
      FOR JSON PATH);
  ELSE
    SET @news = (SELECT TOP (2) '' AS Item, REPLACE(CONVERT(VARCHAR(30), ni_dts, 126), ' ', 'T') + 'Z' AS [When], ni_source AS Source,
        ni_author AS Author, ni_headline AS Headline, ni_summary AS Summary
      FROM news_xref, news_item
      WHERE nx_co_id = @co AND ni_id = nx_ni_id
      ORDER BY ni_id
      FOR JSON PATH);
  SELECT CONCAT(N'{"Security":', @sec, N',"Competitors":', COALESCE(@competitors, N'[]'),
    N',"Financials":', COALESCE(@financials, N'[]'), N',"Days":', COALESCE(@days, N'[]'),
    N',"LastTrade":', @last, N',"News":', COALESCE(@news, N'[]'), N'}');
END;
-- batch
-- The trades Trade-Lookup and Trade-Update frames 1-3 read, with each one's child rows
-- as txn.tradeChildrenAll reads them: the trades first (frame 1: each of a JSON list of
-- ids, a missing one failing frame 1; frame 2: an account's in a window; frame 3: a
-- symbol's, with the type and security names when @p_names), oldest first, at most
-- @p_max; then per trade its settlement, its cash transaction for a cash trade and up
-- to three history rows by time, a missing row or a history count outside 1-3
-- failing frame @p_frame. Its result set is the caller's JSON document: @p_head (the
-- caller's other fields, without the closing brace) and "Trades". With @p_updated set
-- it is Trade-Update's and checks what that frame checks after its reads: every trade
-- of the list found and updated (frame 1), as many updated as found (frame 2), at least
-- one found (frame 3). (The list is not handed back through an OUTPUT parameter:
-- Babelfish refuses MAX types there.)
DROP PROCEDURE IF EXISTS bb_trade_details;
-- batch
CREATE PROCEDURE bb_trade_details @p_frame INT, @p_ids VARCHAR(MAX), @p_acct_id BIGINT, @p_symbol VARCHAR(15),
  @p_start DATETIME2, @p_end DATETIME2, @p_max INT, @p_names BIT, @p_head NVARCHAR(4000), @p_updated INT AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @i INT = 1, @n INT, @id BIGINT, @is_cash BIT, @t NVARCHAR(MAX), @kids NVARCHAR(MAX), @cash NVARCHAR(MAX),
    @h INT, @dts NVARCHAR(MAX), @st NVARCHAR(MAX), @hd DATETIME2(3), @hs VARCHAR(4), @j INT, @msg NVARCHAR(2048),
    @check INT = 50010 + @p_frame, @out NVARCHAR(MAX) = N'', @listed INT = 0;
  DECLARE @tl TABLE (o INT IDENTITY(1,1) PRIMARY KEY, t_id BIGINT, acct BIGINT, symbol VARCHAR(15), qty INT,
    bid DECIMAL(12,2), exec_name VARCHAR(49), is_cash BIT, is_market BIT, tprice DECIMAL(12,2), dts DATETIME2(3),
    tt_id VARCHAR(3), tt_name VARCHAR(12), s_name VARCHAR(70));
  DECLARE @hist TABLE (o INT IDENTITY(1,1) PRIMARY KEY, dts DATETIME2(3), st VARCHAR(4));
  IF @p_frame = 1
  BEGIN
    DECLARE @ids TABLE (o INT PRIMARY KEY, id BIGINT);
    INSERT INTO @ids (o, id) SELECT CAST([key] AS INT), CAST(value AS BIGINT) FROM OPENJSON(@p_ids);
    SET @n = @@ROWCOUNT;
    SET @listed = @n;
    WHILE @i <= @n
    BEGIN
      SELECT @id = id FROM @ids WHERE o = @i - 1;
      INSERT INTO @tl (t_id, bid, exec_name, is_cash, is_market, tprice)
      SELECT t_id, t_bid_price, t_exec_name, t_is_cash, tt_is_mrkt, COALESCE(t_trade_price, 0)
      FROM trade, trade_type WHERE t_id = @id AND tt_id = t_tt_id;
      IF @@ROWCOUNT = 0
      BEGIN
        SET @msg = CONCAT('trade: trade ', @id, ': no row');
        THROW 50011, @msg, 1;
      END;
      SET @i = @i + 1;
    END;
  END
  ELSE IF @p_frame = 2
    INSERT INTO @tl (acct, bid, exec_name, is_cash, t_id, tprice, dts)
    SELECT TOP (@p_max) @p_acct_id, t_bid_price, t_exec_name, t_is_cash, t_id, COALESCE(t_trade_price, 0), t_dts
    FROM trade
    WHERE t_ca_id = @p_acct_id AND t_dts >= @p_start AND t_dts <= @p_end
    ORDER BY t_dts;
  ELSE IF @p_names = 1
    INSERT INTO @tl (symbol, acct, exec_name, is_cash, tprice, qty, dts, t_id, tt_id, tt_name, s_name)
    SELECT TOP (@p_max) @p_symbol, t_ca_id, t_exec_name, t_is_cash, COALESCE(t_trade_price, 0), t_qty, t_dts, t_id, t_tt_id,
      tt_name, s_name
    FROM trade, trade_type, security
    WHERE t_s_symb = @p_symbol AND t_dts >= @p_start AND t_dts <= @p_end
      AND tt_id = t_tt_id AND s_symb = t_s_symb
    ORDER BY t_dts;
  ELSE
    INSERT INTO @tl (symbol, acct, exec_name, is_cash, tprice, qty, dts, t_id, tt_id)
    SELECT TOP (@p_max) @p_symbol, t_ca_id, t_exec_name, t_is_cash, COALESCE(t_trade_price, 0), t_qty, t_dts, t_id, t_tt_id
    FROM trade
    WHERE t_s_symb = @p_symbol AND t_dts >= @p_start AND t_dts <= @p_end
    ORDER BY t_dts;
  SELECT @n = COUNT(*) FROM @tl;
  SET @i = 1;
  WHILE @i <= @n
  BEGIN
    SELECT @id = t_id, @is_cash = is_cash FROM @tl WHERE o = @i;
    -- FOR JSON leaves out the NULL columns: each frame's trade has only its own fields.
    SET @t = (SELECT t_id AS TradeID, acct AS AcctID, symbol AS Symbol, qty AS Qty, bid AS BidPrice, exec_name AS ExecName,
        is_cash AS IsCash, is_market AS IsMarket, tprice AS TradePrice, REPLACE(CONVERT(VARCHAR(30), dts, 126), ' ', 'T') + 'Z' AS [When],
        tt_id AS TypeID, tt_name AS TypeName, s_name AS SecName
      FROM @tl WHERE o = @i FOR JSON PATH, WITHOUT_ARRAY_WRAPPER);
    SET @kids = (SELECT se_amt AS Settlement, REPLACE(CONVERT(VARCHAR(30), CAST(se_cash_due_date AS DATETIME2(3)), 126), ' ', 'T') + 'Z' AS DueDate,
        se_cash_type AS CashType
      FROM settlement WHERE se_t_id = @id FOR JSON PATH, WITHOUT_ARRAY_WRAPPER);
    IF @kids IS NULL
    BEGIN
      SET @msg = CONCAT('settlement: trade ', @id, ': no row');
      THROW @check, @msg, 1;
    END;
    IF @is_cash = 1
    BEGIN
      SET @cash = (SELECT ct_amt AS CashAmount, REPLACE(CONVERT(VARCHAR(30), ct_dts, 126), ' ', 'T') + 'Z' AS CashWhen,
          COALESCE(ct_name, '') AS CashName, CAST(1 AS BIT) AS HasCash
        FROM cash_transaction WHERE ct_t_id = @id FOR JSON PATH, WITHOUT_ARRAY_WRAPPER);
      IF @cash IS NULL
      BEGIN
        SET @msg = CONCAT('cash transaction: trade ', @id, ': no row');
        THROW @check, @msg, 1;
      END;
      SET @kids = LEFT(@kids, LEN(@kids) - 1) + N',' + SUBSTRING(@cash, 2, LEN(@cash));
    END;
    DELETE FROM @hist;
    INSERT INTO @hist (dts, st) SELECT TOP (3) th_dts, th_st_id FROM trade_history WHERE th_t_id = @id ORDER BY th_dts;
    SET @h = @@ROWCOUNT;
    IF @h < 1 OR @h > 3
    BEGIN
      SET @msg = CONCAT('trade ', @id, ' has ', @h, ' history rows, want 1-3');
      THROW @check, @msg, 1;
    END;
    SET @dts = N'';
    SET @st = N'';
    SET @j = 1;
    WHILE @j <= @h
    BEGIN
      SELECT @hd = dts, @hs = st FROM @hist WHERE o = (SELECT MIN(o) FROM @hist) + @j - 1;
      SET @dts = @dts + CASE WHEN @j > 1 THEN N',' ELSE N'' END + N'"' + REPLACE(CONVERT(VARCHAR(30), @hd, 126), ' ', 'T') + N'Z"';
      SET @st = @st + CASE WHEN @j > 1 THEN N',' ELSE N'' END + N'"' + @hs + N'"';
      SET @j = @j + 1;
    END;
    SET @out = @out + CASE WHEN @i > 1 THEN N',' ELSE N'' END
      + LEFT(@t, LEN(@t) - 1) + N',' + SUBSTRING(@kids, 2, LEN(@kids) - 2)
      + N',"HistoryDTS":[' + @dts + N'],"HistoryStat":[' + @st + N']}';
    SET @i = @i + 1;
  END;
  IF @p_updated IS NOT NULL AND @p_frame = 1 AND (@n <> @listed OR @p_updated <> @listed)
  BEGIN
    SET @msg = CONCAT('found ', @n, ' and updated ', @p_updated, ' of ', @listed, ' trades');
    THROW 50011, @msg, 1;
  END;
  IF @p_updated IS NOT NULL AND @p_frame = 2 AND @p_updated <> @n
  BEGIN
    SET @msg = CONCAT('updated ', @p_updated, ' of ', @n, ' trades found');
    THROW 50012, @msg, 1;
  END;
  IF @p_updated IS NOT NULL AND @p_frame = 3 AND @n = 0
  BEGIN
    SET @msg = CONCAT('no trade of ', @p_symbol, ' in the window');
    THROW 50013, @msg, 1;
  END;
  SELECT @p_head + N',"Trades":[' + @out + N']}';
END;
-- batch
-- Trade-Lookup frames 1-4 (txn/trade_lookup.go).
DROP PROCEDURE IF EXISTS bb_trade_lookup;
-- batch
CREATE PROCEDURE bb_trade_lookup @p_frame INT, @p_ids VARCHAR(MAX), @p_acct_id BIGINT, @p_symbol VARCHAR(15),
  @p_start DATETIME2, @p_end DATETIME2, @p_max INT AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @trades NVARCHAR(MAX) = N'[]', @hh NVARCHAR(MAX) = N'[]', @id BIGINT, @head NVARCHAR(4000);
  IF @p_frame IN (1, 2, 3)
  BEGIN
    SET @head = CONCAT(N'{"Frame":', @p_frame, N',"HoldingHistory":[]');
    EXEC bb_trade_details @p_frame, @p_ids, @p_acct_id, @p_symbol, @p_start, @p_end, @p_max, 0, @head, NULL;
  END
  ELSE
  BEGIN
    SELECT TOP 1 @id = t_id FROM trade WHERE t_ca_id = @p_acct_id AND t_dts >= @p_start ORDER BY t_dts;
    IF @@ROWCOUNT > 0
    BEGIN
      SET @trades = CONCAT(N'[{"TradeID":', @id, N',"AcctID":', @p_acct_id, N'}]');
      SET @hh = COALESCE((SELECT hh_h_t_id AS HoldingTradeID, hh_t_id AS TradeID, hh_before_qty AS [Before], hh_after_qty AS [After]
        FROM (SELECT TOP (@p_max) hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty
          FROM holding_history
          WHERE hh_h_t_id IN (SELECT hh_h_t_id FROM holding_history WHERE hh_t_id = @id)
          ORDER BY hh_h_t_id, hh_t_id) h
        ORDER BY hh_h_t_id, hh_t_id
        FOR JSON PATH), N'[]');
    END;
    SELECT CONCAT(N'{"Frame":', @p_frame, N',"Trades":', @trades, N',"HoldingHistory":', @hh, N'}');
  END;
END;
-- batch
-- Trade-Order frames 1-6 (txn/trade_order.go). Frame 5's rollbacks (an unauthorized
-- executor, the 1-in-101 input) throw 50001 after the statements the client mode
-- sends before its ROLLBACK.
DROP PROCEDURE IF EXISTS bb_trade_order;
-- batch
CREATE PROCEDURE bb_trade_order @p_acct_id BIGINT, @p_exec_first VARCHAR(20), @p_exec_last VARCHAR(25),
  @p_exec_tax_id VARCHAR(20), @p_by_company BIT, @p_symbol VARCHAR(15), @p_co_name VARCHAR(60), @p_issue VARCHAR(6),
  @p_trade_type VARCHAR(3), @p_is_margin BIT, @p_lifo BIT, @p_qty INT, @p_requested DECIMAL(12,2), @p_rollback BIT,
  @p_now DATETIME2, @p_exec_name VARCHAR(200), @p_submitted VARCHAR(4), @p_pending VARCHAR(4) AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @acct_name VARCHAR(50), @broker BIGINT, @cust BIGINT, @tax_st SMALLINT,
    @first VARCHAR(20), @last VARCHAR(25), @tier SMALLINT, @cust_tax VARCHAR(20), @broker_name VARCHAR(49), @acl VARCHAR(4),
    @co BIGINT, @ex VARCHAR(6), @sec_name VARCHAR(70), @symbol VARCHAR(15), @co_name VARCHAR(60),
    @market DECIMAL(12,2), @is_market BIT, @is_sell BIT, @hs INT,
    @comm_rate DECIMAL(5,2), @charge DECIMAL(10,2), @bal DECIMAL(12,2), @held DECIMAL(38,2), @trade_id BIGINT,
    @found_price BIT, @found_type BIT, @found_hs BIT, @found_comm BIT, @found_charge BIT, @found_bal BIT,
    @price BIGINT, @buy BIGINT = 0, @sell BIGINT = 0, @needed INT, @n INT, @i INT = 1, @lots INT,
    @h_qty INT, @h_cents BIGINT, @rate DECIMAL(38,5), @v FLOAT, @tax BIGINT = 0, @comm BIGINT, @status VARCHAR(4),
    @msg NVARCHAR(2048);
  DECLARE @hl TABLE (o INT IDENTITY(1,1) PRIMARY KEY, qty INT, cents BIGINT);
  -- frame 1
  SELECT @acct_name = ca_name, @broker = ca_b_id, @cust = ca_c_id, @tax_st = ca_tax_st FROM customer_account WHERE ca_id = @p_acct_id;
  IF @@ROWCOUNT = 0 THROW 50011, 'account: no row', 1;
  SELECT @first = c_f_name, @last = c_l_name, @tier = c_tier, @cust_tax = c_tax_id FROM customer WHERE c_id = @cust;
  IF @@ROWCOUNT = 0 THROW 50011, 'customer: no row', 1;
  SELECT @broker_name = b_name FROM broker WHERE b_id = @broker;
  IF @@ROWCOUNT = 0 THROW 50011, 'broker: no row', 1;
  -- frame 2 (compared as the client compares: case-sensitively)
  IF @p_exec_tax_id <> @cust_tax COLLATE Latin1_General_CS_AS OR @p_exec_first <> @first COLLATE Latin1_General_CS_AS
    OR @p_exec_last <> @last COLLATE Latin1_General_CS_AS
  BEGIN
    SELECT @acl = ap_acl FROM account_permission
    WHERE ap_ca_id = @p_acct_id AND ap_f_name = @p_exec_first AND ap_l_name = @p_exec_last AND ap_tax_id = @p_exec_tax_id;
    IF @@ROWCOUNT = 0 THROW 50001, 'Trade-Order frame 5: unauthorized executor', 1;
  END;
  -- frame 3
  IF @p_by_company = 1
  BEGIN
    SELECT @co = co_id FROM company WHERE co_name = @p_co_name;
    IF @@ROWCOUNT = 0 THROW 50013, 'company by name: no row', 1;
    SELECT @ex = s_ex_id, @sec_name = s_name, @symbol = s_symb FROM security WHERE s_co_id = @co AND s_issue = @p_issue;
    IF @@ROWCOUNT = 0 THROW 50013, 'security by company: no row', 1;
  END
  ELSE
  BEGIN
    SET @symbol = @p_symbol;
    SELECT @co = s_co_id, @ex = s_ex_id, @sec_name = s_name FROM security WHERE s_symb = @p_symbol;
    IF @@ROWCOUNT = 0 THROW 50013, 'security: no row', 1;
    SELECT @co_name = co_name FROM company WHERE co_id = @co;
    IF @@ROWCOUNT = 0 THROW 50013, 'company: no row', 1;
  END;
  SELECT @market = lt_price FROM last_trade WHERE lt_s_symb = @symbol;
  SET @found_price = CASE WHEN @@ROWCOUNT > 0 THEN 1 ELSE 0 END;
  SELECT @is_market = tt_is_mrkt, @is_sell = tt_is_sell FROM trade_type WHERE tt_id = @p_trade_type;
  SET @found_type = CASE WHEN @@ROWCOUNT > 0 THEN 1 ELSE 0 END;
  SELECT @hs = hs_qty FROM holding_summary WHERE hs_ca_id = @p_acct_id AND hs_s_symb = @symbol;
  SET @found_hs = CASE WHEN @@ROWCOUNT > 0 THEN 1 ELSE 0 END;
  SELECT TOP 1 @comm_rate = cr_rate FROM commission_rate
  WHERE cr_c_tier = @tier AND cr_tt_id = @p_trade_type AND cr_ex_id = @ex AND cr_from_qty <= @p_qty AND cr_to_qty >= @p_qty;
  SET @found_comm = CASE WHEN @@ROWCOUNT > 0 THEN 1 ELSE 0 END;
  SELECT @charge = ch_chrg FROM charge WHERE ch_c_tier = @tier AND ch_tt_id = @p_trade_type;
  SET @found_charge = CASE WHEN @@ROWCOUNT > 0 THEN 1 ELSE 0 END;
  IF @p_is_margin = 1
  BEGIN
    SELECT @bal = ca_bal FROM customer_account WHERE ca_id = @p_acct_id;
    SET @found_bal = CASE WHEN @@ROWCOUNT > 0 THEN 1 ELSE 0 END;
    SELECT @held = COALESCE(SUM(hs_qty * lt_price), 0) FROM holding_summary, last_trade
    WHERE hs_ca_id = @p_acct_id AND lt_s_symb = hs_s_symb;
  END;
  SET @trade_id = NEXT VALUE FOR seq_trade_id;
  IF @found_price = 0 THROW 50013, 'last trade: no row', 1;
  IF @found_type = 0 THROW 50013, 'trade type: no row', 1;
  IF @found_hs = 0 SET @hs = 0;
  SET @price = CAST(@p_requested * 100 AS BIGINT);
  IF @is_market = 1 SET @price = CAST(@market * 100 AS BIGINT);
  IF (@is_sell = 1 AND @hs > 0) OR (@is_sell = 0 AND @hs < 0)
  BEGIN
    SET @needed = @p_qty;
    IF @p_lifo = 1
      INSERT INTO @hl (qty, cents) SELECT h_qty, CAST(h_price * 100 AS BIGINT) FROM holding
      WHERE h_ca_id = @p_acct_id AND h_s_symb = @symbol ORDER BY h_dts DESC, h_t_id DESC;
    ELSE
      INSERT INTO @hl (qty, cents) SELECT h_qty, CAST(h_price * 100 AS BIGINT) FROM holding
      WHERE h_ca_id = @p_acct_id AND h_s_symb = @symbol ORDER BY h_dts ASC, h_t_id ASC;
    SET @lots = @@ROWCOUNT;
    WHILE @i <= @lots AND @needed > 0
    BEGIN
      SELECT @h_qty = qty, @h_cents = cents FROM @hl WHERE o = @i;
      IF @is_sell = 1
      BEGIN
        SET @n = CASE WHEN @h_qty < @needed THEN @h_qty ELSE @needed END;
        SET @buy = @buy + @n * @h_cents;
        SET @sell = @sell + @n * @price;
      END
      ELSE
      BEGIN
        SET @n = CASE WHEN -@h_qty < @needed THEN -@h_qty ELSE @needed END;
        SET @sell = @sell + @n * @h_cents;
        SET @buy = @buy + @n * @price;
      END;
      SET @needed = @needed - @n;
      SET @i = @i + 1;
    END;
  END;
  IF @sell > @buy AND @tax_st IN (1, 2)
  BEGIN
    SELECT @rate = COALESCE(SUM(tx_rate), 0) FROM taxrate
    WHERE tx_id IN (SELECT cx_tx_id FROM customer_taxrate WHERE cx_c_id = @cust);
    SET @v = CAST(@sell - @buy AS FLOAT) / 100 * CAST(@rate AS FLOAT);
    SET @tax = CASE WHEN @v < 0 THEN -CAST(FLOOR(-@v * 100 + 0.5) AS BIGINT) ELSE CAST(FLOOR(@v * 100 + 0.5) AS BIGINT) END;
    IF @tax <= 0
    BEGIN
      SET @msg = CONCAT('taxable gain ', CAST(CAST(@sell - @buy AS DECIMAL(20,2)) / 100 AS DECIMAL(20,2)), ' gave tax ',
        CAST(CAST(@tax AS DECIMAL(20,2)) / 100 AS DECIMAL(20,2)));
      THROW 50013, @msg, 1;
    END;
  END;
  IF @found_comm = 0 THROW 50013, 'commission rate: no row', 1;
  IF @found_charge = 0 THROW 50013, 'charge: no row', 1;
  IF @comm_rate <= 0 OR @charge <= 0
  BEGIN
    SET @msg = CONCAT('commission rate ', @comm_rate, ' and charge ', @charge, ' must be positive');
    THROW 50013, @msg, 1;
  END;
  IF @p_is_margin = 1 AND @found_bal = 0 THROW 50013, 'balance: no row', 1;
  SET @status = CASE WHEN @is_market = 1 THEN @p_submitted ELSE @p_pending END;
  -- frame 4
  SET @v = CAST(@comm_rate AS FLOAT) / 100 * CAST(@p_qty AS FLOAT) * CAST(@price AS FLOAT) / 100;
  SET @comm = CASE WHEN @v < 0 THEN -CAST(FLOOR(-@v * 100 + 0.5) AS BIGINT) ELSE CAST(FLOOR(@v * 100 + 0.5) AS BIGINT) END;
  INSERT INTO trade (t_id, t_dts, t_st_id, t_tt_id, t_is_cash, t_s_symb, t_qty, t_bid_price,
    t_ca_id, t_exec_name, t_trade_price, t_chrg, t_comm, t_tax, t_lifo)
  VALUES (@trade_id, @p_now, @status, @p_trade_type, 1 - @p_is_margin, @symbol, @p_qty, CAST(@price AS DECIMAL(20,2)) / 100,
    @p_acct_id, LEFT(@p_exec_name, 49), NULL, @charge, CAST(@comm AS DECIMAL(20,2)) / 100, 0, @p_lifo);
  IF @is_market = 0
    INSERT INTO trade_request (tr_t_id, tr_tt_id, tr_s_symb, tr_qty, tr_bid_price, tr_b_id)
    VALUES (@trade_id, @p_trade_type, @symbol, @p_qty, CAST(@price AS DECIMAL(20,2)) / 100, @broker);
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (@trade_id, @p_now, @status);
  -- frame 5: the input's rollback
  IF @p_rollback = 1 THROW 50001, 'Trade-Order frame 5: intended rollback', 1;
  -- frame 6: the client commits
  SELECT (SELECT @trade_id AS TradeID, @symbol AS Symbol, @price AS Price, @is_market AS IsMarket, @tax AS Tax,
      @comm_rate AS CommRate, @charge AS Charge, @comm AS Comm, @status AS Status,
      CASE WHEN @p_is_margin = 1 THEN CAST((@bal + @held) * 100 AS BIGINT) ELSE 0 END AS Assets
    FOR JSON PATH, WITHOUT_ARRAY_WRAPPER);
END;
-- batch
-- Trade-Result frames 1-6 (txn/trade_result.go): the same locks in the same order
-- (TRADE, CUSTOMER_ACCOUNT, the HOLDING lots, UPDLOCK and ROWLOCK as the client's
-- T-SQL), every lot locked before any is moved.
DROP PROCEDURE IF EXISTS bb_trade_result;
-- batch
CREATE PROCEDURE bb_trade_result @p_trade_id BIGINT, @p_price DECIMAL(12,2), @p_now DATETIME2, @p_submitted VARCHAR(4),
  @p_completed VARCHAR(4) AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @acct BIGINT, @type VARCHAR(3), @symbol VARCHAR(15), @qty INT, @charge DECIMAL(10,2), @lifo BIT, @is_cash BIT,
    @status VARCHAR(4), @type_name VARCHAR(12), @is_sell BIT, @is_market BIT, @broker BIGINT, @cust BIGINT, @tax_st SMALLINT,
    @hs INT, @hs_found BIT, @price BIGINT = CAST(@p_price * 100 AS BIGINT),
    @needed INT, @delta INT, @new INT, @size INT, @n INT, @after INT, @lot INT, @i INT = 1, @lots INT,
    @buy BIGINT = 0, @sell BIGINT = 0, @rate DECIMAL(38,5), @v FLOAT, @tax BIGINT = 0,
    @ex VARCHAR(6), @sec_name VARCHAR(70), @tier SMALLINT, @comm_rate DECIMAL(5,2), @comm BIGINT,
    @amount BIGINT, @cash_type VARCHAR(40), @balance DECIMAL(12,2), @rows INT,
    @l_id BIGINT, @l_qty INT, @l_cents BIGINT, @msg NVARCHAR(2048);
  DECLARE @hl TABLE (o INT IDENTITY(1,1) PRIMARY KEY, id BIGINT, qty INT, cents BIGINT);
  -- frame 1
  SELECT @acct = t_ca_id, @type = t_tt_id, @symbol = t_s_symb, @qty = t_qty, @charge = t_chrg, @lifo = t_lifo,
    @is_cash = t_is_cash, @status = t_st_id
  FROM trade WITH (UPDLOCK, ROWLOCK) WHERE t_id = @p_trade_id;
  IF @@ROWCOUNT = 0
  BEGIN
    SET @msg = CONCAT('trade ', @p_trade_id, ': no row');
    THROW 50011, @msg, 1;
  END;
  IF @status <> @p_submitted
  BEGIN
    SET @msg = CONCAT('trade ', @p_trade_id, ' is ', @status, ', not ', @p_submitted);
    THROW 50011, @msg, 1;
  END;
  SELECT @type_name = tt_name, @is_sell = tt_is_sell, @is_market = tt_is_mrkt FROM trade_type WHERE tt_id = @type;
  IF @@ROWCOUNT = 0 THROW 50011, 'trade type: no row', 1;
  SELECT @broker = ca_b_id, @cust = ca_c_id, @tax_st = ca_tax_st FROM customer_account WITH (UPDLOCK, ROWLOCK) WHERE ca_id = @acct;
  IF @@ROWCOUNT = 0 THROW 50011, 'account: no row', 1;
  SELECT @hs = hs_qty FROM holding_summary WHERE hs_ca_id = @acct AND hs_s_symb = @symbol;
  SET @hs_found = CASE WHEN @@ROWCOUNT > 0 THEN 1 ELSE 0 END;
  IF @hs_found = 0 SET @hs = 0;
  -- frame 2
  SET @needed = @qty;
  SET @delta = CASE WHEN @is_sell = 1 THEN -@qty ELSE @qty END;
  SET @new = @hs + @delta;
  IF @hs_found = 0
    INSERT INTO holding_summary (hs_ca_id, hs_s_symb, hs_qty) VALUES (@acct, @symbol, @new);
  ELSE IF @new <> 0
  BEGIN
    UPDATE holding_summary SET hs_qty = @new WHERE hs_ca_id = @acct AND hs_s_symb = @symbol;
    SET @rows = @@ROWCOUNT;
    IF @rows <> 1
    BEGIN
      SET @msg = CONCAT('update holding summary changed ', @rows, ' rows, want 1');
      THROW 50012, @msg, 1;
    END;
  END;
  IF (@is_sell = 1 AND @hs > 0) OR (@is_sell = 0 AND @hs < 0)
  BEGIN
    -- Every lot is read and locked first, as the client mode reads them all.
    IF @lifo = 1
      INSERT INTO @hl (id, qty, cents) SELECT h_t_id, h_qty, CAST(h_price * 100 AS BIGINT) FROM holding WITH (UPDLOCK, ROWLOCK)
      WHERE h_ca_id = @acct AND h_s_symb = @symbol ORDER BY h_dts DESC, h_t_id DESC;
    ELSE
      INSERT INTO @hl (id, qty, cents) SELECT h_t_id, h_qty, CAST(h_price * 100 AS BIGINT) FROM holding WITH (UPDLOCK, ROWLOCK)
      WHERE h_ca_id = @acct AND h_s_symb = @symbol ORDER BY h_dts ASC, h_t_id ASC;
    SET @lots = @@ROWCOUNT;
    WHILE @i <= @lots AND @needed > 0
    BEGIN
      SELECT @l_id = id, @l_qty = qty, @l_cents = cents FROM @hl WHERE o = @i;
      SET @i = @i + 1;
      SET @size = CASE WHEN @is_sell = 1 THEN @l_qty ELSE -@l_qty END;
      IF @size <= 0 CONTINUE;
      SET @n = CASE WHEN @size < @needed THEN @size ELSE @needed END;
      SET @after = CASE WHEN @is_sell = 1 THEN @l_qty - @n ELSE @l_qty + @n END;
      INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES (@l_id, @p_trade_id, @l_qty, @after);
      IF @after = 0
        DELETE FROM holding WHERE h_t_id = @l_id;
      ELSE
        UPDATE holding SET h_qty = @after WHERE h_t_id = @l_id;
      SET @rows = @@ROWCOUNT;
      IF @rows <> 1
      BEGIN
        SET @msg = CONCAT('holding ', @l_id, ' changed ', @rows, ' rows, want 1');
        THROW 50012, @msg, 1;
      END;
      IF @is_sell = 1
      BEGIN
        SET @buy = @buy + @n * @l_cents;
        SET @sell = @sell + @n * @price;
      END
      ELSE
      BEGIN
        SET @sell = @sell + @n * @l_cents;
        SET @buy = @buy + @n * @price;
      END;
      SET @needed = @needed - @n;
    END;
  END;
  IF @needed > 0
  BEGIN
    SET @lot = CASE WHEN @is_sell = 1 THEN -@needed ELSE @needed END;
    INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES (@p_trade_id, @p_trade_id, 0, @lot);
    INSERT INTO holding (h_t_id, h_ca_id, h_s_symb, h_dts, h_price, h_qty) VALUES (@p_trade_id, @acct, @symbol, @p_now, @p_price, @lot);
  END
  ELSE IF @hs_found = 1 AND @new = 0
  BEGIN
    DELETE FROM holding_summary WHERE hs_ca_id = @acct AND hs_s_symb = @symbol;
    SET @rows = @@ROWCOUNT;
    IF @rows <> 1
    BEGIN
      SET @msg = CONCAT('delete holding summary changed ', @rows, ' rows, want 1');
      THROW 50012, @msg, 1;
    END;
  END;
  -- frame 3
  IF @tax_st IN (1, 2) AND @sell > @buy
  BEGIN
    SELECT @rate = COALESCE(SUM(tx_rate), 0) FROM taxrate
    WHERE tx_id IN (SELECT cx_tx_id FROM customer_taxrate WHERE cx_c_id = @cust);
    SET @v = CAST(@sell - @buy AS FLOAT) / 100 * CAST(@rate AS FLOAT);
    SET @tax = CASE WHEN @v < 0 THEN -CAST(FLOOR(-@v * 100 + 0.5) AS BIGINT) ELSE CAST(FLOOR(@v * 100 + 0.5) AS BIGINT) END;
    IF @tax < 0
    BEGIN
      SET @msg = CONCAT('tax ', CAST(CAST(@tax AS DECIMAL(20,2)) / 100 AS DECIMAL(20,2)), ' is negative');
      THROW 50013, @msg, 1;
    END;
    UPDATE trade SET t_tax = CAST(@tax AS DECIMAL(20,2)) / 100 WHERE t_id = @p_trade_id;
  END;
  -- frame 4
  SELECT @ex = s_ex_id, @sec_name = s_name FROM security WHERE s_symb = @symbol;
  IF @@ROWCOUNT = 0 THROW 50014, 'security: no row', 1;
  SELECT @tier = c_tier FROM customer WHERE c_id = @cust;
  IF @@ROWCOUNT = 0 THROW 50014, 'customer: no row', 1;
  SELECT TOP 1 @comm_rate = cr_rate FROM commission_rate
  WHERE cr_c_tier = @tier AND cr_tt_id = @type AND cr_ex_id = @ex AND cr_from_qty <= @qty AND cr_to_qty >= @qty;
  IF @@ROWCOUNT = 0 THROW 50014, 'commission rate: no row', 1;
  IF @comm_rate <= 0
  BEGIN
    SET @msg = CONCAT('commission rate ', @comm_rate, ' is not positive');
    THROW 50014, @msg, 1;
  END;
  -- frame 5
  SET @v = CAST(@comm_rate AS FLOAT) / 100 * CAST(@qty AS FLOAT) * CAST(@price AS FLOAT) / 100;
  SET @comm = CASE WHEN @v < 0 THEN -CAST(FLOOR(-@v * 100 + 0.5) AS BIGINT) ELSE CAST(FLOOR(@v * 100 + 0.5) AS BIGINT) END;
  UPDATE trade SET t_comm = CAST(@comm AS DECIMAL(20,2)) / 100, t_dts = @p_now, t_st_id = @p_completed, t_trade_price = @p_price
  WHERE t_id = @p_trade_id;
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (@p_trade_id, @p_now, @p_completed);
  UPDATE broker SET b_comm_total = b_comm_total + CAST(@comm AS DECIMAL(20,2)) / 100, b_num_trades = b_num_trades + 1 WHERE b_id = @broker;
  SET @rows = @@ROWCOUNT;
  IF @rows <> 1
  BEGIN
    SET @msg = CONCAT('update broker changed ', @rows, ' rows, want 1');
    THROW 50015, @msg, 1;
  END;
  -- frame 6
  IF @is_sell = 1
    SET @amount = @qty * @price - CAST(@charge * 100 AS BIGINT) - @comm;
  ELSE
    SET @amount = -(@qty * @price + CAST(@charge * 100 AS BIGINT) + @comm);
  IF @tax_st = 1 SET @amount = @amount - @tax;
  SET @cash_type = CASE WHEN @is_cash = 1 THEN 'Cash Account' ELSE 'Margin' END;
  INSERT INTO settlement (se_t_id, se_cash_type, se_cash_due_date, se_amt)
  VALUES (@p_trade_id, @cash_type, DATEADD(day, 2, CAST(@p_now AS DATE)), CAST(@amount AS DECIMAL(20,2)) / 100);
  IF @is_cash = 1
  BEGIN
    UPDATE customer_account SET ca_bal = ca_bal + CAST(@amount AS DECIMAL(20,2)) / 100 WHERE ca_id = @acct;
    INSERT INTO cash_transaction (ct_t_id, ct_dts, ct_amt, ct_name)
    VALUES (@p_trade_id, @p_now, CAST(@amount AS DECIMAL(20,2)) / 100, LEFT(CONCAT(@type_name, ' ', @qty, ' shares of ', @sec_name), 100));
  END;
  SELECT @balance = ca_bal FROM customer_account WHERE ca_id = @acct;
  IF @@ROWCOUNT = 0 THROW 50016, 'balance: no row', 1;
  SELECT (SELECT @acct AS AcctID, @balance AS Balance, CAST(CAST(@tax AS DECIMAL(20,2)) / 100 AS DECIMAL(20,2)) AS Tax,
      CAST(CAST(@comm AS DECIMAL(20,2)) / 100 AS DECIMAL(20,2)) AS Comm
    FOR JSON PATH, WITHOUT_ARRAY_WRAPPER);
END;
-- batch
-- Trade-Status frame 1 (txn/trade_status.go), as rows the client scans as client mode
-- scans its statements': one row per trade, newest first, then one row whose last three
-- columns are the customer's and the broker's names (empty on the trade rows; its trade
-- columns are placeholders).
DROP PROCEDURE IF EXISTS bb_trade_status;
-- batch
CREATE PROCEDURE bb_trade_status @p_acct_id BIGINT AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @last VARCHAR(25), @first VARCHAR(20), @broker VARCHAR(49);
  DECLARE @ts TABLE (o INT IDENTITY(1,1) PRIMARY KEY, t_id BIGINT, t_dts DATETIME2(3), st_name VARCHAR(10), tt_name VARCHAR(12),
    t_s_symb VARCHAR(15), t_qty INT, t_exec_name VARCHAR(49), t_chrg DECIMAL(10,2), s_name VARCHAR(70), ex_name VARCHAR(100));
  INSERT INTO @ts (t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name)
  SELECT TOP (50) t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name
  FROM trade, status_type, trade_type, security, exchange
  WHERE t_ca_id = @p_acct_id AND st_id = t_st_id AND tt_id = t_tt_id AND s_symb = t_s_symb AND ex_id = s_ex_id
  ORDER BY t_dts DESC;
  SELECT @last = c_l_name, @first = c_f_name, @broker = b_name
  FROM customer_account, customer, broker
  WHERE ca_id = @p_acct_id AND c_id = ca_c_id AND b_id = ca_b_id;
  IF @@ROWCOUNT = 0 THROW 50011, 'customer and broker: no row', 1;
  SELECT t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name, c_f_name, c_l_name, b_name
  FROM (SELECT o, t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name,
      CAST('' AS VARCHAR(20)) AS c_f_name, CAST('' AS VARCHAR(25)) AS c_l_name, CAST('' AS VARCHAR(49)) AS b_name FROM @ts
    UNION ALL
    SELECT 2147483647, 0, CAST('1970-01-01' AS DATETIME2(3)), '', '', '', 0, '', 0, '', '', @first, @last, @broker) r
  ORDER BY o;
END;
-- batch
-- Trade-Update frames 1-3 (txn/trade_update.go): each trade's value is read, then
-- written toggled (text compared and replaced case-sensitively, as the client's Go
-- strings are), then the frame reads what Trade-Lookup's frame reads.
DROP PROCEDURE IF EXISTS bb_trade_update;
-- batch
CREATE PROCEDURE bb_trade_update @p_frame INT, @p_ids VARCHAR(MAX), @p_acct_id BIGINT, @p_symbol VARCHAR(15),
  @p_start DATETIME2, @p_end DATETIME2, @p_max INT AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @updated INT = 0, @n INT, @i INT = 1, @id BIGINT, @is_cash BIT, @cur VARCHAR(200), @next VARCHAR(200),
    @pos INT, @rows INT, @msg NVARCHAR(2048), @head NVARCHAR(4000), @names BIT = CASE WHEN @p_frame = 3 THEN 1 ELSE 0 END;
  DECLARE @todo TABLE (o INT IDENTITY(1,1) PRIMARY KEY, id BIGINT, is_cash BIT);
  IF @p_frame = 1
  BEGIN
    INSERT INTO @todo (id) SELECT CAST(value AS BIGINT) FROM OPENJSON(@p_ids) ORDER BY CAST([key] AS INT);
    SET @n = @@ROWCOUNT;
    WHILE @i <= @n AND @i <= @p_max
    BEGIN
      SELECT @id = id FROM @todo WHERE o = @i;
      SELECT @cur = t_exec_name FROM trade WHERE t_id = @id;
      IF @@ROWCOUNT = 0 THROW 50011, 'executor name: no row', 1;
      SET @pos = CHARINDEX(' X ' COLLATE Latin1_General_CS_AS, @cur COLLATE Latin1_General_CS_AS);
      IF @pos > 0
        SET @next = STUFF(@cur, @pos, 3, ' ');
      ELSE
      BEGIN
        SET @pos = CHARINDEX(' ', @cur);
        SET @next = CASE WHEN @pos > 0 THEN STUFF(@cur, @pos, 1, ' X ') ELSE @cur END;
      END;
      UPDATE trade SET t_exec_name = LEFT(@next, 49) WHERE t_id = @id;
      SET @rows = @@ROWCOUNT;
      IF @rows <> 1
      BEGIN
        SET @msg = CONCAT('update executor name changed ', @rows, ' rows, want 1');
        THROW 50011, @msg, 1;
      END;
      SET @updated = @updated + 1;
      SET @i = @i + 1;
    END;
  END
  ELSE IF @p_frame = 2
  BEGIN
    INSERT INTO @todo (id, is_cash)
    SELECT TOP (@p_max) t_id, t_is_cash FROM trade
    WHERE t_ca_id = @p_acct_id AND t_dts >= @p_start AND t_dts <= @p_end ORDER BY t_dts;
    SET @n = @@ROWCOUNT;
    WHILE @i <= @n
    BEGIN
      SELECT @id = id, @is_cash = is_cash FROM @todo WHERE o = @i;
      SELECT @cur = se_cash_type FROM settlement WHERE se_t_id = @id;
      IF @@ROWCOUNT = 0 THROW 50012, 'settlement: no row', 1;
      IF @is_cash = 1
        SET @next = CASE WHEN @cur = 'Cash Account' COLLATE Latin1_General_CS_AS THEN 'Cash' ELSE 'Cash Account' END;
      ELSE
        SET @next = CASE WHEN @cur = 'Margin' COLLATE Latin1_General_CS_AS THEN 'Margin Account' ELSE 'Margin' END;
      UPDATE settlement SET se_cash_type = @next WHERE se_t_id = @id;
      SET @rows = @@ROWCOUNT;
      IF @rows <> 1
      BEGIN
        SET @msg = CONCAT('update cash type changed ', @rows, ' rows, want 1');
        THROW 50012, @msg, 1;
      END;
      SET @updated = @updated + 1;
      SET @i = @i + 1;
    END;
  END
  ELSE
  BEGIN
    INSERT INTO @todo (id)
    SELECT t_id FROM (SELECT TOP (@p_max) t_id, t_is_cash, t_dts FROM trade, trade_type, security
        WHERE t_s_symb = @p_symbol AND t_dts >= @p_start AND t_dts <= @p_end AND tt_id = t_tt_id AND s_symb = t_s_symb
        ORDER BY t_dts) t
    WHERE t_is_cash = 1 ORDER BY t_dts;
    SET @n = @@ROWCOUNT;
    WHILE @i <= @n
    BEGIN
      SELECT @id = id FROM @todo WHERE o = @i;
      SELECT @cur = ct_name FROM cash_transaction WHERE ct_t_id = @id;
      IF @@ROWCOUNT = 0 THROW 50013, 'cash transaction: no row', 1;
      SET @cur = COALESCE(@cur, '');
      SET @pos = CHARINDEX(' shares ' COLLATE Latin1_General_CS_AS, @cur COLLATE Latin1_General_CS_AS);
      IF @pos > 0
        SET @next = STUFF(@cur, @pos, 8, ' Shares ');
      ELSE
      BEGIN
        SET @pos = CHARINDEX(' Shares ' COLLATE Latin1_General_CS_AS, @cur COLLATE Latin1_General_CS_AS);
        SET @next = CASE WHEN @pos > 0 THEN STUFF(@cur, @pos, 8, ' shares ') ELSE @cur END;
      END;
      UPDATE cash_transaction SET ct_name = LEFT(@next, 100) WHERE ct_t_id = @id;
      SET @rows = @@ROWCOUNT;
      IF @rows <> 1
      BEGIN
        SET @msg = CONCAT('update cash name changed ', @rows, ' rows, want 1');
        THROW 50013, @msg, 1;
      END;
      SET @updated = @updated + 1;
      SET @i = @i + 1;
    END;
  END;
  -- The frame then reads what Trade-Lookup's reads; bb_trade_details returns the
  -- document and checks the counts.
  SET @head = CONCAT(N'{"Frame":', @p_frame, N',"Updated":', @updated);
  EXEC bb_trade_details @p_frame, @p_ids, @p_acct_id, @p_symbol, @p_start, @p_end, @p_max, @names, @head, @updated;
END;
-- batch
-- Data-Maintenance frame 1 (txn/data_maintenance.go). The client passes what it
-- derives without the database: the mailbox for a customer without one and the
-- EXCHANGE stamp of its clock. Text is compared and replaced case-sensitively, as
-- the client's Go strings are.
DROP PROCEDURE IF EXISTS bb_data_maintenance;
-- batch
CREATE PROCEDURE bb_data_maintenance @p_table VARCHAR(30), @p_acct_id BIGINT, @p_cust_id BIGINT, @p_co_id BIGINT,
  @p_addr_of_cust BIT, @p_symbol VARCHAR(15), @p_day INT, @p_vol_incr INT, @p_tax_id VARCHAR(4), @p_box VARCHAR(50),
  @p_stamp VARCHAR(150), @p_marker VARCHAR(50) AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @cur VARCHAR(200), @next VARCHAR(200), @box VARCHAR(100), @domain VARCHAR(100), @id BIGINT, @n BIGINT = 0,
    @day INT, @pos INT, @wl BIGINT, @i INT = 1, @cnt INT, @ex VARCHAR(6), @msg NVARCHAR(2048);
  DECLARE @rows TABLE (o INT IDENTITY(1,1) PRIMARY KEY, k VARCHAR(15), v VARCHAR(200));
  IF @p_table = 'account_permission'
  BEGIN
    SELECT TOP 1 @cur = ap_acl FROM account_permission WHERE ap_ca_id = @p_acct_id ORDER BY ap_acl DESC;
    IF @@ROWCOUNT = 0 THROW 50011, 'account_permission: no row', 1;
    SET @cur = COALESCE(@cur, '');
    SET @next = CASE WHEN @cur = '1111' THEN '0011' ELSE '1111' END;
    UPDATE account_permission SET ap_acl = @next WHERE ap_ca_id = @p_acct_id AND ap_acl = @cur;
    SET @n = @@ROWCOUNT;
  END
  ELSE IF @p_table = 'address'
  BEGIN
    IF @p_addr_of_cust = 1
      SELECT @id = c_ad_id FROM customer WHERE c_id = @p_cust_id;
    ELSE
      SELECT @id = co_ad_id FROM company WHERE co_id = @p_co_id;
    IF @@ROWCOUNT = 0 THROW 50011, 'address id: no row', 1;
    SELECT @cur = ad_line2 FROM address WHERE ad_id = @id;
    IF @@ROWCOUNT = 0 THROW 50011, 'address: no row', 1;
    SET @next = CASE WHEN @cur = 'Apt. 10C' COLLATE Latin1_General_CS_AS THEN 'Apt. 22' ELSE 'Apt. 10C' END;
    UPDATE address SET ad_line2 = @next WHERE ad_id = @id;
    SET @n = @@ROWCOUNT;
  END
  ELSE IF @p_table = 'company'
  BEGIN
    SELECT @cur = co_sp_rate FROM company WHERE co_id = @p_co_id;
    IF @@ROWCOUNT = 0 THROW 50011, 'company: no row', 1;
    SET @next = CASE WHEN @cur = 'ABA' COLLATE Latin1_General_CS_AS THEN 'AAA' ELSE 'ABA' END;
    UPDATE company SET co_sp_rate = @next WHERE co_id = @p_co_id;
    SET @n = @@ROWCOUNT;
  END
  ELSE IF @p_table = 'customer'
  BEGIN
    SELECT @cur = c_email_2 FROM customer WHERE c_id = @p_cust_id;
    IF @@ROWCOUNT = 0 THROW 50011, 'customer: no row', 1;
    SET @cur = COALESCE(@cur, '');
    SET @pos = CHARINDEX('@', @cur);
    SET @box = CASE WHEN @pos > 0 THEN LEFT(@cur, @pos - 1) ELSE @cur END;
    SET @domain = CASE WHEN @pos > 0 THEN SUBSTRING(@cur, @pos + 1, 200) ELSE '' END;
    IF @box = '' SET @box = @p_box;
    SET @next = CASE WHEN @domain = 'mindspring.com' COLLATE Latin1_General_CS_AS THEN 'earthlink.com' ELSE 'mindspring.com' END;
    UPDATE customer SET c_email_2 = LEFT(@box + '@' + @next, 50) WHERE c_id = @p_cust_id;
    SET @n = @@ROWCOUNT;
  END
  ELSE IF @p_table = 'customer_taxrate'
  BEGIN
    SELECT @cur = cx_tx_id FROM customer_taxrate WHERE cx_c_id = @p_cust_id AND (cx_tx_id LIKE 'US%' OR cx_tx_id LIKE 'CN%');
    IF @@ROWCOUNT = 0 THROW 50011, 'customer_taxrate: no row', 1;
    SET @next = CASE @cur COLLATE Latin1_General_CS_AS
      WHEN 'US1' THEN 'US2' WHEN 'US2' THEN 'US3' WHEN 'US3' THEN 'US4' WHEN 'US4' THEN 'US5' WHEN 'US5' THEN 'US1'
      WHEN 'CN1' THEN 'CN2' WHEN 'CN2' THEN 'CN3' WHEN 'CN3' THEN 'CN4' WHEN 'CN4' THEN 'CN1'
      ELSE 'US1' END;
    UPDATE customer_taxrate SET cx_tx_id = @next WHERE cx_c_id = @p_cust_id AND cx_tx_id = @cur;
    SET @n = @@ROWCOUNT;
  END
  ELSE IF @p_table = 'daily_market'
  BEGIN
    UPDATE daily_market SET dm_vol = dm_vol + @p_vol_incr WHERE dm_s_symb = @p_symbol AND DAY(dm_date) = @p_day;
    SET @n = @@ROWCOUNT;
  END
  ELSE IF @p_table = 'exchange'
  BEGIN
    INSERT INTO @rows (k, v) SELECT ex_id, COALESCE(ex_desc, '') FROM exchange ORDER BY ex_id;
    SET @cnt = @@ROWCOUNT;
    WHILE @i <= @cnt
    BEGIN
      SELECT @ex = k, @cur = v FROM @rows WHERE o = @i;
      SET @pos = CHARINDEX(@p_marker COLLATE Latin1_General_CS_AS, @cur COLLATE Latin1_General_CS_AS);
      SET @next = CASE WHEN @pos > 0 THEN LEFT(@cur, @pos - 1) ELSE @cur END;
      -- DATALENGTH, not LEN: LEN leaves trailing blanks out, Go's len does not.
      UPDATE exchange SET ex_desc = LEFT(@next, 150 - DATALENGTH(@p_stamp)) + @p_stamp WHERE ex_id = @ex;
      SET @n = @n + @@ROWCOUNT;
      SET @i = @i + 1;
    END;
  END
  ELSE IF @p_table = 'financial'
  BEGIN
    SELECT @day = DAY(MIN(fi_qtr_start_date)) FROM financial WHERE fi_co_id = @p_co_id;
    UPDATE financial SET fi_qtr_start_date = DATEADD(day, CASE WHEN @day = 1 THEN 1 ELSE -1 END, fi_qtr_start_date) WHERE fi_co_id = @p_co_id;
    SET @n = @@ROWCOUNT;
  END
  ELSE IF @p_table = 'news_item'
  BEGIN
    UPDATE news_item SET ni_dts = DATEADD(day, 1, ni_dts) WHERE ni_id IN (SELECT nx_ni_id FROM news_xref WHERE nx_co_id = @p_co_id);
    SET @n = @@ROWCOUNT;
  END
  ELSE IF @p_table = 'security'
  BEGIN
    UPDATE security SET s_exch_date = DATEADD(day, 1, s_exch_date) WHERE s_symb = @p_symbol;
    SET @n = @@ROWCOUNT;
  END
  ELSE IF @p_table = 'taxrate'
  BEGIN
    SELECT @cur = tx_name FROM taxrate WHERE tx_id = @p_tax_id;
    IF @@ROWCOUNT = 0 THROW 50011, 'taxrate: no row', 1;
    SET @cur = COALESCE(@cur, '');
    SET @pos = CHARINDEX('Tax' COLLATE Latin1_General_CS_AS, @cur COLLATE Latin1_General_CS_AS);
    IF @pos > 0
      SET @next = STUFF(@cur, @pos, 3, 'tax');
    ELSE
    BEGIN
      SET @pos = CHARINDEX('tax' COLLATE Latin1_General_CS_AS, @cur COLLATE Latin1_General_CS_AS);
      SET @next = CASE WHEN @pos > 0 THEN STUFF(@cur, @pos, 3, 'Tax') ELSE @cur + ' Tax' END;
    END;
    UPDATE taxrate SET tx_name = LEFT(@next, 50) WHERE tx_id = @p_tax_id;
    SET @n = @@ROWCOUNT;
  END
  ELSE IF @p_table = 'watch_item'
  BEGIN
    INSERT INTO @rows (k, v) SELECT wi_s_symb, CAST(wi_wl_id AS VARCHAR(20)) FROM watch_list, watch_item
    WHERE wl_c_id = @p_cust_id AND wi_wl_id = wl_id ORDER BY wi_s_symb;
    SET @cnt = @@ROWCOUNT;
    IF @cnt = 0 THROW 50011, 'watch items: no row', 1;
    SELECT @wl = MAX(CAST(v AS BIGINT)) FROM @rows;
    SELECT @cur = k FROM @rows WHERE o = @cnt / 2 + 1;
    SELECT @next = MIN(s_symb) FROM security WHERE s_symb > @cur AND s_symb NOT IN (SELECT wi_s_symb FROM watch_item WHERE wi_wl_id = @wl);
    IF @next IS NULL
    BEGIN
      SELECT @next = MIN(s_symb) FROM security WHERE s_symb > '' AND s_symb NOT IN (SELECT wi_s_symb FROM watch_item WHERE wi_wl_id = @wl);
      IF @next IS NULL
      BEGIN
        SET @msg = CONCAT('watch list ', @wl, ' holds every security');
        THROW 50011, @msg, 1;
      END;
    END;
    UPDATE watch_item SET wi_s_symb = @next WHERE wi_wl_id = @wl AND wi_s_symb = @cur;
    SET @n = @@ROWCOUNT;
  END
  ELSE
  BEGIN
    SET @msg = CONCAT('data maintenance: unknown table ', @p_table);
    THROW 50000, @msg, 1;
  END;
  IF @n = 0
  BEGIN
    SET @msg = CONCAT(@p_table, ': no row changed');
    THROW 50011, @msg, 1;
  END;
  SELECT (SELECT @p_table AS [Table], @n AS Changed FOR JSON PATH, WITHOUT_ARRAY_WRAPPER);
END;
-- batch
-- Trade-Cleanup (txn/trade_cleanup.go).
DROP PROCEDURE IF EXISTS bb_trade_cleanup;
-- batch
CREATE PROCEDURE bb_trade_cleanup @p_now DATETIME2, @p_first_run_id BIGINT, @p_submitted VARCHAR(4), @p_canceled VARCHAR(4) AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @i INT = 1, @n INT, @id BIGINT, @pending INT = 0, @submitted INT = 0, @msg NVARCHAR(2048);
  DECLARE @ids TABLE (o INT IDENTITY(1,1) PRIMARY KEY, id BIGINT);
  DECLARE @subs TABLE (o INT IDENTITY(1,1) PRIMARY KEY, id BIGINT);
  INSERT INTO @ids (id) SELECT tr_t_id FROM trade_request ORDER BY tr_t_id;
  SET @n = @@ROWCOUNT;
  WHILE @i <= @n
  BEGIN
    SELECT @id = id FROM @ids WHERE o = @i;
    INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (@id, @p_now, @p_submitted);
    UPDATE trade SET t_dts = @p_now, t_st_id = @p_canceled WHERE t_id = @id;
    IF @@ROWCOUNT = 0
    BEGIN
      SET @msg = CONCAT('cancel trade ', @id, ' changed 0 rows, want 1');
      THROW 50011, @msg, 1;
    END;
    INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (@id, @p_now, @p_canceled);
    SET @pending = @pending + 1;
    SET @i = @i + 1;
  END;
  DELETE FROM trade_request;
  INSERT INTO @subs (id) SELECT t_id FROM trade WHERE t_id >= @p_first_run_id AND t_st_id = @p_submitted ORDER BY t_id;
  SET @n = @@ROWCOUNT;
  SET @i = 1;
  WHILE @i <= @n
  BEGIN
    SELECT @id = id FROM @subs WHERE o = @i;
    UPDATE trade SET t_dts = @p_now, t_st_id = @p_canceled WHERE t_id = @id;
    IF @@ROWCOUNT = 0
    BEGIN
      SET @msg = CONCAT('cancel trade ', @id, ' changed 0 rows, want 1');
      THROW 50011, @msg, 1;
    END;
    INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (@id, @p_now, @p_canceled);
    SET @submitted = @submitted + 1;
    SET @i = @i + 1;
  END;
  SELECT (SELECT @pending AS Pending, @submitted AS Submitted FOR JSON PATH, WITHOUT_ARRAY_WRAPPER);
END;
