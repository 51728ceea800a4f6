package schema

// ZipCodes is the size of the fixed ZIP_CODE table (docs/workload.md §3.1).
const ZipCodes = 14_741

// RowsExact reports whether Rows is exact for the table rather than the
// reference's ratio.
func RowsExact(table string) bool {
	switch table {
	case "account_permission", "watch_item", "trade_history", "cash_transaction", "holding_history", "holding", "holding_summary":
		return false
	}
	return true
}

// Rows is the row count of a table at a scale (docs/workload.md §3.1): exact for the
// deterministic tables, the reference's ratio for the others (permissions, watch
// items, history, cash transactions, holdings).
func (sc Scale) Rows(table string) int64 {
	lus, cust, acc, trades := sc.LoadUnits(), sc.Customers, sc.Accounts(), sc.Trades()
	switch table {
	case "status_type", "trade_type":
		return 5
	case "taxrate":
		return int64(len(CountryTaxIDs) + DivisionTaxRates)
	case "zip_code":
		return ZipCodes
	case "sector":
		return int64(len(Sectors))
	case "industry":
		return int64(len(Industries()))
	case "exchange":
		return Exchanges
	case "charge":
		return 15
	case "commission_rate":
		return 240
	case "address":
		return Exchanges + sc.Companies() + cust
	case "company":
		return sc.Companies()
	case "company_competitor":
		return sc.Companies() * CompetitorsPerCo
	case "security", "last_trade":
		return sc.Securities()
	case "daily_market":
		return sc.Securities() * DailyMarketDays
	case "financial":
		return sc.Companies() * FinancialsPerCo
	case "news_item", "news_xref":
		return sc.Companies() * NewsPerCompany
	case "customer", "watch_list":
		return cust
	case "customer_taxrate":
		return 2 * cust
	case "customer_account", OpeningBalanceTable:
		return acc
	case "account_permission":
		return acc * 142 / 100
	case "watch_item":
		return cust * 100
	case "broker":
		return lus * BrokersPerLU
	case "trade", "settlement":
		return trades
	case "trade_history":
		return trades * 24 / 10
	case "cash_transaction":
		return trades * 92 / 100
	case "holding_history":
		return trades * 13 / 10
	case "holding":
		return trades * 15 / 100
	case "holding_summary":
		return acc * 8
	}
	return 0
}
