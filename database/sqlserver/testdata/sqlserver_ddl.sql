-- brokerbench T-SQL DDL (golden; regenerate with go test ./schema/dialect -run SQLServerDDL -update)

-- Generic path: tables with their clustered keys.
CREATE TABLE status_type (
    st_id VARCHAR(4) NOT NULL,
    st_name VARCHAR(10) NOT NULL,
    CONSTRAINT pk_status_type PRIMARY KEY CLUSTERED (st_id)
);

CREATE TABLE trade_type (
    tt_id VARCHAR(3) NOT NULL,
    tt_name VARCHAR(12) NOT NULL,
    tt_is_sell BIT NOT NULL,
    tt_is_mrkt BIT NOT NULL,
    CONSTRAINT pk_trade_type PRIMARY KEY CLUSTERED (tt_id)
);

CREATE TABLE taxrate (
    tx_id VARCHAR(4) NOT NULL,
    tx_name VARCHAR(50) NOT NULL,
    tx_rate DECIMAL(6,5) NOT NULL,
    CONSTRAINT pk_taxrate PRIMARY KEY CLUSTERED (tx_id)
);

CREATE TABLE zip_code (
    zc_code VARCHAR(12) NOT NULL,
    zc_town VARCHAR(80) NOT NULL,
    zc_div VARCHAR(80) NOT NULL,
    CONSTRAINT pk_zip_code PRIMARY KEY CLUSTERED (zc_code)
);

CREATE TABLE sector (
    sc_id VARCHAR(2) NOT NULL,
    sc_name VARCHAR(30) NOT NULL,
    CONSTRAINT pk_sector PRIMARY KEY CLUSTERED (sc_id)
);

CREATE TABLE industry (
    in_id VARCHAR(2) NOT NULL,
    in_name VARCHAR(50) NOT NULL,
    in_sc_id VARCHAR(2) NOT NULL,
    CONSTRAINT pk_industry PRIMARY KEY CLUSTERED (in_id)
);

CREATE TABLE address (
    ad_id BIGINT NOT NULL,
    ad_line1 VARCHAR(80) NULL,
    ad_line2 VARCHAR(80) NULL,
    ad_zc_code VARCHAR(12) NOT NULL,
    ad_ctry VARCHAR(80) NULL,
    CONSTRAINT pk_address PRIMARY KEY CLUSTERED (ad_id)
);

CREATE TABLE exchange (
    ex_id VARCHAR(6) NOT NULL,
    ex_name VARCHAR(100) NOT NULL,
    ex_num_symb INT NOT NULL,
    ex_open INT NOT NULL,
    ex_close INT NOT NULL,
    ex_desc VARCHAR(150) NULL,
    ex_ad_id BIGINT NOT NULL,
    CONSTRAINT pk_exchange PRIMARY KEY CLUSTERED (ex_id)
);

CREATE TABLE charge (
    ch_tt_id VARCHAR(3) NOT NULL,
    ch_c_tier SMALLINT NOT NULL,
    ch_chrg DECIMAL(10,2) NULL,
    CONSTRAINT pk_charge PRIMARY KEY CLUSTERED (ch_tt_id, ch_c_tier)
);

CREATE TABLE commission_rate (
    cr_c_tier SMALLINT NOT NULL,
    cr_tt_id VARCHAR(3) NOT NULL,
    cr_ex_id VARCHAR(6) NOT NULL,
    cr_from_qty INT NOT NULL,
    cr_to_qty INT NOT NULL,
    cr_rate DECIMAL(5,2) NOT NULL,
    CONSTRAINT pk_commission_rate PRIMARY KEY CLUSTERED (cr_c_tier, cr_tt_id, cr_ex_id, cr_from_qty)
);

CREATE TABLE company (
    co_id BIGINT NOT NULL,
    co_st_id VARCHAR(4) NOT NULL,
    co_name VARCHAR(60) NOT NULL,
    co_in_id VARCHAR(2) NOT NULL,
    co_sp_rate VARCHAR(4) NOT NULL,
    co_ceo VARCHAR(46) NOT NULL,
    co_ad_id BIGINT NOT NULL,
    co_desc VARCHAR(150) NOT NULL,
    co_open_date DATE NOT NULL,
    CONSTRAINT pk_company PRIMARY KEY CLUSTERED (co_id)
);

CREATE TABLE company_competitor (
    cp_co_id BIGINT NOT NULL,
    cp_comp_co_id BIGINT NOT NULL,
    cp_in_id VARCHAR(2) NOT NULL,
    CONSTRAINT pk_company_competitor PRIMARY KEY CLUSTERED (cp_co_id, cp_comp_co_id, cp_in_id)
);

CREATE TABLE security (
    s_symb VARCHAR(15) NOT NULL,
    s_issue VARCHAR(6) NOT NULL,
    s_st_id VARCHAR(4) NOT NULL,
    s_name VARCHAR(70) NOT NULL,
    s_ex_id VARCHAR(6) NOT NULL,
    s_co_id BIGINT NOT NULL,
    s_num_out BIGINT NOT NULL,
    s_start_date DATE NOT NULL,
    s_exch_date DATE NOT NULL,
    s_pe DECIMAL(10,2) NOT NULL,
    s_52wk_high DECIMAL(12,2) NOT NULL,
    s_52wk_high_date DATE NOT NULL,
    s_52wk_low DECIMAL(12,2) NOT NULL,
    s_52wk_low_date DATE NOT NULL,
    s_dividend DECIMAL(10,2) NOT NULL,
    s_yield DECIMAL(5,2) NOT NULL,
    CONSTRAINT pk_security PRIMARY KEY CLUSTERED (s_symb)
);

