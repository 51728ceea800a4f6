-- brokerbench PostgreSQL DDL (golden; regenerate with go test ./schema/dialect -run PostgresDDL -update)

CREATE TABLE status_type (
    st_id VARCHAR(4) NOT NULL,
    st_name VARCHAR(10) NOT NULL,
    CONSTRAINT pk_status_type PRIMARY KEY (st_id)
);

CREATE TABLE trade_type (
    tt_id VARCHAR(3) NOT NULL,
    tt_name VARCHAR(12) NOT NULL,
    tt_is_sell BOOLEAN NOT NULL,
    tt_is_mrkt BOOLEAN NOT NULL,
    CONSTRAINT pk_trade_type PRIMARY KEY (tt_id)
);

CREATE TABLE taxrate (
    tx_id VARCHAR(4) NOT NULL,
    tx_name VARCHAR(50) NOT NULL,
    tx_rate NUMERIC(6,5) NOT NULL,
    CONSTRAINT pk_taxrate PRIMARY KEY (tx_id)
);

CREATE TABLE zip_code (
    zc_code VARCHAR(12) NOT NULL,
    zc_town VARCHAR(80) NOT NULL,
    zc_div VARCHAR(80) NOT NULL,
    CONSTRAINT pk_zip_code PRIMARY KEY (zc_code)
);

CREATE TABLE sector (
    sc_id VARCHAR(2) NOT NULL,
    sc_name VARCHAR(30) NOT NULL,
    CONSTRAINT pk_sector PRIMARY KEY (sc_id)
);

CREATE TABLE industry (
    in_id VARCHAR(2) NOT NULL,
    in_name VARCHAR(50) NOT NULL,
    in_sc_id VARCHAR(2) NOT NULL,
    CONSTRAINT pk_industry PRIMARY KEY (in_id)
);

CREATE TABLE address (
    ad_id BIGINT NOT NULL,
    ad_line1 VARCHAR(80),
    ad_line2 VARCHAR(80),
    ad_zc_code VARCHAR(12) NOT NULL,
    ad_ctry VARCHAR(80),
    CONSTRAINT pk_address PRIMARY KEY (ad_id)
);

CREATE TABLE exchange (
    ex_id VARCHAR(6) NOT NULL,
    ex_name VARCHAR(100) NOT NULL,
    ex_num_symb INTEGER NOT NULL,
    ex_open INTEGER NOT NULL,
    ex_close INTEGER NOT NULL,
    ex_desc VARCHAR(150),
    ex_ad_id BIGINT NOT NULL,
    CONSTRAINT pk_exchange PRIMARY KEY (ex_id)
);

CREATE TABLE charge (
    ch_tt_id VARCHAR(3) NOT NULL,
    ch_c_tier SMALLINT NOT NULL,
    ch_chrg NUMERIC(10,2),
    CONSTRAINT pk_charge PRIMARY KEY (ch_tt_id, ch_c_tier)
);

CREATE TABLE commission_rate (
    cr_c_tier SMALLINT NOT NULL,
    cr_tt_id VARCHAR(3) NOT NULL,
    cr_ex_id VARCHAR(6) NOT NULL,
    cr_from_qty INTEGER NOT NULL,
    cr_to_qty INTEGER NOT NULL,
    cr_rate NUMERIC(5,2) NOT NULL,
    CONSTRAINT pk_commission_rate PRIMARY KEY (cr_c_tier, cr_tt_id, cr_ex_id, cr_from_qty)
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
    CONSTRAINT pk_company PRIMARY KEY (co_id)
);

CREATE TABLE company_competitor (
    cp_co_id BIGINT NOT NULL,
    cp_comp_co_id BIGINT NOT NULL,
    cp_in_id VARCHAR(2) NOT NULL,
    CONSTRAINT pk_company_competitor PRIMARY KEY (cp_co_id, cp_comp_co_id, cp_in_id)
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
    s_pe NUMERIC(10,2) NOT NULL,
    s_52wk_high NUMERIC(12,2) NOT NULL,
    s_52wk_high_date DATE NOT NULL,
    s_52wk_low NUMERIC(12,2) NOT NULL,
    s_52wk_low_date DATE NOT NULL,
    s_dividend NUMERIC(10,2) NOT NULL,
    s_yield NUMERIC(5,2) NOT NULL,
    CONSTRAINT pk_security PRIMARY KEY (s_symb)
);

CREATE TABLE daily_market (
    dm_date DATE NOT NULL,
    dm_s_symb VARCHAR(15) NOT NULL,
    dm_close NUMERIC(12,2) NOT NULL,
    dm_high NUMERIC(12,2) NOT NULL,
    dm_low NUMERIC(12,2) NOT NULL,
    dm_vol BIGINT NOT NULL,
    CONSTRAINT pk_daily_market PRIMARY KEY (dm_s_symb, dm_date)
);

CREATE TABLE financial (
    fi_co_id BIGINT NOT NULL,
    fi_year INTEGER NOT NULL,
    fi_qtr SMALLINT NOT NULL,
    fi_qtr_start_date DATE NOT NULL,
    fi_revenue NUMERIC(15,2) NOT NULL,
    fi_net_earn NUMERIC(15,2) NOT NULL,
    fi_basic_eps NUMERIC(10,2) NOT NULL,
    fi_dilut_eps NUMERIC(10,2) NOT NULL,
    fi_margin NUMERIC(10,2) NOT NULL,
    fi_inventory NUMERIC(15,2) NOT NULL,
    fi_assets NUMERIC(15,2) NOT NULL,
    fi_liability NUMERIC(15,2) NOT NULL,
    fi_out_basic BIGINT NOT NULL,
    fi_out_dilut BIGINT NOT NULL,
    CONSTRAINT pk_financial PRIMARY KEY (fi_co_id, fi_year, fi_qtr)
);

CREATE TABLE last_trade (
    lt_s_symb VARCHAR(15) NOT NULL,
    lt_dts TIMESTAMP NOT NULL,
    lt_price NUMERIC(12,2) NOT NULL,
    lt_open_price NUMERIC(12,2) NOT NULL,
    lt_vol BIGINT NOT NULL,
    CONSTRAINT pk_last_trade PRIMARY KEY (lt_s_symb)
);

CREATE TABLE news_item (
    ni_id BIGINT NOT NULL,
    ni_headline VARCHAR(80) NOT NULL,
    ni_summary VARCHAR(255) NOT NULL,
    ni_item TEXT NOT NULL,
    ni_dts TIMESTAMP NOT NULL,
    ni_source VARCHAR(30) NOT NULL,
    ni_author VARCHAR(30),
    CONSTRAINT pk_news_item PRIMARY KEY (ni_id)
);
ALTER TABLE news_item ALTER COLUMN ni_item SET STORAGE EXTERNAL;

CREATE TABLE news_xref (
    nx_ni_id BIGINT NOT NULL,
    nx_co_id BIGINT NOT NULL,
    CONSTRAINT pk_news_xref PRIMARY KEY (nx_ni_id, nx_co_id)
);

CREATE TABLE customer (
    c_id BIGINT NOT NULL,
    c_tax_id VARCHAR(20) NOT NULL,
    c_st_id VARCHAR(4) NOT NULL,
    c_l_name VARCHAR(25) NOT NULL,
    c_f_name VARCHAR(20) NOT NULL,
    c_m_name VARCHAR(1),
    c_gndr VARCHAR(1),
    c_tier SMALLINT NOT NULL,
    c_dob DATE NOT NULL,
    c_ad_id BIGINT NOT NULL,
    c_ctry_1 VARCHAR(3),
    c_area_1 VARCHAR(3),
    c_local_1 VARCHAR(10),
    c_ext_1 VARCHAR(5),
    c_ctry_2 VARCHAR(3),
    c_area_2 VARCHAR(3),
    c_local_2 VARCHAR(10),
    c_ext_2 VARCHAR(5),
    c_ctry_3 VARCHAR(3),
    c_area_3 VARCHAR(3),
    c_local_3 VARCHAR(10),
    c_ext_3 VARCHAR(5),
    c_email_1 VARCHAR(50),
    c_email_2 VARCHAR(50),
    CONSTRAINT pk_customer PRIMARY KEY (c_id)
);

