package schema

// nn is a NOT NULL column, opt a nullable one: the table literals below read like the
// reference's column lists (docs/workload.md §2).
func nn(name string, t Type) Column  { return Column{Name: name, Type: t} }
func opt(name string, t Type) Column { return Column{Name: name, Type: t, Nullable: true} }

func fk(cols []string, ref string, refCols ...string) ForeignKey {
	return ForeignKey{Columns: cols, RefTable: ref, RefColumns: refCols}
}

func cols(c ...string) []string { return c }

func idx(name string, c ...string) Index { return Index{Name: name, Columns: c} }

// Tables returns the 33 tables in load order: every table comes after the tables its
// foreign keys point to, so keys can also be created in this order.
func Tables() []Table {
	return []Table{
		// Dimension and fixed tables first (docs/workload.md §2.2).
		{Name: "status_type", Class: Fixed, PrimaryKey: cols("st_id"), Columns: []Column{
			nn("st_id", VC(4)), nn("st_name", VC(10))}},
		{Name: "trade_type", Class: Fixed, PrimaryKey: cols("tt_id"), Columns: []Column{
			nn("tt_id", VC(3)), nn("tt_name", VC(12)), nn("tt_is_sell", Boolean), nn("tt_is_mrkt", Boolean)}},
		{Name: "taxrate", Class: Fixed, PrimaryKey: cols("tx_id"), Columns: []Column{
			nn("tx_id", VC(4)), nn("tx_name", VC(50)), nn("tx_rate", Dec(6, 5))}},
		{Name: "zip_code", Class: Fixed, PrimaryKey: cols("zc_code"), Columns: []Column{
			nn("zc_code", VC(12)), nn("zc_town", VC(80)), nn("zc_div", VC(80))}},
		{Name: "sector", Class: Fixed, PrimaryKey: cols("sc_id"), Columns: []Column{
			nn("sc_id", VC(2)), nn("sc_name", VC(30))},
			Indexes: []Index{idx("i_sc_name", "sc_name")}},
		{Name: "industry", Class: Fixed, PrimaryKey: cols("in_id"), Columns: []Column{
			nn("in_id", VC(2)), nn("in_name", VC(50)), nn("in_sc_id", VC(2))},
			Indexes:     []Index{idx("i_in_name", "in_name"), idx("i_in_sc_id", "in_sc_id")},
			ForeignKeys: []ForeignKey{fk(cols("in_sc_id"), "sector", "sc_id")}},
		{Name: "address", Class: Scaling, PrimaryKey: cols("ad_id"), Columns: []Column{
			nn("ad_id", Ident), opt("ad_line1", VC(80)), opt("ad_line2", VC(80)),
			nn("ad_zc_code", VC(12)), opt("ad_ctry", VC(80))},
			ForeignKeys: []ForeignKey{fk(cols("ad_zc_code"), "zip_code", "zc_code")}},
		{Name: "exchange", Class: Fixed, PrimaryKey: cols("ex_id"), Columns: []Column{
			nn("ex_id", VC(6)), nn("ex_name", VC(100)), nn("ex_num_symb", Int), nn("ex_open", Int),
			nn("ex_close", Int), opt("ex_desc", VC(150)), nn("ex_ad_id", Ident)},
			ForeignKeys: []ForeignKey{fk(cols("ex_ad_id"), "address", "ad_id")}},
		{Name: "charge", Class: Fixed, PrimaryKey: cols("ch_tt_id", "ch_c_tier"), Columns: []Column{
			nn("ch_tt_id", VC(3)), nn("ch_c_tier", Small), opt("ch_chrg", Value)},
			ForeignKeys: []ForeignKey{fk(cols("ch_tt_id"), "trade_type", "tt_id")}},
		{Name: "commission_rate", Class: Fixed, PrimaryKey: cols("cr_c_tier", "cr_tt_id", "cr_ex_id", "cr_from_qty"), Columns: []Column{
			nn("cr_c_tier", Small), nn("cr_tt_id", VC(3)), nn("cr_ex_id", VC(6)),
			nn("cr_from_qty", SQty), nn("cr_to_qty", SQty), nn("cr_rate", Dec(5, 2))},
			ForeignKeys: []ForeignKey{fk(cols("cr_tt_id"), "trade_type", "tt_id"), fk(cols("cr_ex_id"), "exchange", "ex_id")}},

		// Market tables (docs/workload.md §2.2).
		{Name: "company", Class: Scaling, PrimaryKey: cols("co_id"), Columns: []Column{
			nn("co_id", Ident), nn("co_st_id", VC(4)), nn("co_name", VC(60)), nn("co_in_id", VC(2)),
			nn("co_sp_rate", VC(4)), nn("co_ceo", VC(46)), nn("co_ad_id", Ident), nn("co_desc", VC(150)),
			nn("co_open_date", DateT)},
			Indexes: []Index{idx("i_co_name", "co_name"), idx("i_co_in_id", "co_in_id")},
			ForeignKeys: []ForeignKey{fk(cols("co_st_id"), "status_type", "st_id"), fk(cols("co_in_id"), "industry", "in_id"),
				fk(cols("co_ad_id"), "address", "ad_id")}},
		{Name: "company_competitor", Class: Scaling, PrimaryKey: cols("cp_co_id", "cp_comp_co_id", "cp_in_id"), Columns: []Column{
			nn("cp_co_id", Ident), nn("cp_comp_co_id", Ident), nn("cp_in_id", VC(2))},
			ForeignKeys: []ForeignKey{fk(cols("cp_co_id"), "company", "co_id"), fk(cols("cp_comp_co_id"), "company", "co_id"),
				fk(cols("cp_in_id"), "industry", "in_id")}},
		{Name: "security", Class: Scaling, PrimaryKey: cols("s_symb"), Columns: []Column{
			nn("s_symb", VC(15)), nn("s_issue", VC(6)), nn("s_st_id", VC(4)), nn("s_name", VC(70)),
			nn("s_ex_id", VC(6)), nn("s_co_id", Ident), nn("s_num_out", SCount), nn("s_start_date", DateT),
			nn("s_exch_date", DateT), nn("s_pe", Value), nn("s_52wk_high", SPrice), nn("s_52wk_high_date", DateT),
			nn("s_52wk_low", SPrice), nn("s_52wk_low_date", DateT), nn("s_dividend", Value), nn("s_yield", Dec(5, 2))},
			Indexes: []Index{idx("i_s_co_id_issue", "s_co_id", "s_issue")},
			ForeignKeys: []ForeignKey{fk(cols("s_st_id"), "status_type", "st_id"), fk(cols("s_ex_id"), "exchange", "ex_id"),
				fk(cols("s_co_id"), "company", "co_id")}},
		// The key leads with the symbol (the specification's is (dm_date, dm_s_symb)):
		// Security-Detail, Market-Watch and Data-Maintenance all look up by symbol, then
		// date, and SQL Server clusters the table on it, as the loader writes it.
		{Name: "daily_market", Class: Scaling, PrimaryKey: cols("dm_s_symb", "dm_date"), Columns: []Column{
			nn("dm_date", DateT), nn("dm_s_symb", VC(15)), nn("dm_close", SPrice), nn("dm_high", SPrice),
			nn("dm_low", SPrice), nn("dm_vol", SCount)},
			ForeignKeys: []ForeignKey{fk(cols("dm_s_symb"), "security", "s_symb")}},
		{Name: "financial", Class: Scaling, PrimaryKey: cols("fi_co_id", "fi_year", "fi_qtr"), Columns: []Column{
			nn("fi_co_id", Ident), nn("fi_year", Int), nn("fi_qtr", Small), nn("fi_qtr_start_date", DateT),
			nn("fi_revenue", FinAgg), nn("fi_net_earn", FinAgg), nn("fi_basic_eps", Value), nn("fi_dilut_eps", Value),
			nn("fi_margin", Value), nn("fi_inventory", FinAgg), nn("fi_assets", FinAgg), nn("fi_liability", FinAgg),
			nn("fi_out_basic", SCount), nn("fi_out_dilut", SCount)},
			ForeignKeys: []ForeignKey{fk(cols("fi_co_id"), "company", "co_id")}},
		{Name: "last_trade", Class: Scaling, PrimaryKey: cols("lt_s_symb"), Columns: []Column{
			nn("lt_s_symb", VC(15)), nn("lt_dts", TS), nn("lt_price", SPrice), nn("lt_open_price", SPrice), nn("lt_vol", SCount)},
			ForeignKeys: []ForeignKey{fk(cols("lt_s_symb"), "security", "s_symb")}},
		{Name: "news_item", Class: Scaling, PrimaryKey: cols("ni_id"), Columns: []Column{
			nn("ni_id", Ident), nn("ni_headline", VC(80)), nn("ni_summary", VC(255)), nn("ni_item", Blob),
			nn("ni_dts", TS), nn("ni_source", VC(30)), opt("ni_author", VC(30))}},
		{Name: "news_xref", Class: Scaling, PrimaryKey: cols("nx_ni_id", "nx_co_id"), Columns: []Column{
			nn("nx_ni_id", Ident), nn("nx_co_id", Ident)},
			// Lookups are by company (Security-Detail).
			Indexes:     []Index{idx("i_nx_co_id", "nx_co_id")},
			ForeignKeys: []ForeignKey{fk(cols("nx_ni_id"), "news_item", "ni_id"), fk(cols("nx_co_id"), "company", "co_id")}},

		// Customer and broker tables (docs/workload.md §2.2).
		{Name: "customer", Class: Scaling, PrimaryKey: cols("c_id"), Columns: []Column{
			nn("c_id", Ident), nn("c_tax_id", VC(20)), nn("c_st_id", VC(4)), nn("c_l_name", VC(25)),
			nn("c_f_name", VC(20)), opt("c_m_name", VC(1)), opt("c_gndr", VC(1)), nn("c_tier", Small),
			nn("c_dob", DateT), nn("c_ad_id", Ident),
			opt("c_ctry_1", VC(3)), opt("c_area_1", VC(3)), opt("c_local_1", VC(10)), opt("c_ext_1", VC(5)),
			opt("c_ctry_2", VC(3)), opt("c_area_2", VC(3)), opt("c_local_2", VC(10)), opt("c_ext_2", VC(5)),
			opt("c_ctry_3", VC(3)), opt("c_area_3", VC(3)), opt("c_local_3", VC(10)), opt("c_ext_3", VC(5)),
			opt("c_email_1", VC(50)), opt("c_email_2", VC(50))},
			Indexes:     []Index{idx("i_c_tax_id", "c_tax_id")},
			ForeignKeys: []ForeignKey{fk(cols("c_st_id"), "status_type", "st_id"), fk(cols("c_ad_id"), "address", "ad_id")}},
		{Name: "customer_taxrate", Class: Scaling, PrimaryKey: cols("cx_c_id", "cx_tx_id"), Columns: []Column{
			// PK leads with the customer: every query filters by cx_c_id (docs/workload.md §2.3).
			nn("cx_tx_id", VC(4)), nn("cx_c_id", Ident)},
			ForeignKeys: []ForeignKey{fk(cols("cx_tx_id"), "taxrate", "tx_id"), fk(cols("cx_c_id"), "customer", "c_id")}},
		{Name: "broker", Class: Scaling, PrimaryKey: cols("b_id"), FillFactor: 10, Columns: []Column{
			nn("b_id", Ident), nn("b_st_id", VC(4)), nn("b_name", VC(49)), nn("b_num_trades", Int), nn("b_comm_total", Balance)},
			Indexes:     []Index{idx("i_b_name", "b_name")},
			ForeignKeys: []ForeignKey{fk(cols("b_st_id"), "status_type", "st_id")}},
		{Name: "customer_account", Class: Scaling, PrimaryKey: cols("ca_id"), Columns: []Column{
			nn("ca_id", Ident), nn("ca_b_id", Ident), nn("ca_c_id", Ident), opt("ca_name", VC(50)),
			nn("ca_tax_st", Small), nn("ca_bal", Balance)},
			Indexes:     []Index{idx("i_ca_c_id", "ca_c_id")},
			ForeignKeys: []ForeignKey{fk(cols("ca_b_id"), "broker", "b_id"), fk(cols("ca_c_id"), "customer", "c_id")}},
		{Name: "account_permission", Class: Scaling, PrimaryKey: cols("ap_ca_id", "ap_tax_id"), Columns: []Column{
			nn("ap_ca_id", Ident), nn("ap_acl", VC(4)), nn("ap_tax_id", VC(20)), nn("ap_l_name", VC(25)), nn("ap_f_name", VC(20))},
			ForeignKeys: []ForeignKey{fk(cols("ap_ca_id"), "customer_account", "ca_id")}},
		{Name: "watch_list", Class: Scaling, PrimaryKey: cols("wl_id"), Columns: []Column{
			nn("wl_id", Ident), nn("wl_c_id", Ident)},
			Indexes:     []Index{idx("i_wl_c_id", "wl_c_id")},
			ForeignKeys: []ForeignKey{fk(cols("wl_c_id"), "customer", "c_id")}},
		{Name: "watch_item", Class: Scaling, PrimaryKey: cols("wi_wl_id", "wi_s_symb"), Columns: []Column{
			nn("wi_wl_id", Ident), nn("wi_s_symb", VC(15))},
			ForeignKeys: []ForeignKey{fk(cols("wi_wl_id"), "watch_list", "wl_id"), fk(cols("wi_s_symb"), "security", "s_symb")}},

		// Growing tables (trades and their children).
		{Name: "trade", Class: Growing, PrimaryKey: cols("t_id"), Columns: []Column{
			nn("t_id", TradeT), nn("t_dts", TS), nn("t_st_id", VC(4)), nn("t_tt_id", VC(3)), nn("t_is_cash", Boolean),
			nn("t_s_symb", VC(15)), nn("t_qty", SQty), nn("t_bid_price", SPrice), nn("t_ca_id", Ident),
			nn("t_exec_name", VC(49)), opt("t_trade_price", SPrice), nn("t_chrg", Value), nn("t_comm", Value),
			nn("t_tax", Value), nn("t_lifo", Boolean)},
			// "Latest N trades of an account/symbol" and the time-window frames need these.
			Indexes: []Index{idx("i_t_ca_id_dts", "t_ca_id", "t_dts"), idx("i_t_s_symb_dts", "t_s_symb", "t_dts"),
				idx("i_t_st_id", "t_st_id")},
			ForeignKeys: []ForeignKey{fk(cols("t_st_id"), "status_type", "st_id"), fk(cols("t_tt_id"), "trade_type", "tt_id"),
				fk(cols("t_s_symb"), "security", "s_symb"), fk(cols("t_ca_id"), "customer_account", "ca_id")}},
		{Name: "trade_history", Class: Growing, PrimaryKey: cols("th_t_id", "th_st_id"), Columns: []Column{
			nn("th_t_id", TradeT), nn("th_dts", TS), nn("th_st_id", VC(4))},
			Indexes:     []Index{idx("i_th_t_id_dts", "th_t_id", "th_dts")},
			ForeignKeys: []ForeignKey{fk(cols("th_t_id"), "trade", "t_id"), fk(cols("th_st_id"), "status_type", "st_id")}},
		{Name: "trade_request", Class: Growing, PrimaryKey: cols("tr_t_id"), Columns: []Column{
			nn("tr_t_id", TradeT), nn("tr_tt_id", VC(3)), nn("tr_s_symb", VC(15)), nn("tr_qty", SQty),
			nn("tr_bid_price", SPrice), nn("tr_b_id", Ident)},
			Indexes: []Index{idx("i_tr_s_symb", "tr_s_symb"), idx("i_tr_b_id", "tr_b_id")},
			ForeignKeys: []ForeignKey{fk(cols("tr_t_id"), "trade", "t_id"), fk(cols("tr_tt_id"), "trade_type", "tt_id"),
				fk(cols("tr_s_symb"), "security", "s_symb"), fk(cols("tr_b_id"), "broker", "b_id")}},
		{Name: "settlement", Class: Growing, PrimaryKey: cols("se_t_id"), Columns: []Column{
			nn("se_t_id", TradeT), nn("se_cash_type", VC(40)), nn("se_cash_due_date", DateT), nn("se_amt", Value)},
			ForeignKeys: []ForeignKey{fk(cols("se_t_id"), "trade", "t_id")}},
		{Name: "cash_transaction", Class: Growing, PrimaryKey: cols("ct_t_id"), Columns: []Column{
			nn("ct_t_id", TradeT), nn("ct_dts", TS), nn("ct_amt", Value), opt("ct_name", VC(100))},
			ForeignKeys: []ForeignKey{fk(cols("ct_t_id"), "trade", "t_id")}},
		{Name: "holding_summary", Class: Growing, PrimaryKey: cols("hs_ca_id", "hs_s_symb"), Columns: []Column{
			nn("hs_ca_id", Ident), nn("hs_s_symb", VC(15)), nn("hs_qty", SQty)},
			ForeignKeys: []ForeignKey{fk(cols("hs_ca_id"), "customer_account", "ca_id"), fk(cols("hs_s_symb"), "security", "s_symb")}},
		{Name: "holding", Class: Growing, PrimaryKey: cols("h_t_id"), Columns: []Column{
			nn("h_t_id", TradeT), nn("h_ca_id", Ident), nn("h_s_symb", VC(15)), nn("h_dts", TS),
			nn("h_price", SPrice), nn("h_qty", SQty)},
			// FIFO/LIFO walks scan an account's lots of one symbol in time order.
			Indexes: []Index{idx("i_h_ca_id_symb_dts", "h_ca_id", "h_s_symb", "h_dts")},
			ForeignKeys: []ForeignKey{fk(cols("h_t_id"), "trade", "t_id"),
				fk(cols("h_ca_id", "h_s_symb"), "holding_summary", "hs_ca_id", "hs_s_symb")}},
		{Name: "holding_history", Class: Growing, PrimaryKey: cols("hh_h_t_id", "hh_t_id"), Columns: []Column{
			nn("hh_h_t_id", TradeT), nn("hh_t_id", TradeT), nn("hh_before_qty", SQty), nn("hh_after_qty", SQty)},
			Indexes:     []Index{idx("i_hh_t_id", "hh_t_id")},
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