CREATE TABLE daily_market (
    dm_date DATE NOT NULL,
    dm_s_symb VARCHAR(15) NOT NULL,
    dm_close DECIMAL(12,2) NOT NULL,
    dm_high DECIMAL(12,2) NOT NULL,
    dm_low DECIMAL(12,2) NOT NULL,
    dm_vol BIGINT NOT NULL,
    CONSTRAINT pk_daily_market PRIMARY KEY CLUSTERED (dm_date, dm_s_symb)
);

CREATE TABLE financial (
    fi_co_id BIGINT NOT NULL,
    fi_year INT NOT NULL,
    fi_qtr SMALLINT NOT NULL,
    fi_qtr_start_date DATE NOT NULL,
    fi_revenue DECIMAL(15,2) NOT NULL,
    fi_net_earn DECIMAL(15,2) NOT NULL,
    fi_basic_eps DECIMAL(10,2) NOT NULL,
    fi_dilut_eps DECIMAL(10,2) NOT NULL,
    fi_margin DECIMAL(10,2) NOT NULL,
    fi_inventory DECIMAL(15,2) NOT NULL,
    fi_assets DECIMAL(15,2) NOT NULL,
    fi_liability DECIMAL(15,2) NOT NULL,
    fi_out_basic BIGINT NOT NULL,
    fi_out_dilut BIGINT NOT NULL,
    CONSTRAINT pk_financial PRIMARY KEY CLUSTERED (fi_co_id, fi_year, fi_qtr)
);

CREATE TABLE last_trade (
    lt_s_symb VARCHAR(15) NOT NULL,
    lt_dts DATETIME2(3) NOT NULL,
    lt_price DECIMAL(12,2) NOT NULL,
    lt_open_price DECIMAL(12,2) NOT NULL,
    lt_vol BIGINT NOT NULL,
    CONSTRAINT pk_last_trade PRIMARY KEY CLUSTERED (lt_s_symb)
);

CREATE TABLE news_item (
    ni_id BIGINT NOT NULL,
    ni_headline VARCHAR(80) NOT NULL,
    ni_summary VARCHAR(255) NOT NULL,
    ni_item VARCHAR(MAX) NOT NULL,
    ni_dts DATETIME2(3) NOT NULL,
    ni_source VARCHAR(30) NOT NULL,
    ni_author VARCHAR(30) NULL,
    CONSTRAINT pk_news_item PRIMARY KEY CLUSTERED (ni_id)
);

CREATE TABLE news_xref (
    nx_ni_id BIGINT NOT NULL,
    nx_co_id BIGINT NOT NULL,
    CONSTRAINT pk_news_xref PRIMARY KEY CLUSTERED (nx_ni_id, nx_co_id)
);

CREATE TABLE customer (
    c_id BIGINT NOT NULL,
    c_tax_id VARCHAR(20) NOT NULL,
    c_st_id VARCHAR(4) NOT NULL,
    c_l_name VARCHAR(25) NOT NULL,
    c_f_name VARCHAR(20) NOT NULL,
    c_m_name VARCHAR(1) NULL,
    c_gndr VARCHAR(1) NULL,
    c_tier SMALLINT NOT NULL,
    c_dob DATE NOT NULL,
    c_ad_id BIGINT NOT NULL,
    c_ctry_1 VARCHAR(3) NULL,
    c_area_1 VARCHAR(3) NULL,
    c_local_1 VARCHAR(10) NULL,
    c_ext_1 VARCHAR(5) NULL,
    c_ctry_2 VARCHAR(3) NULL,
    c_area_2 VARCHAR(3) NULL,
    c_local_2 VARCHAR(10) NULL,
    c_ext_2 VARCHAR(5) NULL,
    c_ctry_3 VARCHAR(3) NULL,
    c_area_3 VARCHAR(3) NULL,
    c_local_3 VARCHAR(10) NULL,
    c_ext_3 VARCHAR(5) NULL,
    c_email_1 VARCHAR(50) NULL,
    c_email_2 VARCHAR(50) NULL,
    CONSTRAINT pk_customer PRIMARY KEY CLUSTERED (c_id)
);

CREATE TABLE customer_taxrate (
    cx_tx_id VARCHAR(4) NOT NULL,
    cx_c_id BIGINT NOT NULL,
    CONSTRAINT pk_customer_taxrate PRIMARY KEY CLUSTERED (cx_c_id, cx_tx_id)
);

CREATE TABLE broker (
    b_id BIGINT NOT NULL,
    b_st_id VARCHAR(4) NOT NULL,
    b_name VARCHAR(49) NOT NULL,
    b_num_trades INT NOT NULL,
    b_comm_total DECIMAL(12,2) NOT NULL,
    CONSTRAINT pk_broker PRIMARY KEY CLUSTERED (b_id) WITH (FILLFACTOR = 10)
);

CREATE TABLE customer_account (
    ca_id BIGINT NOT NULL,
    ca_b_id BIGINT NOT NULL,
    ca_c_id BIGINT NOT NULL,
    ca_name VARCHAR(50) NULL,
    ca_tax_st SMALLINT NOT NULL,
    ca_bal DECIMAL(12,2) NOT NULL,
    CONSTRAINT pk_customer_account PRIMARY KEY CLUSTERED (ca_id)
);

CREATE TABLE account_permission (
    ap_ca_id BIGINT NOT NULL,
    ap_acl VARCHAR(4) NOT NULL,
    ap_tax_id VARCHAR(20) NOT NULL,
    ap_l_name VARCHAR(25) NOT NULL,
    ap_f_name VARCHAR(20) NOT NULL,
    CONSTRAINT pk_account_permission PRIMARY KEY CLUSTERED (ap_ca_id, ap_tax_id)
);