CREATE TABLE customer_taxrate (
    cx_tx_id VARCHAR(4) NOT NULL,
    cx_c_id BIGINT NOT NULL,
    CONSTRAINT pk_customer_taxrate PRIMARY KEY (cx_c_id, cx_tx_id)
);

CREATE TABLE broker (
    b_id BIGINT NOT NULL,
    b_st_id VARCHAR(4) NOT NULL,
    b_name VARCHAR(49) NOT NULL,
    b_num_trades INTEGER NOT NULL,
    b_comm_total NUMERIC(12,2) NOT NULL,
    CONSTRAINT pk_broker PRIMARY KEY (b_id)
) WITH (fillfactor = 10);

CREATE TABLE customer_account (
    ca_id BIGINT NOT NULL,
    ca_b_id BIGINT NOT NULL,
    ca_c_id BIGINT NOT NULL,
    ca_name VARCHAR(50),
    ca_tax_st SMALLINT NOT NULL,
    ca_bal NUMERIC(12,2) NOT NULL,
    CONSTRAINT pk_customer_account PRIMARY KEY (ca_id)
);

CREATE TABLE account_permission (
    ap_ca_id BIGINT NOT NULL,
    ap_acl VARCHAR(4) NOT NULL,
    ap_tax_id VARCHAR(20) NOT NULL,
    ap_l_name VARCHAR(25) NOT NULL,
    ap_f_name VARCHAR(20) NOT NULL,
    CONSTRAINT pk_account_permission PRIMARY KEY (ap_ca_id, ap_tax_id)
);

CREATE TABLE watch_list (
    wl_id BIGINT NOT NULL,
    wl_c_id BIGINT NOT NULL,
    CONSTRAINT pk_watch_list PRIMARY KEY (wl_id)
);

CREATE TABLE watch_item (
    wi_wl_id BIGINT NOT NULL,
    wi_s_symb VARCHAR(15) NOT NULL,
    CONSTRAINT pk_watch_item PRIMARY KEY (wi_wl_id, wi_s_symb)
);

CREATE TABLE trade (
    t_id BIGINT NOT NULL,
    t_dts TIMESTAMP NOT NULL,
    t_st_id VARCHAR(4) NOT NULL,
    t_tt_id VARCHAR(3) NOT NULL,
    t_is_cash BOOLEAN NOT NULL,
    t_s_symb VARCHAR(15) NOT NULL,
    t_qty INTEGER NOT NULL,
    t_bid_price NUMERIC(12,2) NOT NULL,
    t_ca_id BIGINT NOT NULL,
    t_exec_name VARCHAR(49) NOT NULL,
    t_trade_price NUMERIC(12,2),
    t_chrg NUMERIC(10,2) NOT NULL,
    t_comm NUMERIC(10,2) NOT NULL,
    t_tax NUMERIC(10,2) NOT NULL,
    t_lifo BOOLEAN NOT NULL,
    CONSTRAINT pk_trade PRIMARY KEY (t_id)
);

CREATE TABLE trade_history (
    th_t_id BIGINT NOT NULL,
    th_dts TIMESTAMP NOT NULL,
    th_st_id VARCHAR(4) NOT NULL,
    CONSTRAINT pk_trade_history PRIMARY KEY (th_t_id, th_st_id)
);

CREATE TABLE trade_request (
    tr_t_id BIGINT NOT NULL,
    tr_tt_id VARCHAR(3) NOT NULL,
    tr_s_symb VARCHAR(15) NOT NULL,
    tr_qty INTEGER NOT NULL,
    tr_bid_price NUMERIC(12,2) NOT NULL,
    tr_b_id BIGINT NOT NULL,
    CONSTRAINT pk_trade_request PRIMARY KEY (tr_t_id)
);

CREATE TABLE settlement (
    se_t_id BIGINT NOT NULL,
    se_cash_type VARCHAR(40) NOT NULL,
    se_cash_due_date DATE NOT NULL,
    se_amt NUMERIC(10,2) NOT NULL,
    CONSTRAINT pk_settlement PRIMARY KEY (se_t_id)
);

CREATE TABLE cash_transaction (
    ct_t_id BIGINT NOT NULL,
    ct_dts TIMESTAMP NOT NULL,
    ct_amt NUMERIC(10,2) NOT NULL,
    ct_name VARCHAR(100),
    CONSTRAINT pk_cash_transaction PRIMARY KEY (ct_t_id)
);

CREATE TABLE holding_summary (
    hs_ca_id BIGINT NOT NULL,
    hs_s_symb VARCHAR(15) NOT NULL,
    hs_qty INTEGER NOT NULL,
    CONSTRAINT pk_holding_summary PRIMARY KEY (hs_ca_id, hs_s_symb)
);

CREATE TABLE holding (
    h_t_id BIGINT NOT NULL,
    h_ca_id BIGINT NOT NULL,
    h_s_symb VARCHAR(15) NOT NULL,
    h_dts TIMESTAMP NOT NULL,
    h_price NUMERIC(12,2) NOT NULL,
    h_qty INTEGER NOT NULL,
    CONSTRAINT pk_holding PRIMARY KEY (h_t_id)
);

CREATE TABLE holding_history (
    hh_h_t_id BIGINT NOT NULL,
    hh_t_id BIGINT NOT NULL,
    hh_before_qty INTEGER NOT NULL,
    hh_after_qty INTEGER NOT NULL,
    CONSTRAINT pk_holding_history PRIMARY KEY (hh_h_t_id, hh_t_id)
);

CREATE TABLE bb_load (
    load_id SMALLINT NOT NULL,
    customers BIGINT NOT NULL,
    trade_days INTEGER NOT NULL,
    seed BIGINT NOT NULL,
    generator_version INTEGER NOT NULL,
    started_at TIMESTAMP NOT NULL,
    completed_at TIMESTAMP,
    tool_version VARCHAR(40) NOT NULL,
    workers INTEGER NOT NULL,
    CONSTRAINT pk_bb_load PRIMARY KEY (load_id)
);

CREATE TABLE bb_opening_balance (
    ca_id BIGINT NOT NULL,
    bal NUMERIC(12,2) NOT NULL,
    CONSTRAINT pk_bb_opening_balance PRIMARY KEY (ca_id)
);

-- bulk-load variants: tables without keys, keys added after the data

CREATE TABLE status_type (
    st_id VARCHAR(4) NOT NULL,
    st_name VARCHAR(10) NOT NULL
);
ALTER TABLE status_type ADD CONSTRAINT pk_status_type PRIMARY KEY (st_id);
CREATE UNIQUE INDEX pk_status_type ON status_type (st_id);
ALTER TABLE status_type ADD CONSTRAINT pk_status_type PRIMARY KEY USING INDEX pk_status_type;

CREATE TABLE trade_type (
    tt_id VARCHAR(3) NOT NULL,
    tt_name VARCHAR(12) NOT NULL,
    tt_is_sell BOOLEAN NOT NULL,
    tt_is_mrkt BOOLEAN NOT NULL
);
ALTER TABLE trade_type ADD CONSTRAINT pk_trade_type PRIMARY KEY (tt_id);
CREATE UNIQUE INDEX pk_trade_type ON trade_type (tt_id);
ALTER TABLE trade_type ADD CONSTRAINT pk_trade_type PRIMARY KEY USING INDEX pk_trade_type;

