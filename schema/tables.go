package schema

// notNull is a NOT NULL column and nullable one that may be NULL: the table literals
// below read like the reference's column lists (docs/workload.md §2).
func notNull(name string, t Type) Column  { return Column{Name: name, Type: t} }
func nullable(name string, t Type) Column { return Column{Name: name, Type: t, Nullable: true} }

func fk(cols []string, ref string, refCols ...string) ForeignKey {
	return ForeignKey{Columns: cols, RefTable: ref, RefColumns: refCols}
}

func cols(c ...string) []string { return c }

func secondaryIndex(name string, c ...string) Index { return Index{Name: name, Columns: c} }

// Tables returns the 33 tables in load order: every table comes after the tables its
// foreign keys point to, so keys can also be created in this order.
func Tables() []Table {
	return []Table{
		// Dimension and fixed tables first (docs/workload.md §2.2).
		{Name: "status_type", Class: Fixed, PrimaryKey: cols("st_id"), Columns: []Column{
			notNull("st_id", VC(4)), notNull("st_name", VC(10))}},
		{Name: "trade_type", Class: Fixed, PrimaryKey: cols("tt_id"), Columns: []Column{
			notNull("tt_id", VC(3)), notNull("tt_name", VC(12)), notNull("tt_is_sell", Boolean), notNull("tt_is_mrkt", Boolean)}},
		{Name: "taxrate", Class: Fixed, PrimaryKey: cols("tx_id"), Columns: []Column{
			notNull("tx_id", VC(4)), notNull("tx_name", VC(50)), notNull("tx_rate", Dec(6, 5))}},
		{Name: "zip_code", Class: Fixed, PrimaryKey: cols("zc_code"), Columns: []Column{
			notNull("zc_code", VC(12)), notNull("zc_town", VC(80)), notNull("zc_div", VC(80))}},
		{Name: "sector", Class: Fixed, PrimaryKey: cols("sc_id"), Columns: []Column{
			notNull("sc_id", VC(2)), notNull("sc_name", VC(30))},
			Indexes: []Index{secondaryIndex("i_sc_name", "sc_name")}},
		{Name: "industry", Class: Fixed, PrimaryKey: cols("in_id"), Columns: []Column{
			notNull("in_id", VC(2)), notNull("in_name", VC(50)), notNull("in_sc_id", VC(2))},
			Indexes:     []Index{secondaryIndex("i_in_name", "in_name"), secondaryIndex("i_in_sc_id", "in_sc_id")},
			ForeignKeys: []ForeignKey{fk(cols("in_sc_id"), "sector", "sc_id")}},
		{Name: "address", Class: Scaling, PrimaryKey: cols("ad_id"), Columns: []Column{
			notNull("ad_id", Ident), nullable("ad_line1", VC(80)), nullable("ad_line2", VC(80)),
			notNull("ad_zc_code", VC(12)), nullable("ad_ctry", VC(80))},
			ForeignKeys: []ForeignKey{fk(cols("ad_zc_code"), "zip_code", "zc_code")}},
		{Name: "exchange", Class: Fixed, PrimaryKey: cols("ex_id"), Columns: []Column{
			notNull("ex_id", VC(6)), notNull("ex_name", VC(100)), notNull("ex_num_symb", Int), notNull("ex_open", Int),
			notNull("ex_close", Int), nullable("ex_desc", VC(150)), notNull("ex_ad_id", Ident)},
			ForeignKeys: []ForeignKey{fk(cols("ex_ad_id"), "address", "ad_id")}},
		{Name: "charge", Class: Fixed, PrimaryKey: cols("ch_tt_id", "ch_c_tier"), Columns: []Column{
			notNull("ch_tt_id", VC(3)), notNull("ch_c_tier", Small), nullable("ch_chrg", Value)},
			ForeignKeys: []ForeignKey{fk(cols("ch_tt_id"), "trade_type", "tt_id")}},
		{Name: "commission_rate", Class: Fixed, PrimaryKey: cols("cr_c_tier", "cr_tt_id", "cr_ex_id", "cr_from_qty"), Columns: []Column{
			notNull("cr_c_tier", Small), notNull("cr_tt_id", VC(3)), notNull("cr_ex_id", VC(6)),
			notNull("cr_from_qty", SQty), notNull("cr_to_qty", SQty), notNull("cr_rate", Dec(5, 2))},
			ForeignKeys: []ForeignKey{fk(cols("cr_tt_id"), "trade_type", "tt_id"), fk(cols("cr_ex_id"), "exchange", "ex_id")}},

		// Market tables (docs/workload.md §2.2).
		{Name: "company", Class: Scaling, PrimaryKey: cols("co_id"), Columns: []Column{
			notNull("co_id", Ident), notNull("co_st_id", VC(4)), notNull("co_name", VC(60)), notNull("co_in_id", VC(2)),
			notNull("co_sp_rate", VC(4)), notNull("co_ceo", VC(46)), notNull("co_ad_id", Ident), notNull("co_desc", VC(150)),
			notNull("co_open_date", DateT)},
			Indexes: []Index{secondaryIndex("i_co_name", "co_name"), secondaryIndex("i_co_in_id", "co_in_id")},
			ForeignKeys: []ForeignKey{fk(cols("co_st_id"), "status_type", "st_id"), fk(cols("co_in_id"), "industry", "in_id"),
				fk(cols("co_ad_id"), "address", "ad_id")}},
		{Name: "company_competitor", Class: Scaling, PrimaryKey: cols("cp_co_id", "cp_comp_co_id", "cp_in_id"), Columns: []Column{
			notNull("cp_co_id", Ident), notNull("cp_comp_co_id", Ident), notNull("cp_in_id", VC(2))},
			ForeignKeys: []ForeignKey{fk(cols("cp_co_id"), "company", "co_id"), fk(cols("cp_comp_co_id"), "company", "co_id"),
				fk(cols("cp_in_id"), "industry", "in_id")}},
		{Name: "security", Class: Scaling, PrimaryKey: cols("s_symb"), Columns: []Column{
			notNull("s_symb", VC(15)), notNull("s_issue", VC(6)), notNull("s_st_id", VC(4)), notNull("s_name", VC(70)),
			notNull("s_ex_id", VC(6)), notNull("s_co_id", Ident), notNull("s_num_out", SCount), notNull("s_start_date", DateT),
			notNull("s_exch_date", DateT), notNull("s_pe", Value), notNull("s_52wk_high", SPrice), notNull("s_52wk_high_date", DateT),
			notNull("s_52wk_low", SPrice), notNull("s_52wk_low_date", DateT), notNull("s_dividend", Value), notNull("s_yield", Dec(5, 2))},
			Indexes: []Index{secondaryIndex("i_s_co_id_issue", "s_co_id", "s_issue")},
			ForeignKeys: []ForeignKey{fk(cols("s_st_id"), "status_type", "st_id"), fk(cols("s_ex_id"), "exchange", "ex_id"),
				fk(cols("s_co_id"), "company", "co_id")}},
		// The key leads with the symbol (the specification's is (dm_date, dm_s_symb)):
		// Security-Detail, Market-Watch and Data-Maintenance all look up by symbol, then
		// date, and SQL Server clusters the table on it, as the loader writes it.
		{Name: "daily_market", Class: Scaling, PrimaryKey: cols("dm_s_symb", "dm_date"), Columns: []Column{
			notNull("dm_date", DateT), notNull("dm_s_symb", VC(15)), notNull("dm_close", SPrice), notNull("dm_high", SPrice),
			notNull("dm_low", SPrice), notNull("dm_vol", SCount)},
			ForeignKeys: []ForeignKey{fk(cols("dm_s_symb"), "security", "s_symb")}},
		{Name: "financial", Class: Scaling, PrimaryKey: cols("fi_co_id", "fi_year", "fi_qtr"), Columns: []Column{
			notNull("fi_co_id", Ident), notNull("fi_year", Int), notNull("fi_qtr", Small), notNull("fi_qtr_start_date", DateT),
			notNull("fi_revenue", FinAgg), notNull("fi_net_earn", FinAgg), notNull("fi_basic_eps", Value), notNull("fi_dilut_eps", Value),
			notNull("fi_margin", Value), notNull("fi_inventory", FinAgg), notNull("fi_assets", FinAgg), notNull("fi_liability", FinAgg),
			notNull("fi_out_basic", SCount), notNull("fi_out_dilut", SCount)},
			ForeignKeys: []ForeignKey{fk(cols("fi_co_id"), "company", "co_id")}},
		{Name: "last_trade", Class: Scaling, PrimaryKey: cols("lt_s_symb"), Columns: []Column{
			notNull("lt_s_symb", VC(15)), notNull("lt_dts", TS), notNull("lt_price", SPrice), notNull("lt_open_price", SPrice), notNull("lt_vol", SCount)},
			ForeignKeys: []ForeignKey{fk(cols("lt_s_symb"), "security", "s_symb")}},
		{Name: "news_item", Class: Scaling, PrimaryKey: cols("ni_id"), Columns: []Column{
			notNull("ni_id", Ident), notNull("ni_headline", VC(80)), notNull("ni_summary", VC(255)), notNull("ni_item", Blob),
			notNull("ni_dts", TS), notNull("ni_source", VC(30)), nullable("ni_author", VC(30))}},
		{Name: "news_xref", Class: Scaling, PrimaryKey: cols("nx_ni_id", "nx_co_id"), Columns: []Column{
			notNull("nx_ni_id", Ident), notNull("nx_co_id", Ident)},
			// Lookups are by company (Security-Detail).
			Indexes:     []Index{secondaryIndex("i_nx_co_id", "nx_co_id")},
			ForeignKeys: []ForeignKey{fk(cols("nx_ni_id"), "news_item", "ni_id"), fk(cols("nx_co_id"), "company", "co_id")}},

		// Customer and broker tables (docs/workload.md §2.2).
		{Name: "customer", Class: Scaling, PrimaryKey: cols("c_id"), Columns: []Column{
			notNull("c_id", Ident), notNull("c_tax_id", VC(20)), notNull("c_st_id", VC(4)), notNull("c_l_name", VC(25)),
			notNull("c_f_name", VC(20)), nullable("c_m_name", VC(1)), nullable("c_gndr", VC(1)), notNull("c_tier", Small),
			notNull("c_dob", DateT), notNull("c_ad_id", Ident),
			nullable("c_ctry_1", VC(3)), nullable("c_area_1", VC(3)), nullable("c_local_1", VC(10)), nullable("c_ext_1", VC(5)),
			nullable("c_ctry_2", VC(3)), nullable("c_area_2", VC(3)), nullable("c_local_2", VC(10)), nullable("c_ext_2", VC(5)),
			nullable("c_ctry_3", VC(3)), nullable("c_area_3", VC(3)), nullable("c_local_3", VC(10)), nullable("c_ext_3", VC(5)),
			nullable("c_email_1", VC(50)), nullable("c_email_2", VC(50))},
			Indexes:     []Index{secondaryIndex("i_c_tax_id", "c_tax_id")},
			ForeignKeys: []ForeignKey{fk(cols("c_st_id"), "status_type", "st_id"), fk(cols("c_ad_id"), "address", "ad_id")}},
		{Name: "customer_taxrate", Class: Scaling, PrimaryKey: cols("cx_c_id", "cx_tx_id"), Columns: []Column{
			// PK leads with the customer: every query filters by cx_c_id (docs/workload.md §2.3).
			notNull("cx_tx_id", VC(4)), notNull("cx_c_id", Ident)},
			ForeignKeys: []ForeignKey{fk(cols("cx_tx_id"), "taxrate", "tx_id"), fk(cols("cx_c_id"), "customer", "c_id")}},
		{Name: "broker", Class: Scaling, PrimaryKey: cols("b_id"), FillFactor: 10, Columns: []Column{
			notNull("b_id", Ident), notNull("b_st_id", VC(4)), notNull("b_name", VC(49)), notNull("b_num_trades", Int), notNull("b_comm_total", Balance)},
			Indexes:     []Index{secondaryIndex("i_b_name", "b_name")},
			ForeignKeys: []ForeignKey{fk(cols("b_st_id"), "status_type", "st_id")}},
		{Name: "customer_account", Class: Scaling, PrimaryKey: cols("ca_id"), Columns: []Column{
			notNull("ca_id", Ident), notNull("ca_b_id", Ident), notNull("ca_c_id", Ident), nullable("ca_name", VC(50)),
			notNull("ca_tax_st", Small), notNull("ca_bal", Balance)},
			Indexes:     []Index{secondaryIndex("i_ca_c_id", "ca_c_id")},
			ForeignKeys: []ForeignKey{fk(cols("ca_b_id"), "broker", "b_id"), fk(cols("ca_c_id"), "customer", "c_id")}},
		{Name: "account_permission", Class: Scaling, PrimaryKey: cols("ap_ca_id", "ap_tax_id"), Columns: []Column{
			notNull("ap_ca_id", Ident), notNull("ap_acl", VC(4)), notNull("ap_tax_id", VC(20)), notNull("ap_l_name", VC(25)), notNull("ap_f_name", VC(20))},
			ForeignKeys: []ForeignKey{fk(cols("ap_ca_id"), "customer_account", "ca_id")}},
		{Name: "watch_list", Class: Scaling, PrimaryKey: cols("wl_id"), Columns: []Column{
			notNull("wl_id", Ident), notNull("wl_c_id", Ident)},
			Indexes:     []Index{secondaryIndex("i_wl_c_id", "wl_c_id")},
			ForeignKeys: []ForeignKey{fk(cols("wl_c_id"), "customer", "c_id")}},
		{Name: "watch_item", Class: Scaling, PrimaryKey: cols("wi_wl_id", "wi_s_symb"), Columns: []Column{
			notNull("wi_wl_id", Ident), notNull("wi_s_symb", VC(15))},
			ForeignKeys: []ForeignKey{fk(cols("wi_wl_id"), "watch_list", "wl_id"), fk(cols("wi_s_symb"), "security", "s_symb")}},

		// Growing tables (trades and their children).
		{Name: "trade", Class: Growing, PrimaryKey: cols("t_id"), Columns: []Column{
			notNull("t_id", TradeT), notNull("t_dts", TS), notNull("t_st_id", VC(4)), notNull("t_tt_id", VC(3)), notNull("t_is_cash", Boolean),
			notNull("t_s_symb", VC(15)), notNull("t_qty", SQty), notNull("t_bid_price", SPrice), notNull("t_ca_id", Ident),
			notNull("t_exec_name", VC(49)), nullable("t_trade_price", SPrice), notNull("t_chrg", Value), notNull("t_comm", Value),
			notNull("t_tax", Value), notNull("t_lifo", Boolean)},
			// "Latest N trades of an account/symbol" and the time-window frames need these.
			Indexes: []Index{secondaryIndex("i_t_ca_id_dts", "t_ca_id", "t_dts"), secondaryIndex("i_t_s_symb_dts", "t_s_symb", "t_dts"),
				secondaryIndex("i_t_st_id", "t_st_id")},
			ForeignKeys: []ForeignKey{fk(cols("t_st_id"), "status_type", "st_id"), fk(cols("t_tt_id"), "trade_type", "tt_id"),
				fk(cols("t_s_symb"), "security", "s_symb"), fk(cols("t_ca_id"), "customer_account", "ca_id")}},
		{Name: "trade_history", Class: Growing, PrimaryKey: cols("th_t_id", "th_st_id"), Columns: []Column{
			notNull("th_t_id", TradeT), notNull("th_dts", TS), notNull("th_st_id", VC(4))},
			Indexes:     []Index{secondaryIndex("i_th_t_id_dts", "th_t_id", "th_dts")},
			ForeignKeys: []ForeignKey{fk(cols("th_t_id"), "trade", "t_id"), fk(cols("th_st_id"), "status_type", "st_id")}},
		{Name: "trade_request", Class: Growing, PrimaryKey: cols("tr_t_id"), Columns: []Column{
			notNull("tr_t_id", TradeT), notNull("tr_tt_id", VC(3)), notNull("tr_s_symb", VC(15)), notNull("tr_qty", SQty),
			notNull("tr_bid_price", SPrice), notNull("tr_b_id", Ident)},
			Indexes: []Index{secondaryIndex("i_tr_s_symb", "tr_s_symb"), secondaryIndex("i_tr_b_id", "tr_b_id")},
			ForeignKeys: []ForeignKey{fk(cols("tr_t_id"), "trade", "t_id"), fk(cols("tr_tt_id"), "trade_type", "tt_id"),
				fk(cols("tr_s_symb"), "security", "s_symb"), fk(cols("tr_b_id"), "broker", "b_id")}},
		{Name: "settlement", Class: Growing, PrimaryKey: cols("se_t_id"), Columns: []Column{
			notNull("se_t_id", TradeT), notNull("se_cash_type", VC(40)), notNull("se_cash_due_date", DateT), notNull("se_amt", Value)},
			ForeignKeys: []ForeignKey{fk(cols("se_t_id"), "trade", "t_id")}},
		{Name: "cash_transaction", Class: Growing, PrimaryKey: cols("ct_t_id"), Columns: []Column{
			notNull("ct_t_id", TradeT), notNull("ct_dts", TS), notNull("ct_amt", Value), nullable("ct_name", VC(100))},
			ForeignKeys: []ForeignKey{fk(cols("ct_t_id"), "trade", "t_id")}},
		{Name: "holding_summary", Class: Growing, PrimaryKey: cols("hs_ca_id", "hs_s_symb"), Columns: []Column{
			notNull("hs_ca_id", Ident), notNull("hs_s_symb", VC(15)), notNull("hs_qty", SQty)},
			ForeignKeys: []ForeignKey{fk(cols("hs_ca_id"), "customer_account", "ca_id"), fk(cols("hs_s_symb"), "security", "s_symb")}},
		{Name: "holding", Class: Growing, PrimaryKey: cols("h_t_id"), Columns: []Column{
			notNull("h_t_id", TradeT), notNull("h_ca_id", Ident), notNull("h_s_symb", VC(15)), notNull("h_dts", TS),
			notNull("h_price", SPrice), notNull("h_qty", SQty)},
			// FIFO/LIFO walks scan an account's lots of one symbol in time order.
			Indexes: []Index{secondaryIndex("i_h_ca_id_symb_dts", "h_ca_id", "h_s_symb", "h_dts")},
			ForeignKeys: []ForeignKey{fk(cols("h_t_id"), "trade", "t_id"),
				fk(cols("h_ca_id", "h_s_symb"), "holding_summary", "hs_ca_id", "hs_s_symb")}},
		{Name: "holding_history", Class: Growing, PrimaryKey: cols("hh_h_t_id", "hh_t_id"), Columns: []Column{
			notNull("hh_h_t_id", TradeT), notNull("hh_t_id", TradeT), notNull("hh_before_qty", SQty), notNull("hh_after_qty", SQty)},
			Indexes:     []Index{secondaryIndex("i_hh_t_id", "hh_t_id")},
			ForeignKeys: []ForeignKey{fk(cols("hh_h_t_id"), "trade", "t_id"), fk(cols("hh_t_id"), "trade", "t_id")}},
	}
}

// TableByName returns the named table.
func TableByName(name string) (Table, bool) {
	for _, t := range Tables() {
		if t.Name == name {
			return t, true
		}
	}
	return Table{}, false
}