CREATE TABLE watch_list (
    wl_id BIGINT NOT NULL,
    wl_c_id BIGINT NOT NULL,
    CONSTRAINT pk_watch_list PRIMARY KEY CLUSTERED (wl_id)
);

CREATE TABLE watch_item (
    wi_wl_id BIGINT NOT NULL,
    wi_s_symb VARCHAR(15) NOT NULL,
    CONSTRAINT pk_watch_item PRIMARY KEY CLUSTERED (wi_wl_id, wi_s_symb)
);

CREATE TABLE trade (
    t_id BIGINT NOT NULL,
    t_dts DATETIME2(3) NOT NULL,
    t_st_id VARCHAR(4) NOT NULL,
    t_tt_id VARCHAR(3) NOT NULL,
    t_is_cash BIT NOT NULL,
    t_s_symb VARCHAR(15) NOT NULL,
    t_qty INT NOT NULL,
    t_bid_price DECIMAL(12,2) NOT NULL,
    t_ca_id BIGINT NOT NULL,
    t_exec_name VARCHAR(49) NOT NULL,
    t_trade_price DECIMAL(12,2) NULL,
    t_chrg DECIMAL(10,2) NOT NULL,
    t_comm DECIMAL(10,2) NOT NULL,
    t_tax DECIMAL(10,2) NOT NULL,
    t_lifo BIT NOT NULL,
    CONSTRAINT pk_trade PRIMARY KEY CLUSTERED (t_id)
);

CREATE TABLE trade_history (
    th_t_id BIGINT NOT NULL,
    th_dts DATETIME2(3) NOT NULL,
    th_st_id VARCHAR(4) NOT NULL,
    CONSTRAINT pk_trade_history PRIMARY KEY CLUSTERED (th_t_id, th_st_id)
);

CREATE TABLE trade_request (
    tr_t_id BIGINT NOT NULL,
    tr_tt_id VARCHAR(3) NOT NULL,
    tr_s_symb VARCHAR(15) NOT NULL,
    tr_qty INT NOT NULL,
    tr_bid_price DECIMAL(12,2) NOT NULL,
    tr_b_id BIGINT NOT NULL,
    CONSTRAINT pk_trade_request PRIMARY KEY CLUSTERED (tr_t_id)
);

CREATE TABLE settlement (
    se_t_id BIGINT NOT NULL,
    se_cash_type VARCHAR(40) NOT NULL,
    se_cash_due_date DATE NOT NULL,
    se_amt DECIMAL(10,2) NOT NULL,
    CONSTRAINT pk_settlement PRIMARY KEY CLUSTERED (se_t_id)
);

CREATE TABLE cash_transaction (
    ct_t_id BIGINT NOT NULL,
    ct_dts DATETIME2(3) NOT NULL,
    ct_amt DECIMAL(10,2) NOT NULL,
    ct_name VARCHAR(100) NULL,
    CONSTRAINT pk_cash_transaction PRIMARY KEY CLUSTERED (ct_t_id)
);

CREATE TABLE holding_summary (
    hs_ca_id BIGINT NOT NULL,
    hs_s_symb VARCHAR(15) NOT NULL,
    hs_qty INT NOT NULL,
    CONSTRAINT pk_holding_summary PRIMARY KEY CLUSTERED (hs_ca_id, hs_s_symb)
);

CREATE TABLE holding (
    h_t_id BIGINT NOT NULL,
    h_ca_id BIGINT NOT NULL,
    h_s_symb VARCHAR(15) NOT NULL,
    h_dts DATETIME2(3) NOT NULL,
    h_price DECIMAL(12,2) NOT NULL,
    h_qty INT NOT NULL,
    CONSTRAINT pk_holding PRIMARY KEY CLUSTERED (h_t_id)
);

CREATE TABLE holding_history (
    hh_h_t_id BIGINT NOT NULL,
    hh_t_id BIGINT NOT NULL,
    hh_before_qty INT NOT NULL,
    hh_after_qty INT NOT NULL,
    CONSTRAINT pk_holding_history PRIMARY KEY CLUSTERED (hh_h_t_id, hh_t_id)
);

CREATE TABLE bb_load (
    load_id SMALLINT NOT NULL,
    customers BIGINT NOT NULL,
    trade_days INT NOT NULL,
    seed BIGINT NOT NULL,
    generator_version INT NOT NULL,
    started_at DATETIME2(3) NOT NULL,
    completed_at DATETIME2(3) NULL,
    tool_version VARCHAR(40) NOT NULL,
    workers INT NOT NULL,
    CONSTRAINT pk_bb_load PRIMARY KEY CLUSTERED (load_id)
);

CREATE TABLE bb_opening_balance (
    ca_id BIGINT NOT NULL,
    bal DECIMAL(12,2) NOT NULL,
    CONSTRAINT pk_bb_opening_balance PRIMARY KEY CLUSTERED (ca_id)
);

-- Load path: heaps, keys after the data.
CREATE TABLE status_type (
    st_id VARCHAR(4) NOT NULL,
    st_name VARCHAR(10) NOT NULL
);
ALTER TABLE status_type ADD CONSTRAINT pk_status_type PRIMARY KEY CLUSTERED (st_id);

CREATE TABLE trade_type (
    tt_id VARCHAR(3) NOT NULL,
    tt_name VARCHAR(12) NOT NULL,
    tt_is_sell BIT NOT NULL,
    tt_is_mrkt BIT NOT NULL
);
ALTER TABLE trade_type ADD CONSTRAINT pk_trade_type PRIMARY KEY CLUSTERED (tt_id);