CREATE TABLE taxrate (
    tx_id VARCHAR(4) NOT NULL,
    tx_name VARCHAR(50) NOT NULL,
    tx_rate NUMERIC(6,5) NOT NULL
);
ALTER TABLE taxrate ADD CONSTRAINT pk_taxrate PRIMARY KEY (tx_id);
CREATE UNIQUE INDEX pk_taxrate ON taxrate (tx_id);
ALTER TABLE taxrate ADD CONSTRAINT pk_taxrate PRIMARY KEY USING INDEX pk_taxrate;

CREATE TABLE zip_code (
    zc_code VARCHAR(12) NOT NULL,
    zc_town VARCHAR(80) NOT NULL,
    zc_div VARCHAR(80) NOT NULL
);
ALTER TABLE zip_code ADD CONSTRAINT pk_zip_code PRIMARY KEY (zc_code);
CREATE UNIQUE INDEX pk_zip_code ON zip_code (zc_code);
ALTER TABLE zip_code ADD CONSTRAINT pk_zip_code PRIMARY KEY USING INDEX pk_zip_code;

CREATE TABLE sector (
    sc_id VARCHAR(2) NOT NULL,
    sc_name VARCHAR(30) NOT NULL
);
ALTER TABLE sector ADD CONSTRAINT pk_sector PRIMARY KEY (sc_id);
CREATE UNIQUE INDEX pk_sector ON sector (sc_id);
ALTER TABLE sector ADD CONSTRAINT pk_sector PRIMARY KEY USING INDEX pk_sector;

CREATE TABLE industry (
    in_id VARCHAR(2) NOT NULL,
    in_name VARCHAR(50) NOT NULL,
    in_sc_id VARCHAR(2) NOT NULL
);
ALTER TABLE industry ADD CONSTRAINT pk_industry PRIMARY KEY (in_id);
CREATE UNIQUE INDEX pk_industry ON industry (in_id);
ALTER TABLE industry ADD CONSTRAINT pk_industry PRIMARY KEY USING INDEX pk_industry;

CREATE TABLE address (
    ad_id BIGINT NOT NULL,
    ad_line1 VARCHAR(80),
    ad_line2 VARCHAR(80),
    ad_zc_code VARCHAR(12) NOT NULL,
    ad_ctry VARCHAR(80)
);
ALTER TABLE address ADD CONSTRAINT pk_address PRIMARY KEY (ad_id);
CREATE UNIQUE INDEX pk_address ON address (ad_id);
ALTER TABLE address ADD CONSTRAINT pk_address PRIMARY KEY USING INDEX pk_address;

CREATE TABLE exchange (
    ex_id VARCHAR(6) NOT NULL,
    ex_name VARCHAR(100) NOT NULL,
    ex_num_symb INTEGER NOT NULL,
    ex_open INTEGER NOT NULL,
    ex_close INTEGER NOT NULL,
    ex_desc VARCHAR(150),
    ex_ad_id BIGINT NOT NULL
);
ALTER TABLE exchange ADD CONSTRAINT pk_exchange PRIMARY KEY (ex_id);
CREATE UNIQUE INDEX pk_exchange ON exchange (ex_id);
ALTER TABLE exchange ADD CONSTRAINT pk_exchange PRIMARY KEY USING INDEX pk_exchange;

CREATE TABLE charge (
    ch_tt_id VARCHAR(3) NOT NULL,
    ch_c_tier SMALLINT NOT NULL,
    ch_chrg NUMERIC(10,2)
);
ALTER TABLE charge ADD CONSTRAINT pk_charge PRIMARY KEY (ch_tt_id, ch_c_tier);
CREATE UNIQUE INDEX pk_charge ON charge (ch_tt_id, ch_c_tier);
ALTER TABLE charge ADD CONSTRAINT pk_charge PRIMARY KEY USING INDEX pk_charge;

CREATE TABLE commission_rate (
    cr_c_tier SMALLINT NOT NULL,
    cr_tt_id VARCHAR(3) NOT NULL,
    cr_ex_id VARCHAR(6) NOT NULL,
    cr_from_qty INTEGER NOT NULL,
    cr_to_qty INTEGER NOT NULL,
    cr_rate NUMERIC(5,2) NOT NULL
);
ALTER TABLE commission_rate ADD CONSTRAINT pk_commission_rate PRIMARY KEY (cr_c_tier, cr_tt_id, cr_ex_id, cr_from_qty);
CREATE UNIQUE INDEX pk_commission_rate ON commission_rate (cr_c_tier, cr_tt_id, cr_ex_id, cr_from_qty);
ALTER TABLE commission_rate ADD CONSTRAINT pk_commission_rate PRIMARY KEY USING INDEX pk_commission_rate;

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
ALTER TABLE company ADD CONSTRAINT pk_company PRIMARY KEY (co_id);
CREATE UNIQUE INDEX pk_company ON company (co_id);
ALTER TABLE company ADD CONSTRAINT pk_company PRIMARY KEY USING INDEX pk_company;

CREATE TABLE company_competitor (
    cp_co_id BIGINT NOT NULL,
    cp_comp_co_id BIGINT NOT NULL,
    cp_in_id VARCHAR(2) NOT NULL
);
ALTER TABLE company_competitor ADD CONSTRAINT pk_company_competitor PRIMARY KEY (cp_co_id, cp_comp_co_id, cp_in_id);
CREATE UNIQUE INDEX pk_company_competitor ON company_competitor (cp_co_id, cp_comp_co_id, cp_in_id);
ALTER TABLE company_competitor ADD CONSTRAINT pk_company_competitor PRIMARY KEY USING INDEX pk_company_competitor;

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
    s_pe NUMERIC(10,2) NOT NULL,
    s_52wk_high NUMERIC(12,2) NOT NULL,
    s_52wk_high_date DATE NOT NULL,
    s_52wk_low NUMERIC(12,2) NOT NULL,
    s_52wk_low_date DATE NOT NULL,
    s_dividend NUMERIC(10,2) NOT NULL,
    s_yield NUMERIC(5,2) NOT NULL
);
ALTER TABLE security ADD CONSTRAINT pk_security PRIMARY KEY (s_symb);
CREATE UNIQUE INDEX pk_security ON security (s_symb);
ALTER TABLE security ADD CONSTRAINT pk_security PRIMARY KEY USING INDEX pk_security;

CREATE TABLE daily_market (
    dm_date DATE NOT NULL,
    dm_s_symb VARCHAR(15) NOT NULL,
    dm_close NUMERIC(12,2) NOT NULL,
    dm_high NUMERIC(12,2) NOT NULL,
    dm_low NUMERIC(12,2) NOT NULL,
    dm_vol BIGINT NOT NULL
);
ALTER TABLE daily_market ADD CONSTRAINT pk_daily_market PRIMARY KEY (dm_s_symb, dm_date);
CREATE UNIQUE INDEX pk_daily_market ON daily_market (dm_s_symb, dm_date);
ALTER TABLE daily_market ADD CONSTRAINT pk_daily_market PRIMARY KEY USING INDEX pk_daily_market;