CREATE TABLE taxrate (
    tx_id VARCHAR(4) NOT NULL,
    tx_name VARCHAR(50) NOT NULL,
    tx_rate DECIMAL(6,5) NOT NULL
);
ALTER TABLE taxrate ADD CONSTRAINT pk_taxrate PRIMARY KEY CLUSTERED (tx_id);

CREATE TABLE zip_code (
    zc_code VARCHAR(12) NOT NULL,
    zc_town VARCHAR(80) NOT NULL,
    zc_div VARCHAR(80) NOT NULL
);
ALTER TABLE zip_code ADD CONSTRAINT pk_zip_code PRIMARY KEY CLUSTERED (zc_code);

CREATE TABLE sector (
    sc_id VARCHAR(2) NOT NULL,
    sc_name VARCHAR(30) NOT NULL
);
ALTER TABLE sector ADD CONSTRAINT pk_sector PRIMARY KEY CLUSTERED (sc_id);

CREATE TABLE industry (
    in_id VARCHAR(2) NOT NULL,
    in_name VARCHAR(50) NOT NULL,
    in_sc_id VARCHAR(2) NOT NULL
);
ALTER TABLE industry ADD CONSTRAINT pk_industry PRIMARY KEY CLUSTERED (in_id);

CREATE TABLE address (
    ad_id BIGINT NOT NULL,
    ad_line1 VARCHAR(80) NULL,
    ad_line2 VARCHAR(80) NULL,
    ad_zc_code VARCHAR(12) NOT NULL,
    ad_ctry VARCHAR(80) NULL
);
ALTER TABLE address ADD CONSTRAINT pk_address PRIMARY KEY CLUSTERED (ad_id);

CREATE TABLE exchange (
    ex_id VARCHAR(6) NOT NULL,
    ex_name VARCHAR(100) NOT NULL,
    ex_num_symb INT NOT NULL,
    ex_open INT NOT NULL,
    ex_close INT NOT NULL,
    ex_desc VARCHAR(150) NULL,
    ex_ad_id BIGINT NOT NULL
);
ALTER TABLE exchange ADD CONSTRAINT pk_exchange PRIMARY KEY CLUSTERED (ex_id);

CREATE TABLE charge (
    ch_tt_id VARCHAR(3) NOT NULL,
    ch_c_tier SMALLINT NOT NULL,
    ch_chrg DECIMAL(10,2) NULL
);
ALTER TABLE charge ADD CONSTRAINT pk_charge PRIMARY KEY CLUSTERED (ch_tt_id, ch_c_tier);

CREATE TABLE commission_rate (
    cr_c_tier SMALLINT NOT NULL,
    cr_tt_id VARCHAR(3) NOT NULL,
    cr_ex_id VARCHAR(6) NOT NULL,
    cr_from_qty INT NOT NULL,
    cr_to_qty INT NOT NULL,
    cr_rate DECIMAL(5,2) NOT NULL
);
ALTER TABLE commission_rate ADD CONSTRAINT pk_commission_rate PRIMARY KEY CLUSTERED (cr_c_tier, cr_tt_id, cr_ex_id, cr_from_qty);

CREATE TABLE company (
    co_id BIGINT NOT NULL,
    co_st_id VARCHAR(4) NOT NULL,
    co_name VARCHAR(60) NOT NULL,
    co_in_id VARCHAR(2) NOT NULL,
    co_sp_rate VARCHAR(4) NOT NULL,
    co_ceo VARCHAR(46) NOT NULL,
    co_ad_id BIGINT NOT NULL,
    co_desc VARCHAR(150) NOT NULL,
    co_open_date DATE NOT NULL
);
ALTER TABLE company ADD CONSTRAINT pk_company PRIMARY KEY CLUSTERED (co_id);

CREATE TABLE company_competitor (
    cp_co_id BIGINT NOT NULL,
    cp_comp_co_id BIGINT NOT NULL,
    cp_in_id VARCHAR(2) NOT NULL
);
ALTER TABLE company_competitor ADD CONSTRAINT pk_company_competitor PRIMARY KEY CLUSTERED (cp_co_id, cp_comp_co_id, cp_in_id);

CREATE TABLE security (
    s_symb VARCHAR(15) NOT NULL,
    s_issue VARCHAR(6) NOT NULL,
    s_st_id VARCHAR(4) NOT NULL,
    s_name VARCHAR(70) NOT NULL,
    s_ex_id VARCHAR(6) NOT NULL,
    s_co_id BIGINT NOT NULL,
    s_num_out BIGINT NOT NULL,
    s_start_date DATE NOT NULL,
    s_exch_date DATE NOT NULL,
    s_pe DECIMAL(10,2) NOT NULL,
    s_52wk_high DECIMAL(12,2) NOT NULL,
    s_52wk_high_date DATE NOT NULL,
    s_52wk_low DECIMAL(12,2) NOT NULL,
    s_52wk_low_date DATE NOT NULL,
    s_dividend DECIMAL(10,2) NOT NULL,
    s_yield DECIMAL(5,2) NOT NULL
);
ALTER TABLE security ADD CONSTRAINT pk_security PRIMARY KEY CLUSTERED (s_symb);

CREATE TABLE daily_market (
    dm_date DATE NOT NULL,
    dm_s_symb VARCHAR(15) NOT NULL,
    dm_close DECIMAL(12,2) NOT NULL,
    dm_high DECIMAL(12,2) NOT NULL,
    dm_low DECIMAL(12,2) NOT NULL,
    dm_vol BIGINT NOT NULL
);
ALTER TABLE daily_market ADD CONSTRAINT pk_daily_market PRIMARY KEY CLUSTERED (dm_date, dm_s_symb);