CREATE TABLE financial (
    fi_co_id BIGINT NOT NULL,
    fi_year INTEGER NOT NULL,
    fi_qtr SMALLINT NOT NULL,
    fi_qtr_start_date DATE NOT NULL,
    fi_revenue NUMERIC(15,2) NOT NULL,
    fi_net_earn NUMERIC(15,2) NOT NULL,
    fi_basic_eps NUMERIC(10,2) NOT NULL,
    fi_dilut_eps NUMERIC(10,2) NOT NULL,
    fi_margin NUMERIC(10,2) NOT NULL,
    fi_inventory NUMERIC(15,2) NOT NULL,
    fi_assets NUMERIC(15,2) NOT NULL,
    fi_liability NUMERIC(15,2) NOT NULL,
    fi_out_basic BIGINT NOT NULL,
    fi_out_dilut BIGINT NOT NULL
);
ALTER TABLE financial ADD CONSTRAINT pk_financial PRIMARY KEY (fi_co_id, fi_year, fi_qtr);
CREATE UNIQUE INDEX pk_financial ON financial (fi_co_id, fi_year, fi_qtr);
ALTER TABLE financial ADD CONSTRAINT pk_financial PRIMARY KEY USING INDEX pk_financial;

CREATE TABLE last_trade (
    lt_s_symb VARCHAR(15) NOT NULL,
    lt_dts TIMESTAMP NOT NULL,
    lt_price NUMERIC(12,2) NOT NULL,
    lt_open_price NUMERIC(12,2) NOT NULL,
    lt_vol BIGINT NOT NULL
);
ALTER TABLE last_trade ADD CONSTRAINT pk_last_trade PRIMARY KEY (lt_s_symb);
CREATE UNIQUE INDEX pk_last_trade ON last_trade (lt_s_symb);
ALTER TABLE last_trade ADD CONSTRAINT pk_last_trade PRIMARY KEY USING INDEX pk_last_trade;

CREATE TABLE news_item (
    ni_id BIGINT NOT NULL,
    ni_headline VARCHAR(80) NOT NULL,
    ni_summary VARCHAR(255) NOT NULL,
    ni_item TEXT NOT NULL,
    ni_dts TIMESTAMP NOT NULL,
    ni_source VARCHAR(30) NOT NULL,
    ni_author VARCHAR(30)
);
ALTER TABLE news_item ALTER COLUMN ni_item SET STORAGE EXTERNAL;
ALTER TABLE news_item ADD CONSTRAINT pk_news_item PRIMARY KEY (ni_id);
CREATE UNIQUE INDEX pk_news_item ON news_item (ni_id);
ALTER TABLE news_item ADD CONSTRAINT pk_news_item PRIMARY KEY USING INDEX pk_news_item;

CREATE TABLE news_xref (
    nx_ni_id BIGINT NOT NULL,
    nx_co_id BIGINT NOT NULL
);
ALTER TABLE news_xref ADD CONSTRAINT pk_news_xref PRIMARY KEY (nx_ni_id, nx_co_id);
CREATE UNIQUE INDEX pk_news_xref ON news_xref (nx_ni_id, nx_co_id);
ALTER TABLE news_xref ADD CONSTRAINT pk_news_xref PRIMARY KEY USING INDEX pk_news_xref;

CREATE TABLE customer (
    c_id BIGINT NOT NULL,
    c_tax_id VARCHAR(20) NOT NULL,
    c_st_id VARCHAR(4) NOT NULL,
    c_l_name VARCHAR(25) NOT NULL,
    c_f_name VARCHAR(20) NOT NULL,
    c_m_name VARCHAR(1),
    c_gndr VARCHAR(1),
    c_tier SMALLINT NOT NULL,
    c_dob DATE NOT NULL,
    c_ad_id BIGINT NOT NULL,
    c_ctry_1 VARCHAR(3),
    c_area_1 VARCHAR(3),
    c_local_1 VARCHAR(10),
    c_ext_1 VARCHAR(5),
    c_ctry_2 VARCHAR(3),
    c_area_2 VARCHAR(3),
    c_local_2 VARCHAR(10),
    c_ext_2 VARCHAR(5),
    c_ctry_3 VARCHAR(3),
    c_area_3 VARCHAR(3),
    c_local_3 VARCHAR(10),
    c_ext_3 VARCHAR(5),
    c_email_1 VARCHAR(50),
    c_email_2 VARCHAR(50)
);
ALTER TABLE customer ADD CONSTRAINT pk_customer PRIMARY KEY (c_id);
CREATE UNIQUE INDEX pk_customer ON customer (c_id);
ALTER TABLE customer ADD CONSTRAINT pk_customer PRIMARY KEY USING INDEX pk_customer;

CREATE TABLE customer_taxrate (
    cx_tx_id VARCHAR(4) NOT NULL,
    cx_c_id BIGINT NOT NULL
);
ALTER TABLE customer_taxrate ADD CONSTRAINT pk_customer_taxrate PRIMARY KEY (cx_c_id, cx_tx_id);
CREATE UNIQUE INDEX pk_customer_taxrate ON customer_taxrate (cx_c_id, cx_tx_id);
ALTER TABLE customer_taxrate ADD CONSTRAINT pk_customer_taxrate PRIMARY KEY USING INDEX pk_customer_taxrate;

CREATE TABLE broker (
    b_id BIGINT NOT NULL,
    b_st_id VARCHAR(4) NOT NULL,
    b_name VARCHAR(49) NOT NULL,
    b_num_trades INTEGER NOT NULL,
    b_comm_total NUMERIC(12,2) NOT NULL
) WITH (fillfactor = 10);
ALTER TABLE broker ADD CONSTRAINT pk_broker PRIMARY KEY (b_id);
CREATE UNIQUE INDEX pk_broker ON broker (b_id);
ALTER TABLE broker ADD CONSTRAINT pk_broker PRIMARY KEY USING INDEX pk_broker;

CREATE TABLE customer_account (
    ca_id BIGINT NOT NULL,
    ca_b_id BIGINT NOT NULL,
    ca_c_id BIGINT NOT NULL,
    ca_name VARCHAR(50),
    ca_tax_st SMALLINT NOT NULL,
    ca_bal NUMERIC(12,2) NOT NULL
);
ALTER TABLE customer_account ADD CONSTRAINT pk_customer_account PRIMARY KEY (ca_id);
CREATE UNIQUE INDEX pk_customer_account ON customer_account (ca_id);
ALTER TABLE customer_account ADD CONSTRAINT pk_customer_account PRIMARY KEY USING INDEX pk_customer_account;

CREATE TABLE account_permission (
    ap_ca_id BIGINT NOT NULL,
    ap_acl VARCHAR(4) NOT NULL,
    ap_tax_id VARCHAR(20) NOT NULL,
    ap_l_name VARCHAR(25) NOT NULL,
    ap_f_name VARCHAR(20) NOT NULL
);
ALTER TABLE account_permission ADD CONSTRAINT pk_account_permission PRIMARY KEY (ap_ca_id, ap_tax_id);
CREATE UNIQUE INDEX pk_account_permission ON account_permission (ap_ca_id, ap_tax_id);
ALTER TABLE account_permission ADD CONSTRAINT pk_account_permission PRIMARY KEY USING INDEX pk_account_permission;

CREATE TABLE watch_list (
    wl_id BIGINT NOT NULL,
    wl_c_id BIGINT NOT NULL
);
ALTER TABLE watch_list ADD CONSTRAINT pk_watch_list PRIMARY KEY (wl_id);
CREATE UNIQUE INDEX pk_watch_list ON watch_list (wl_id);
ALTER TABLE watch_list ADD CONSTRAINT pk_watch_list PRIMARY KEY USING INDEX pk_watch_list;

CREATE TABLE watch_item (
    wi_wl_id BIGINT NOT NULL,
    wi_s_symb VARCHAR(15) NOT NULL
);
ALTER TABLE watch_item ADD CONSTRAINT pk_watch_item PRIMARY KEY (wi_wl_id, wi_s_symb);
CREATE UNIQUE INDEX pk_watch_item ON watch_item (wi_wl_id, wi_s_symb);
ALTER TABLE watch_item ADD CONSTRAINT pk_watch_item PRIMARY KEY USING INDEX pk_watch_item;

CREATE TABLE trade (
    t_id BIGINT NOT NULL,
    t_dts TIMESTAMP NOT NULL,
    t_st_id VARCHAR(4) NOT NULL,
    t_tt_id VARCHAR(3) NOT NULL,
    t_is_cash BOOLEAN NOT NULL,
    t_s_symb VARCHAR(15) NOT NULL,
    t_qty INTEGER NOT NULL,
    t_bid_price NUMERIC(12,2) NOT NULL,
    t_ca_id BIGINT NOT NULL,
    t_exec_name VARCHAR(49) NOT NULL,
    t_trade_price NUMERIC(12,2),
    t_chrg NUMERIC(10,2) NOT NULL,
    t_comm NUMERIC(10,2) NOT NULL,
    t_tax NUMERIC(10,2) NOT NULL,
    t_lifo BOOLEAN NOT NULL
);
ALTER TABLE trade ADD CONSTRAINT pk_trade PRIMARY KEY (t_id);
CREATE UNIQUE INDEX pk_trade ON trade (t_id);
ALTER TABLE trade ADD CONSTRAINT pk_trade PRIMARY KEY USING INDEX pk_trade;

CREATE TABLE trade_history (
    th_t_id BIGINT NOT NULL,
    th_dts TIMESTAMP NOT NULL,
    th_st_id VARCHAR(4) NOT NULL
);
ALTER TABLE trade_history ADD CONSTRAINT pk_trade_history PRIMARY KEY (th_t_id, th_st_id);
CREATE UNIQUE INDEX pk_trade_history ON trade_history (th_t_id, th_st_id);
ALTER TABLE trade_history ADD CONSTRAINT pk_trade_history PRIMARY KEY USING INDEX pk_trade_history;

CREATE TABLE trade_request (
    tr_t_id BIGINT NOT NULL,
    tr_tt_id VARCHAR(3) NOT NULL,
    tr_s_symb VARCHAR(15) NOT NULL,
    tr_qty INTEGER NOT NULL,
    tr_bid_price NUMERIC(12,2) NOT NULL,
    tr_b_id BIGINT NOT NULL
);
ALTER TABLE trade_request ADD CONSTRAINT pk_trade_request PRIMARY KEY (tr_t_id);
CREATE UNIQUE INDEX pk_trade_request ON trade_request (tr_t_id);
ALTER TABLE trade_request ADD CONSTRAINT pk_trade_request PRIMARY KEY USING INDEX pk_trade_request;

CREATE TABLE settlement (
    se_t_id BIGINT NOT NULL,
    se_cash_type VARCHAR(40) NOT NULL,
    se_cash_due_date DATE NOT NULL,
    se_amt NUMERIC(10,2) NOT NULL
);
ALTER TABLE settlement ADD CONSTRAINT pk_settlement PRIMARY KEY (se_t_id);
CREATE UNIQUE INDEX pk_settlement ON settlement (se_t_id);
ALTER TABLE settlement ADD CONSTRAINT pk_settlement PRIMARY KEY USING INDEX pk_settlement;

CREATE TABLE cash_transaction (
    ct_t_id BIGINT NOT NULL,
    ct_dts TIMESTAMP NOT NULL,
    ct_amt NUMERIC(10,2) NOT NULL,
    ct_name VARCHAR(100)
);
ALTER TABLE cash_transaction ADD CONSTRAINT pk_cash_transaction PRIMARY KEY (ct_t_id);
CREATE UNIQUE INDEX pk_cash_transaction ON cash_transaction (ct_t_id);
ALTER TABLE cash_transaction ADD CONSTRAINT pk_cash_transaction PRIMARY KEY USING INDEX pk_cash_transaction;

CREATE TABLE holding_summary (
    hs_ca_id BIGINT NOT NULL,
    hs_s_symb VARCHAR(15) NOT NULL,
    hs_qty INTEGER NOT NULL
);
ALTER TABLE holding_summary ADD CONSTRAINT pk_holding_summary PRIMARY KEY (hs_ca_id, hs_s_symb);
CREATE UNIQUE INDEX pk_holding_summary ON holding_summary (hs_ca_id, hs_s_symb);
ALTER TABLE holding_summary ADD CONSTRAINT pk_holding_summary PRIMARY KEY USING INDEX pk_holding_summary;

CREATE TABLE holding (
    h_t_id BIGINT NOT NULL,
    h_ca_id BIGINT NOT NULL,
    h_s_symb VARCHAR(15) NOT NULL,
    h_dts TIMESTAMP NOT NULL,
    h_price NUMERIC(12,2) NOT NULL,
    h_qty INTEGER NOT NULL
);
ALTER TABLE holding ADD CONSTRAINT pk_holding PRIMARY KEY (h_t_id);
CREATE UNIQUE INDEX pk_holding ON holding (h_t_id);
ALTER TABLE holding ADD CONSTRAINT pk_holding PRIMARY KEY USING INDEX pk_holding;

CREATE TABLE holding_history (
    hh_h_t_id BIGINT NOT NULL,
    hh_t_id BIGINT NOT NULL,
    hh_before_qty INTEGER NOT NULL,
    hh_after_qty INTEGER NOT NULL
);
ALTER TABLE holding_history ADD CONSTRAINT pk_holding_history PRIMARY KEY (hh_h_t_id, hh_t_id);
CREATE UNIQUE INDEX pk_holding_history ON holding_history (hh_h_t_id, hh_t_id);
ALTER TABLE holding_history ADD CONSTRAINT pk_holding_history PRIMARY KEY USING INDEX pk_holding_history;

CREATE TABLE bb_load (
    load_id SMALLINT NOT NULL,
    customers BIGINT NOT NULL,
    trade_days INTEGER NOT NULL,
    seed BIGINT NOT NULL,
    generator_version INTEGER NOT NULL,
    started_at TIMESTAMP NOT NULL,
    completed_at TIMESTAMP,
    tool_version VARCHAR(40) NOT NULL,
    workers INTEGER NOT NULL
);
ALTER TABLE bb_load ADD CONSTRAINT pk_bb_load PRIMARY KEY (load_id);
CREATE UNIQUE INDEX pk_bb_load ON bb_load (load_id);
ALTER TABLE bb_load ADD CONSTRAINT pk_bb_load PRIMARY KEY USING INDEX pk_bb_load;

CREATE TABLE bb_opening_balance (
    ca_id BIGINT NOT NULL,
    bal NUMERIC(12,2) NOT NULL
);
ALTER TABLE bb_opening_balance ADD CONSTRAINT pk_bb_opening_balance PRIMARY KEY (ca_id);
CREATE UNIQUE INDEX pk_bb_opening_balance ON bb_opening_balance (ca_id);
ALTER TABLE bb_opening_balance ADD CONSTRAINT pk_bb_opening_balance PRIMARY KEY USING INDEX pk_bb_opening_balance;

CREATE INDEX i_sc_name ON sector (sc_name);
CREATE INDEX i_in_name ON industry (in_name);
CREATE INDEX i_in_sc_id ON industry (in_sc_id);
CREATE INDEX i_co_name ON company (co_name);
CREATE INDEX i_co_in_id ON company (co_in_id);
CREATE INDEX i_s_co_id_issue ON security (s_co_id, s_issue);
CREATE INDEX i_nx_co_id ON news_xref (nx_co_id);
CREATE INDEX i_c_tax_id ON customer (c_tax_id);
CREATE INDEX i_b_name ON broker (b_name);
CREATE INDEX i_ca_c_id ON customer_account (ca_c_id);
CREATE INDEX i_wl_c_id ON watch_list (wl_c_id);
CREATE INDEX i_t_ca_id_dts ON trade (t_ca_id, t_dts);
CREATE INDEX i_t_s_symb_dts ON trade (t_s_symb, t_dts);
CREATE INDEX i_t_st_id ON trade (t_st_id);
CREATE INDEX i_th_t_id_dts ON trade_history (th_t_id, th_dts);
CREATE INDEX i_tr_s_symb ON trade_request (tr_s_symb);
CREATE INDEX i_tr_b_id ON trade_request (tr_b_id);
CREATE INDEX i_h_ca_id_symb_dts ON holding (h_ca_id, h_s_symb, h_dts);
CREATE INDEX i_hh_t_id ON holding_history (hh_t_id);