CREATE TABLE financial (
    fi_co_id BIGINT NOT NULL,
    fi_year INT NOT NULL,
    fi_qtr SMALLINT NOT NULL,
    fi_qtr_start_date DATE NOT NULL,
    fi_revenue DECIMAL(15,2) NOT NULL,
    fi_net_earn DECIMAL(15,2) NOT NULL,
    fi_basic_eps DECIMAL(10,2) NOT NULL,
    fi_dilut_eps DECIMAL(10,2) NOT NULL,
    fi_margin DECIMAL(10,2) NOT NULL,
    fi_inventory DECIMAL(15,2) NOT NULL,
    fi_assets DECIMAL(15,2) NOT NULL,
    fi_liability DECIMAL(15,2) NOT NULL,
    fi_out_basic BIGINT NOT NULL,
    fi_out_dilut BIGINT NOT NULL
);
ALTER TABLE financial ADD CONSTRAINT pk_financial PRIMARY KEY CLUSTERED (fi_co_id, fi_year, fi_qtr);

CREATE TABLE last_trade (
    lt_s_symb VARCHAR(15) NOT NULL,
    lt_dts DATETIME2(3) NOT NULL,
    lt_price DECIMAL(12,2) NOT NULL,
    lt_open_price DECIMAL(12,2) NOT NULL,
    lt_vol BIGINT NOT NULL
);
ALTER TABLE last_trade ADD CONSTRAINT pk_last_trade PRIMARY KEY CLUSTERED (lt_s_symb);

CREATE TABLE news_item (
    ni_id BIGINT NOT NULL,
    ni_headline VARCHAR(80) NOT NULL,
    ni_summary VARCHAR(255) NOT NULL,
    ni_item VARCHAR(MAX) NOT NULL,
    ni_dts DATETIME2(3) NOT NULL,
    ni_source VARCHAR(30) NOT NULL,
    ni_author VARCHAR(30) NULL
);
ALTER TABLE news_item ADD CONSTRAINT pk_news_item PRIMARY KEY CLUSTERED (ni_id);

CREATE TABLE news_xref (
    nx_ni_id BIGINT NOT NULL,
    nx_co_id BIGINT NOT NULL
);
ALTER TABLE news_xref ADD CONSTRAINT pk_news_xref PRIMARY KEY CLUSTERED (nx_ni_id, nx_co_id);

CREATE TABLE customer (
    c_id BIGINT NOT NULL,
    c_tax_id VARCHAR(20) NOT NULL,
    c_st_id VARCHAR(4) NOT NULL,
    c_l_name VARCHAR(25) NOT NULL,
    c_f_name VARCHAR(20) NOT NULL,
    c_m_name VARCHAR(1) NULL,
    c_gndr VARCHAR(1) NULL,
    c_tier SMALLINT NOT NULL,
    c_dob DATE NOT NULL,
    c_ad_id BIGINT NOT NULL,
    c_ctry_1 VARCHAR(3) NULL,
    c_area_1 VARCHAR(3) NULL,
    c_local_1 VARCHAR(10) NULL,
    c_ext_1 VARCHAR(5) NULL,
    c_ctry_2 VARCHAR(3) NULL,
    c_area_2 VARCHAR(3) NULL,
    c_local_2 VARCHAR(10) NULL,
    c_ext_2 VARCHAR(5) NULL,
    c_ctry_3 VARCHAR(3) NULL,
    c_area_3 VARCHAR(3) NULL,
    c_local_3 VARCHAR(10) NULL,
    c_ext_3 VARCHAR(5) NULL,
    c_email_1 VARCHAR(50) NULL,
    c_email_2 VARCHAR(50) NULL
);
ALTER TABLE customer ADD CONSTRAINT pk_customer PRIMARY KEY CLUSTERED (c_id);

CREATE TABLE customer_taxrate (
    cx_tx_id VARCHAR(4) NOT NULL,
    cx_c_id BIGINT NOT NULL
);
ALTER TABLE customer_taxrate ADD CONSTRAINT pk_customer_taxrate PRIMARY KEY CLUSTERED (cx_c_id, cx_tx_id);

CREATE TABLE broker (
    b_id BIGINT NOT NULL,
    b_st_id VARCHAR(4) NOT NULL,
    b_name VARCHAR(49) NOT NULL,
    b_num_trades INT NOT NULL,
    b_comm_total DECIMAL(12,2) NOT NULL
);
ALTER TABLE broker ADD CONSTRAINT pk_broker PRIMARY KEY CLUSTERED (b_id) WITH (FILLFACTOR = 10);

CREATE TABLE customer_account (
    ca_id BIGINT NOT NULL,
    ca_b_id BIGINT NOT NULL,
    ca_c_id BIGINT NOT NULL,
    ca_name VARCHAR(50) NULL,
    ca_tax_st SMALLINT NOT NULL,
    ca_bal DECIMAL(12,2) NOT NULL
);
ALTER TABLE customer_account ADD CONSTRAINT pk_customer_account PRIMARY KEY CLUSTERED (ca_id);

CREATE TABLE account_permission (
    ap_ca_id BIGINT NOT NULL,
    ap_acl VARCHAR(4) NOT NULL,
    ap_tax_id VARCHAR(20) NOT NULL,
    ap_l_name VARCHAR(25) NOT NULL,
    ap_f_name VARCHAR(20) NOT NULL
);
ALTER TABLE account_permission ADD CONSTRAINT pk_account_permission PRIMARY KEY CLUSTERED (ap_ca_id, ap_tax_id);

CREATE TABLE watch_list (
    wl_id BIGINT NOT NULL,
    wl_c_id BIGINT NOT NULL
);
ALTER TABLE watch_list ADD CONSTRAINT pk_watch_list PRIMARY KEY CLUSTERED (wl_id);

CREATE TABLE watch_item (
    wi_wl_id BIGINT NOT NULL,
    wi_s_symb VARCHAR(15) NOT NULL
);
ALTER TABLE watch_item ADD CONSTRAINT pk_watch_item PRIMARY KEY CLUSTERED (wi_wl_id, wi_s_symb);

CREATE TABLE trade (
    t_id BIGINT NOT NULL,
    t_dts DATETIME2(3) NOT NULL,
    t_st_id VARCHAR(4) NOT NULL,
    t_tt_id VARCHAR(3) NOT NULL,
    t_is_cash BIT NOT NULL,
    t_s_symb VARCHAR(15) NOT NULL,
    t_qty INT NOT NULL,
    t_bid_price DECIMAL(12,2) NOT NULL,
    t_ca_id BIGINT NOT NULL,
    t_exec_name VARCHAR(49) NOT NULL,
    t_trade_price DECIMAL(12,2) NULL,
    t_chrg DECIMAL(10,2) NOT NULL,
    t_comm DECIMAL(10,2) NOT NULL,
    t_tax DECIMAL(10,2) NOT NULL,
    t_lifo BIT NOT NULL
);
ALTER TABLE trade ADD CONSTRAINT pk_trade PRIMARY KEY CLUSTERED (t_id);

CREATE TABLE trade_history (
    th_t_id BIGINT NOT NULL,
    th_dts DATETIME2(3) NOT NULL,
    th_st_id VARCHAR(4) NOT NULL
);
ALTER TABLE trade_history ADD CONSTRAINT pk_trade_history PRIMARY KEY CLUSTERED (th_t_id, th_st_id);

CREATE TABLE trade_request (
    tr_t_id BIGINT NOT NULL,
    tr_tt_id VARCHAR(3) NOT NULL,
    tr_s_symb VARCHAR(15) NOT NULL,
    tr_qty INT NOT NULL,
    tr_bid_price DECIMAL(12,2) NOT NULL,
    tr_b_id BIGINT NOT NULL
);
ALTER TABLE trade_request ADD CONSTRAINT pk_trade_request PRIMARY KEY CLUSTERED (tr_t_id);

CREATE TABLE settlement (
    se_t_id BIGINT NOT NULL,
    se_cash_type VARCHAR(40) NOT NULL,
    se_cash_due_date DATE NOT NULL,
    se_amt DECIMAL(10,2) NOT NULL
);
ALTER TABLE settlement ADD CONSTRAINT pk_settlement PRIMARY KEY CLUSTERED (se_t_id);

CREATE TABLE cash_transaction (
    ct_t_id BIGINT NOT NULL,
    ct_dts DATETIME2(3) NOT NULL,
    ct_amt DECIMAL(10,2) NOT NULL,
    ct_name VARCHAR(100) NULL
);
ALTER TABLE cash_transaction ADD CONSTRAINT pk_cash_transaction PRIMARY KEY CLUSTERED (ct_t_id);

CREATE TABLE holding_summary (
    hs_ca_id BIGINT NOT NULL,
    hs_s_symb VARCHAR(15) NOT NULL,
    hs_qty INT NOT NULL
);
ALTER TABLE holding_summary ADD CONSTRAINT pk_holding_summary PRIMARY KEY CLUSTERED (hs_ca_id, hs_s_symb);

CREATE TABLE holding (
    h_t_id BIGINT NOT NULL,
    h_ca_id BIGINT NOT NULL,
    h_s_symb VARCHAR(15) NOT NULL,
    h_dts DATETIME2(3) NOT NULL,
    h_price DECIMAL(12,2) NOT NULL,
    h_qty INT NOT NULL
);
ALTER TABLE holding ADD CONSTRAINT pk_holding PRIMARY KEY CLUSTERED (h_t_id);

CREATE TABLE holding_history (
    hh_h_t_id BIGINT NOT NULL,
    hh_t_id BIGINT NOT NULL,
    hh_before_qty INT NOT NULL,
    hh_after_qty INT NOT NULL
);
ALTER TABLE holding_history ADD CONSTRAINT pk_holding_history PRIMARY KEY CLUSTERED (hh_h_t_id, hh_t_id);

CREATE TABLE bb_load (
    load_id SMALLINT NOT NULL,
    customers BIGINT NOT NULL,
    trade_days INT NOT NULL,
    seed BIGINT NOT NULL,
    generator_version INT NOT NULL,
    started_at DATETIME2(3) NOT NULL,
    completed_at DATETIME2(3) NULL,
    tool_version VARCHAR(40) NOT NULL,
    workers INT NOT NULL
);
ALTER TABLE bb_load ADD CONSTRAINT pk_bb_load PRIMARY KEY CLUSTERED (load_id);

CREATE TABLE bb_opening_balance (
    ca_id BIGINT NOT NULL,
    bal DECIMAL(12,2) NOT NULL
);
ALTER TABLE bb_opening_balance ADD CONSTRAINT pk_bb_opening_balance PRIMARY KEY CLUSTERED (ca_id);