ALTER TABLE industry ADD CONSTRAINT fk_industry_1 FOREIGN KEY (in_sc_id) REFERENCES sector (sc_id);
ALTER TABLE industry ADD CONSTRAINT fk_industry_1 FOREIGN KEY (in_sc_id) REFERENCES sector (sc_id) NOT VALID;
ALTER TABLE industry VALIDATE CONSTRAINT fk_industry_1;
ALTER TABLE address ADD CONSTRAINT fk_address_1 FOREIGN KEY (ad_zc_code) REFERENCES zip_code (zc_code);
ALTER TABLE address ADD CONSTRAINT fk_address_1 FOREIGN KEY (ad_zc_code) REFERENCES zip_code (zc_code) NOT VALID;
ALTER TABLE address VALIDATE CONSTRAINT fk_address_1;
ALTER TABLE exchange ADD CONSTRAINT fk_exchange_1 FOREIGN KEY (ex_ad_id) REFERENCES address (ad_id);
ALTER TABLE exchange ADD CONSTRAINT fk_exchange_1 FOREIGN KEY (ex_ad_id) REFERENCES address (ad_id) NOT VALID;
ALTER TABLE exchange VALIDATE CONSTRAINT fk_exchange_1;
ALTER TABLE charge ADD CONSTRAINT fk_charge_1 FOREIGN KEY (ch_tt_id) REFERENCES trade_type (tt_id);
ALTER TABLE charge ADD CONSTRAINT fk_charge_1 FOREIGN KEY (ch_tt_id) REFERENCES trade_type (tt_id) NOT VALID;
ALTER TABLE charge VALIDATE CONSTRAINT fk_charge_1;
ALTER TABLE commission_rate ADD CONSTRAINT fk_commission_rate_1 FOREIGN KEY (cr_tt_id) REFERENCES trade_type (tt_id);
ALTER TABLE commission_rate ADD CONSTRAINT fk_commission_rate_2 FOREIGN KEY (cr_ex_id) REFERENCES exchange (ex_id);
ALTER TABLE commission_rate ADD CONSTRAINT fk_commission_rate_1 FOREIGN KEY (cr_tt_id) REFERENCES trade_type (tt_id) NOT VALID;
ALTER TABLE commission_rate ADD CONSTRAINT fk_commission_rate_2 FOREIGN KEY (cr_ex_id) REFERENCES exchange (ex_id) NOT VALID;
ALTER TABLE commission_rate VALIDATE CONSTRAINT fk_commission_rate_1;
ALTER TABLE commission_rate VALIDATE CONSTRAINT fk_commission_rate_2;
ALTER TABLE company ADD CONSTRAINT fk_company_1 FOREIGN KEY (co_st_id) REFERENCES status_type (st_id);
ALTER TABLE company ADD CONSTRAINT fk_company_2 FOREIGN KEY (co_in_id) REFERENCES industry (in_id);
ALTER TABLE company ADD CONSTRAINT fk_company_3 FOREIGN KEY (co_ad_id) REFERENCES address (ad_id);
ALTER TABLE company ADD CONSTRAINT fk_company_1 FOREIGN KEY (co_st_id) REFERENCES status_type (st_id) NOT VALID;
ALTER TABLE company ADD CONSTRAINT fk_company_2 FOREIGN KEY (co_in_id) REFERENCES industry (in_id) NOT VALID;
ALTER TABLE company ADD CONSTRAINT fk_company_3 FOREIGN KEY (co_ad_id) REFERENCES address (ad_id) NOT VALID;
ALTER TABLE company VALIDATE CONSTRAINT fk_company_1;
ALTER TABLE company VALIDATE CONSTRAINT fk_company_2;
ALTER TABLE company VALIDATE CONSTRAINT fk_company_3;
ALTER TABLE company_competitor ADD CONSTRAINT fk_company_competitor_1 FOREIGN KEY (cp_co_id) REFERENCES company (co_id);
ALTER TABLE company_competitor ADD CONSTRAINT fk_company_competitor_2 FOREIGN KEY (cp_comp_co_id) REFERENCES company (co_id);
ALTER TABLE company_competitor ADD CONSTRAINT fk_company_competitor_3 FOREIGN KEY (cp_in_id) REFERENCES industry (in_id);
ALTER TABLE company_competitor ADD CONSTRAINT fk_company_competitor_1 FOREIGN KEY (cp_co_id) REFERENCES company (co_id) NOT VALID;
ALTER TABLE company_competitor ADD CONSTRAINT fk_company_competitor_2 FOREIGN KEY (cp_comp_co_id) REFERENCES company (co_id) NOT VALID;
ALTER TABLE company_competitor ADD CONSTRAINT fk_company_competitor_3 FOREIGN KEY (cp_in_id) REFERENCES industry (in_id) NOT VALID;
ALTER TABLE company_competitor VALIDATE CONSTRAINT fk_company_competitor_1;
ALTER TABLE company_competitor VALIDATE CONSTRAINT fk_company_competitor_2;
ALTER TABLE company_competitor VALIDATE CONSTRAINT fk_company_competitor_3;
ALTER TABLE security ADD CONSTRAINT fk_security_1 FOREIGN KEY (s_st_id) REFERENCES status_type (st_id);
ALTER TABLE security ADD CONSTRAINT fk_security_2 FOREIGN KEY (s_ex_id) REFERENCES exchange (ex_id);
ALTER TABLE security ADD CONSTRAINT fk_security_3 FOREIGN KEY (s_co_id) REFERENCES company (co_id);
ALTER TABLE security ADD CONSTRAINT fk_security_1 FOREIGN KEY (s_st_id) REFERENCES status_type (st_id) NOT VALID;
ALTER TABLE security ADD CONSTRAINT fk_security_2 FOREIGN KEY (s_ex_id) REFERENCES exchange (ex_id) NOT VALID;
ALTER TABLE security ADD CONSTRAINT fk_security_3 FOREIGN KEY (s_co_id) REFERENCES company (co_id) NOT VALID;
ALTER TABLE security VALIDATE CONSTRAINT fk_security_1;
ALTER TABLE security VALIDATE CONSTRAINT fk_security_2;
ALTER TABLE security VALIDATE CONSTRAINT fk_security_3;
ALTER TABLE daily_market ADD CONSTRAINT fk_daily_market_1 FOREIGN KEY (dm_s_symb) REFERENCES security (s_symb);
ALTER TABLE daily_market ADD CONSTRAINT fk_daily_market_1 FOREIGN KEY (dm_s_symb) REFERENCES security (s_symb) NOT VALID;
ALTER TABLE daily_market VALIDATE CONSTRAINT fk_daily_market_1;
ALTER TABLE financial ADD CONSTRAINT fk_financial_1 FOREIGN KEY (fi_co_id) REFERENCES company (co_id);
ALTER TABLE financial ADD CONSTRAINT fk_financial_1 FOREIGN KEY (fi_co_id) REFERENCES company (co_id) NOT VALID;
ALTER TABLE financial VALIDATE CONSTRAINT fk_financial_1;
ALTER TABLE last_trade ADD CONSTRAINT fk_last_trade_1 FOREIGN KEY (lt_s_symb) REFERENCES security (s_symb);
ALTER TABLE last_trade ADD CONSTRAINT fk_last_trade_1 FOREIGN KEY (lt_s_symb) REFERENCES security (s_symb) NOT VALID;
ALTER TABLE last_trade VALIDATE CONSTRAINT fk_last_trade_1;
ALTER TABLE news_xref ADD CONSTRAINT fk_news_xref_1 FOREIGN KEY (nx_ni_id) REFERENCES news_item (ni_id);
ALTER TABLE news_xref ADD CONSTRAINT fk_news_xref_2 FOREIGN KEY (nx_co_id) REFERENCES company (co_id);
ALTER TABLE news_xref ADD CONSTRAINT fk_news_xref_1 FOREIGN KEY (nx_ni_id) REFERENCES news_item (ni_id) NOT VALID;
ALTER TABLE news_xref ADD CONSTRAINT fk_news_xref_2 FOREIGN KEY (nx_co_id) REFERENCES company (co_id) NOT VALID;
ALTER TABLE news_xref VALIDATE CONSTRAINT fk_news_xref_1;
ALTER TABLE news_xref VALIDATE CONSTRAINT fk_news_xref_2;
ALTER TABLE customer ADD CONSTRAINT fk_customer_1 FOREIGN KEY (c_st_id) REFERENCES status_type (st_id);
ALTER TABLE customer ADD CONSTRAINT fk_customer_2 FOREIGN KEY (c_ad_id) REFERENCES address (ad_id);
ALTER TABLE customer ADD CONSTRAINT fk_customer_1 FOREIGN KEY (c_st_id) REFERENCES status_type (st_id) NOT VALID;
ALTER TABLE customer ADD CONSTRAINT fk_customer_2 FOREIGN KEY (c_ad_id) REFERENCES address (ad_id) NOT VALID;
ALTER TABLE customer VALIDATE CONSTRAINT fk_customer_1;
ALTER TABLE customer VALIDATE CONSTRAINT fk_customer_2;
ALTER TABLE customer_taxrate ADD CONSTRAINT fk_customer_taxrate_1 FOREIGN KEY (cx_tx_id) REFERENCES taxrate (tx_id);
ALTER TABLE customer_taxrate ADD CONSTRAINT fk_customer_taxrate_2 FOREIGN KEY (cx_c_id) REFERENCES customer (c_id);
ALTER TABLE customer_taxrate ADD CONSTRAINT fk_customer_taxrate_1 FOREIGN KEY (cx_tx_id) REFERENCES taxrate (tx_id) NOT VALID;
ALTER TABLE customer_taxrate ADD CONSTRAINT fk_customer_taxrate_2 FOREIGN KEY (cx_c_id) REFERENCES customer (c_id) NOT VALID;
ALTER TABLE customer_taxrate VALIDATE CONSTRAINT fk_customer_taxrate_1;
ALTER TABLE customer_taxrate VALIDATE CONSTRAINT fk_customer_taxrate_2;
ALTER TABLE broker ADD CONSTRAINT fk_broker_1 FOREIGN KEY (b_st_id) REFERENCES status_type (st_id);
ALTER TABLE broker ADD CONSTRAINT fk_broker_1 FOREIGN KEY (b_st_id) REFERENCES status_type (st_id) NOT VALID;
ALTER TABLE broker VALIDATE CONSTRAINT fk_broker_1;
ALTER TABLE customer_account ADD CONSTRAINT fk_customer_account_1 FOREIGN KEY (ca_b_id) REFERENCES broker (b_id);
ALTER TABLE customer_account ADD CONSTRAINT fk_customer_account_2 FOREIGN KEY (ca_c_id) REFERENCES customer (c_id);
ALTER TABLE customer_account ADD CONSTRAINT fk_customer_account_1 FOREIGN KEY (ca_b_id) REFERENCES broker (b_id) NOT VALID;
ALTER TABLE customer_account ADD CONSTRAINT fk_customer_account_2 FOREIGN KEY (ca_c_id) REFERENCES customer (c_id) NOT VALID;
ALTER TABLE customer_account VALIDATE CONSTRAINT fk_customer_account_1;
ALTER TABLE customer_account VALIDATE CONSTRAINT fk_customer_account_2;
ALTER TABLE account_permission ADD CONSTRAINT fk_account_permission_1 FOREIGN KEY (ap_ca_id) REFERENCES customer_account (ca_id);
ALTER TABLE account_permission ADD CONSTRAINT fk_account_permission_1 FOREIGN KEY (ap_ca_id) REFERENCES customer_account (ca_id) NOT VALID;
ALTER TABLE account_permission VALIDATE CONSTRAINT fk_account_permission_1;
ALTER TABLE watch_list ADD CONSTRAINT fk_watch_list_1 FOREIGN KEY (wl_c_id) REFERENCES customer (c_id);
ALTER TABLE watch_list ADD CONSTRAINT fk_watch_list_1 FOREIGN KEY (wl_c_id) REFERENCES customer (c_id) NOT VALID;
ALTER TABLE watch_list VALIDATE CONSTRAINT fk_watch_list_1;
ALTER TABLE watch_item ADD CONSTRAINT fk_watch_item_1 FOREIGN KEY (wi_wl_id) REFERENCES watch_list (wl_id);
ALTER TABLE watch_item ADD CONSTRAINT fk_watch_item_2 FOREIGN KEY (wi_s_symb) REFERENCES security (s_symb);
ALTER TABLE watch_item ADD CONSTRAINT fk_watch_item_1 FOREIGN KEY (wi_wl_id) REFERENCES watch_list (wl_id) NOT VALID;
ALTER TABLE watch_item ADD CONSTRAINT fk_watch_item_2 FOREIGN KEY (wi_s_symb) REFERENCES security (s_symb) NOT VALID;
ALTER TABLE watch_item VALIDATE CONSTRAINT fk_watch_item_1;
ALTER TABLE watch_item VALIDATE CONSTRAINT fk_watch_item_2;
ALTER TABLE trade ADD CONSTRAINT fk_trade_1 FOREIGN KEY (t_st_id) REFERENCES status_type (st_id);
ALTER TABLE trade ADD CONSTRAINT fk_trade_2 FOREIGN KEY (t_tt_id) REFERENCES trade_type (tt_id);
ALTER TABLE trade ADD CONSTRAINT fk_trade_3 FOREIGN KEY (t_s_symb) REFERENCES security (s_symb);
ALTER TABLE trade ADD CONSTRAINT fk_trade_4 FOREIGN KEY (t_ca_id) REFERENCES customer_account (ca_id);
ALTER TABLE trade ADD CONSTRAINT fk_trade_1 FOREIGN KEY (t_st_id) REFERENCES status_type (st_id) NOT VALID;
ALTER TABLE trade ADD CONSTRAINT fk_trade_2 FOREIGN KEY (t_tt_id) REFERENCES trade_type (tt_id) NOT VALID;
ALTER TABLE trade ADD CONSTRAINT fk_trade_3 FOREIGN KEY (t_s_symb) REFERENCES security (s_symb) NOT VALID;
ALTER TABLE trade ADD CONSTRAINT fk_trade_4 FOREIGN KEY (t_ca_id) REFERENCES customer_account (ca_id) NOT VALID;
ALTER TABLE trade VALIDATE CONSTRAINT fk_trade_1;
ALTER TABLE trade VALIDATE CONSTRAINT fk_trade_2;
ALTER TABLE trade VALIDATE CONSTRAINT fk_trade_3;
ALTER TABLE trade VALIDATE CONSTRAINT fk_trade_4;
ALTER TABLE trade_history ADD CONSTRAINT fk_trade_history_1 FOREIGN KEY (th_t_id) REFERENCES trade (t_id);
ALTER TABLE trade_history ADD CONSTRAINT fk_trade_history_2 FOREIGN KEY (th_st_id) REFERENCES status_type (st_id);
ALTER TABLE trade_history ADD CONSTRAINT fk_trade_history_1 FOREIGN KEY (th_t_id) REFERENCES trade (t_id) NOT VALID;
ALTER TABLE trade_history ADD CONSTRAINT fk_trade_history_2 FOREIGN KEY (th_st_id) REFERENCES status_type (st_id) NOT VALID;
ALTER TABLE trade_history VALIDATE CONSTRAINT fk_trade_history_1;
ALTER TABLE trade_history VALIDATE CONSTRAINT fk_trade_history_2;
ALTER TABLE trade_request ADD CONSTRAINT fk_trade_request_1 FOREIGN KEY (tr_t_id) REFERENCES trade (t_id);
ALTER TABLE trade_request ADD CONSTRAINT fk_trade_request_2 FOREIGN KEY (tr_tt_id) REFERENCES trade_type (tt_id);
ALTER TABLE trade_request ADD CONSTRAINT fk_trade_request_3 FOREIGN KEY (tr_s_symb) REFERENCES security (s_symb);
ALTER TABLE trade_request ADD CONSTRAINT fk_trade_request_4 FOREIGN KEY (tr_b_id) REFERENCES broker (b_id);
ALTER TABLE trade_request ADD CONSTRAINT fk_trade_request_1 FOREIGN KEY (tr_t_id) REFERENCES trade (t_id) NOT VALID;
ALTER TABLE trade_request ADD CONSTRAINT fk_trade_request_2 FOREIGN KEY (tr_tt_id) REFERENCES trade_type (tt_id) NOT VALID;
ALTER TABLE trade_request ADD CONSTRAINT fk_trade_request_3 FOREIGN KEY (tr_s_symb) REFERENCES security (s_symb) NOT VALID;
ALTER TABLE trade_request ADD CONSTRAINT fk_trade_request_4 FOREIGN KEY (tr_b_id) REFERENCES broker (b_id) NOT VALID;
ALTER TABLE trade_request VALIDATE CONSTRAINT fk_trade_request_1;
ALTER TABLE trade_request VALIDATE CONSTRAINT fk_trade_request_2;
ALTER TABLE trade_request VALIDATE CONSTRAINT fk_trade_request_3;
ALTER TABLE trade_request VALIDATE CONSTRAINT fk_trade_request_4;
ALTER TABLE settlement ADD CONSTRAINT fk_settlement_1 FOREIGN KEY (se_t_id) REFERENCES trade (t_id);
ALTER TABLE settlement ADD CONSTRAINT fk_settlement_1 FOREIGN KEY (se_t_id) REFERENCES trade (t_id) NOT VALID;
ALTER TABLE settlement VALIDATE CONSTRAINT fk_settlement_1;
ALTER TABLE cash_transaction ADD CONSTRAINT fk_cash_transaction_1 FOREIGN KEY (ct_t_id) REFERENCES trade (t_id);
ALTER TABLE cash_transaction ADD CONSTRAINT fk_cash_transaction_1 FOREIGN KEY (ct_t_id) REFERENCES trade (t_id) NOT VALID;
ALTER TABLE cash_transaction VALIDATE CONSTRAINT fk_cash_transaction_1;
ALTER TABLE holding_summary ADD CONSTRAINT fk_holding_summary_1 FOREIGN KEY (hs_ca_id) REFERENCES customer_account (ca_id);
ALTER TABLE holding_summary ADD CONSTRAINT fk_holding_summary_2 FOREIGN KEY (hs_s_symb) REFERENCES security (s_symb);
ALTER TABLE holding_summary ADD CONSTRAINT fk_holding_summary_1 FOREIGN KEY (hs_ca_id) REFERENCES customer_account (ca_id) NOT VALID;
ALTER TABLE holding_summary ADD CONSTRAINT fk_holding_summary_2 FOREIGN KEY (hs_s_symb) REFERENCES security (s_symb) NOT VALID;
ALTER TABLE holding_summary VALIDATE CONSTRAINT fk_holding_summary_1;
ALTER TABLE holding_summary VALIDATE CONSTRAINT fk_holding_summary_2;
ALTER TABLE holding ADD CONSTRAINT fk_holding_1 FOREIGN KEY (h_t_id) REFERENCES trade (t_id);
ALTER TABLE holding ADD CONSTRAINT fk_holding_2 FOREIGN KEY (h_ca_id, h_s_symb) REFERENCES holding_summary (hs_ca_id, hs_s_symb);
ALTER TABLE holding ADD CONSTRAINT fk_holding_1 FOREIGN KEY (h_t_id) REFERENCES trade (t_id) NOT VALID;
ALTER TABLE holding ADD CONSTRAINT fk_holding_2 FOREIGN KEY (h_ca_id, h_s_symb) REFERENCES holding_summary (hs_ca_id, hs_s_symb) NOT VALID;
ALTER TABLE holding VALIDATE CONSTRAINT fk_holding_1;
ALTER TABLE holding VALIDATE CONSTRAINT fk_holding_2;
ALTER TABLE holding_history ADD CONSTRAINT fk_holding_history_1 FOREIGN KEY (hh_h_t_id) REFERENCES trade (t_id);
ALTER TABLE holding_history ADD CONSTRAINT fk_holding_history_2 FOREIGN KEY (hh_t_id) REFERENCES trade (t_id);
ALTER TABLE holding_history ADD CONSTRAINT fk_holding_history_1 FOREIGN KEY (hh_h_t_id) REFERENCES trade (t_id) NOT VALID;
ALTER TABLE holding_history ADD CONSTRAINT fk_holding_history_2 FOREIGN KEY (hh_t_id) REFERENCES trade (t_id) NOT VALID;
ALTER TABLE holding_history VALIDATE CONSTRAINT fk_holding_history_1;
ALTER TABLE holding_history VALIDATE CONSTRAINT fk_holding_history_2;