CREATE NONCLUSTERED INDEX i_sc_name ON sector (sc_name);
CREATE NONCLUSTERED INDEX i_in_name ON industry (in_name);
CREATE NONCLUSTERED INDEX i_in_sc_id ON industry (in_sc_id);
CREATE NONCLUSTERED INDEX i_co_name ON company (co_name);
CREATE NONCLUSTERED INDEX i_co_in_id ON company (co_in_id);
CREATE NONCLUSTERED INDEX i_s_co_id_issue ON security (s_co_id, s_issue);
CREATE NONCLUSTERED INDEX i_dm_s_symb_date ON daily_market (dm_s_symb, dm_date);
CREATE NONCLUSTERED INDEX i_nx_co_id ON news_xref (nx_co_id);
CREATE NONCLUSTERED INDEX i_c_tax_id ON customer (c_tax_id);
CREATE NONCLUSTERED INDEX i_b_name ON broker (b_name);
CREATE NONCLUSTERED INDEX i_ca_c_id ON customer_account (ca_c_id);
CREATE NONCLUSTERED INDEX i_wl_c_id ON watch_list (wl_c_id);
CREATE NONCLUSTERED INDEX i_t_ca_id_dts ON trade (t_ca_id, t_dts);
CREATE NONCLUSTERED INDEX i_t_s_symb_dts ON trade (t_s_symb, t_dts);
CREATE NONCLUSTERED INDEX i_t_st_id ON trade (t_st_id);
CREATE NONCLUSTERED INDEX i_th_t_id_dts ON trade_history (th_t_id, th_dts);
CREATE NONCLUSTERED INDEX i_tr_s_symb ON trade_request (tr_s_symb);
CREATE NONCLUSTERED INDEX i_tr_b_id ON trade_request (tr_b_id);
CREATE NONCLUSTERED INDEX i_h_ca_id_symb_dts ON holding (h_ca_id, h_s_symb, h_dts);
CREATE NONCLUSTERED INDEX i_hh_t_id ON holding_history (hh_t_id);

ALTER TABLE industry WITH CHECK ADD CONSTRAINT fk_industry_1 FOREIGN KEY (in_sc_id) REFERENCES sector (sc_id);
ALTER TABLE address WITH CHECK ADD CONSTRAINT fk_address_1 FOREIGN KEY (ad_zc_code) REFERENCES zip_code (zc_code);
ALTER TABLE exchange WITH CHECK ADD CONSTRAINT fk_exchange_1 FOREIGN KEY (ex_ad_id) REFERENCES address (ad_id);
ALTER TABLE charge WITH CHECK ADD CONSTRAINT fk_charge_1 FOREIGN KEY (ch_tt_id) REFERENCES trade_type (tt_id);
ALTER TABLE commission_rate WITH CHECK ADD CONSTRAINT fk_commission_rate_1 FOREIGN KEY (cr_tt_id) REFERENCES trade_type (tt_id);
ALTER TABLE commission_rate WITH CHECK ADD CONSTRAINT fk_commission_rate_2 FOREIGN KEY (cr_ex_id) REFERENCES exchange (ex_id);
ALTER TABLE company WITH CHECK ADD CONSTRAINT fk_company_1 FOREIGN KEY (co_st_id) REFERENCES status_type (st_id);
ALTER TABLE company WITH CHECK ADD CONSTRAINT fk_company_2 FOREIGN KEY (co_in_id) REFERENCES industry (in_id);
ALTER TABLE company WITH CHECK ADD CONSTRAINT fk_company_3 FOREIGN KEY (co_ad_id) REFERENCES address (ad_id);
ALTER TABLE company_competitor WITH CHECK ADD CONSTRAINT fk_company_competitor_1 FOREIGN KEY (cp_co_id) REFERENCES company (co_id);
ALTER TABLE company_competitor WITH CHECK ADD CONSTRAINT fk_company_competitor_2 FOREIGN KEY (cp_comp_co_id) REFERENCES company (co_id);
ALTER TABLE company_competitor WITH CHECK ADD CONSTRAINT fk_company_competitor_3 FOREIGN KEY (cp_in_id) REFERENCES industry (in_id);
ALTER TABLE security WITH CHECK ADD CONSTRAINT fk_security_1 FOREIGN KEY (s_st_id) REFERENCES status_type (st_id);
ALTER TABLE security WITH CHECK ADD CONSTRAINT fk_security_2 FOREIGN KEY (s_ex_id) REFERENCES exchange (ex_id);
ALTER TABLE security WITH CHECK ADD CONSTRAINT fk_security_3 FOREIGN KEY (s_co_id) REFERENCES company (co_id);
ALTER TABLE daily_market WITH CHECK ADD CONSTRAINT fk_daily_market_1 FOREIGN KEY (dm_s_symb) REFERENCES security (s_symb);
ALTER TABLE financial WITH CHECK ADD CONSTRAINT fk_financial_1 FOREIGN KEY (fi_co_id) REFERENCES company (co_id);
ALTER TABLE last_trade WITH CHECK ADD CONSTRAINT fk_last_trade_1 FOREIGN KEY (lt_s_symb) REFERENCES security (s_symb);
ALTER TABLE news_xref WITH CHECK ADD CONSTRAINT fk_news_xref_1 FOREIGN KEY (nx_ni_id) REFERENCES news_item (ni_id);
ALTER TABLE news_xref WITH CHECK ADD CONSTRAINT fk_news_xref_2 FOREIGN KEY (nx_co_id) REFERENCES company (co_id);
ALTER TABLE customer WITH CHECK ADD CONSTRAINT fk_customer_1 FOREIGN KEY (c_st_id) REFERENCES status_type (st_id);
ALTER TABLE customer WITH CHECK ADD CONSTRAINT fk_customer_2 FOREIGN KEY (c_ad_id) REFERENCES address (ad_id);
ALTER TABLE customer_taxrate WITH CHECK ADD CONSTRAINT fk_customer_taxrate_1 FOREIGN KEY (cx_tx_id) REFERENCES taxrate (tx_id);
ALTER TABLE customer_taxrate WITH CHECK ADD CONSTRAINT fk_customer_taxrate_2 FOREIGN KEY (cx_c_id) REFERENCES customer (c_id);
ALTER TABLE broker WITH CHECK ADD CONSTRAINT fk_broker_1 FOREIGN KEY (b_st_id) REFERENCES status_type (st_id);
ALTER TABLE customer_account WITH CHECK ADD CONSTRAINT fk_customer_account_1 FOREIGN KEY (ca_b_id) REFERENCES broker (b_id);
ALTER TABLE customer_account WITH CHECK ADD CONSTRAINT fk_customer_account_2 FOREIGN KEY (ca_c_id) REFERENCES customer (c_id);
ALTER TABLE account_permission WITH CHECK ADD CONSTRAINT fk_account_permission_1 FOREIGN KEY (ap_ca_id) REFERENCES customer_account (ca_id);
ALTER TABLE watch_list WITH CHECK ADD CONSTRAINT fk_watch_list_1 FOREIGN KEY (wl_c_id) REFERENCES customer (c_id);
ALTER TABLE watch_item WITH CHECK ADD CONSTRAINT fk_watch_item_1 FOREIGN KEY (wi_wl_id) REFERENCES watch_list (wl_id);
ALTER TABLE watch_item WITH CHECK ADD CONSTRAINT fk_watch_item_2 FOREIGN KEY (wi_s_symb) REFERENCES security (s_symb);
ALTER TABLE trade WITH CHECK ADD CONSTRAINT fk_trade_1 FOREIGN KEY (t_st_id) REFERENCES status_type (st_id);
ALTER TABLE trade WITH CHECK ADD CONSTRAINT fk_trade_2 FOREIGN KEY (t_tt_id) REFERENCES trade_type (tt_id);
ALTER TABLE trade WITH CHECK ADD CONSTRAINT fk_trade_3 FOREIGN KEY (t_s_symb) REFERENCES security (s_symb);
ALTER TABLE trade WITH CHECK ADD CONSTRAINT fk_trade_4 FOREIGN KEY (t_ca_id) REFERENCES customer_account (ca_id);
ALTER TABLE trade_history WITH CHECK ADD CONSTRAINT fk_trade_history_1 FOREIGN KEY (th_t_id) REFERENCES trade (t_id);
ALTER TABLE trade_history WITH CHECK ADD CONSTRAINT fk_trade_history_2 FOREIGN KEY (th_st_id) REFERENCES status_type (st_id);
ALTER TABLE trade_request WITH CHECK ADD CONSTRAINT fk_trade_request_1 FOREIGN KEY (tr_t_id) REFERENCES trade (t_id);
ALTER TABLE trade_request WITH CHECK ADD CONSTRAINT fk_trade_request_2 FOREIGN KEY (tr_tt_id) REFERENCES trade_type (tt_id);
ALTER TABLE trade_request WITH CHECK ADD CONSTRAINT fk_trade_request_3 FOREIGN KEY (tr_s_symb) REFERENCES security (s_symb);
ALTER TABLE trade_request WITH CHECK ADD CONSTRAINT fk_trade_request_4 FOREIGN KEY (tr_b_id) REFERENCES broker (b_id);
ALTER TABLE settlement WITH CHECK ADD CONSTRAINT fk_settlement_1 FOREIGN KEY (se_t_id) REFERENCES trade (t_id);
ALTER TABLE cash_transaction WITH CHECK ADD CONSTRAINT fk_cash_transaction_1 FOREIGN KEY (ct_t_id) REFERENCES trade (t_id);
ALTER TABLE holding_summary WITH CHECK ADD CONSTRAINT fk_holding_summary_1 FOREIGN KEY (hs_ca_id) REFERENCES customer_account (ca_id);
ALTER TABLE holding_summary WITH CHECK ADD CONSTRAINT fk_holding_summary_2 FOREIGN KEY (hs_s_symb) REFERENCES security (s_symb);
ALTER TABLE holding WITH CHECK ADD CONSTRAINT fk_holding_1 FOREIGN KEY (h_t_id) REFERENCES trade (t_id);
ALTER TABLE holding WITH CHECK ADD CONSTRAINT fk_holding_2 FOREIGN KEY (h_ca_id, h_s_symb) REFERENCES holding_summary (hs_ca_id, hs_s_symb);
ALTER TABLE holding_history WITH CHECK ADD CONSTRAINT fk_holding_history_1 FOREIGN KEY (hh_h_t_id) REFERENCES trade (t_id);
ALTER TABLE holding_history WITH CHECK ADD CONSTRAINT fk_holding_history_2 FOREIGN KEY (hh_t_id) REFERENCES trade (t_id);

DROP SEQUENCE IF EXISTS seq_trade_id;
CREATE SEQUENCE seq_trade_id AS BIGINT START WITH 1000 INCREMENT BY 1 NO CYCLE CACHE 1000;
ALTER SEQUENCE seq_trade_id RESTART WITH 2000;

DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'bb_opening_balance', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS bb_opening_balance;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'bb_load', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS bb_load;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'holding_history', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS holding_history;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'holding', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS holding;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'holding_summary', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS holding_summary;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'cash_transaction', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS cash_transaction;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'settlement', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS settlement;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'trade_request', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS trade_request;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'trade_history', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS trade_history;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'trade', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS trade;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'watch_item', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS watch_item;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'watch_list', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS watch_list;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'account_permission', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS account_permission;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'customer_account', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS customer_account;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'broker', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS broker;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'customer_taxrate', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS customer_taxrate;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'customer', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS customer;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'news_xref', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS news_xref;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'news_item', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS news_item;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'last_trade', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS last_trade;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'financial', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS financial;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'daily_market', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS daily_market;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'security', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS security;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'company_competitor', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS company_competitor;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'company', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS company;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'commission_rate', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS commission_rate;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'charge', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS charge;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'exchange', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS exchange;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'address', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS address;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'industry', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS industry;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'sector', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS sector;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'zip_code', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS zip_code;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'taxrate', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS taxrate;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'trade_type', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS trade_type;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'status_type', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS status_type;