DROP TABLE IF EXISTS status_type;
DROP TABLE IF EXISTS trade_type;
DROP TABLE IF EXISTS taxrate;
DROP TABLE IF EXISTS zip_code;
DROP TABLE IF EXISTS sector;
DROP TABLE IF EXISTS industry;
DROP TABLE IF EXISTS address;
DROP TABLE IF EXISTS exchange;
DROP TABLE IF EXISTS charge;
DROP TABLE IF EXISTS commission_rate;
DROP TABLE IF EXISTS company;
DROP TABLE IF EXISTS company_competitor;
DROP TABLE IF EXISTS security;
DROP TABLE IF EXISTS daily_market;
DROP TABLE IF EXISTS financial;
DROP TABLE IF EXISTS last_trade;
DROP TABLE IF EXISTS news_item;
DROP TABLE IF EXISTS news_xref;
DROP TABLE IF EXISTS customer;
DROP TABLE IF EXISTS customer_taxrate;
DROP TABLE IF EXISTS broker;
DROP TABLE IF EXISTS customer_account;
DROP TABLE IF EXISTS account_permission;
DROP TABLE IF EXISTS watch_list;
DROP TABLE IF EXISTS watch_item;
DROP TABLE IF EXISTS trade;
DROP TABLE IF EXISTS trade_history;
DROP TABLE IF EXISTS trade_request;
DROP TABLE IF EXISTS settlement;
DROP TABLE IF EXISTS cash_transaction;
DROP TABLE IF EXISTS holding_summary;
DROP TABLE IF EXISTS holding;
DROP TABLE IF EXISTS holding_history;
DROP TABLE IF EXISTS bb_load;
DROP TABLE IF EXISTS bb_opening_balance;
