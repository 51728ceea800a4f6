package txn

// Statements are the named SQL statements of one dialect: one field per statement,
// grouped by transaction in the order its frames run them. Every dialect fills every
// field (a test fails on an empty one) and a golden file pins each text.
type Statements struct {
	// Broker-Volume
	BrokerVolume string

	// Customer-Position
	CustomerPositionByTaxID  string
	CustomerPositionCustomer string
	CustomerPositionAccounts string
	CustomerPositionHistory  string

	// Market-Feed
	MarketFeedUpdateLastTrade string
	MarketFeedTriggered       string
	MarketFeedSubmitTrade     string
	MarketFeedDeleteRequest   string
	MarketFeedInsertHistory   string

	// Market-Watch
	MarketWatchByWatchList string
	MarketWatchByAccount   string
	MarketWatchByIndustry  string

	// Security-Detail
	SecurityDetailSecurity     string
	SecurityDetailCompetitors  string
	SecurityDetailFinancials   string
	SecurityDetailDays         string
	SecurityDetailLastTrade    string
	SecurityDetailNewsWithItem string
	SecurityDetailNews         string

	// Trade-Lookup (frames 1-4; Trade-Update reuses the detail reads)
	TradeLookupTradeByID       string
	TradeLookupSettlement      string
	TradeLookupCash            string
	TradeLookupHistory         string
	TradeLookupTradesByAccount string
	TradeLookupTradesBySymbol  string
	TradeLookupFirstTrade      string
	TradeLookupHoldingHistory  string

	// Trade-Order
	TradeOrderAccount           string
	TradeOrderCustomer          string
	TradeOrderBroker            string
	TradeOrderPermission        string
	TradeOrderCompanyByName     string
	TradeOrderSecurityByCompany string
	TradeOrderSecurityBySymbol  string
	TradeOrderCompanyName       string
	TradeOrderLastPrice         string
	TradeOrderTradeType         string
	TradeOrderHoldingQty        string
	TradeOrderHoldingsAsc       string
	TradeOrderHoldingsDesc      string
	TradeOrderTaxRate           string
	TradeOrderCommissionRate    string
	TradeOrderCharge            string
	TradeOrderBalance           string
	TradeOrderHoldingAssets     string
	TradeOrderNextTradeID       string
	TradeOrderInsertTrade       string
	TradeOrderInsertRequest     string
	TradeOrderInsertHistory     string

	// Trade-Result
	TradeResultTrade                string
	TradeResultTradeType            string
	TradeResultAccount              string
	TradeResultHoldingSummary       string
	TradeResultInsertSummary        string
	TradeResultUpdateSummary        string
	TradeResultDeleteSummary        string
	TradeResultLotsAsc              string
	TradeResultLotsDesc             string
	TradeResultInsertHoldingHistory string
	TradeResultUpdateHolding        string
	TradeResultDeleteHolding        string
	TradeResultInsertHolding        string
	TradeResultTaxRate              string
	TradeResultUpdateTax            string
	TradeResultSecurity             string
	TradeResultCustomerTier         string
	TradeResultCommissionRate       string
	TradeResultCompleteTrade        string
	TradeResultInsertHistory        string
	TradeResultUpdateBroker         string
	TradeResultInsertSettlement     string
	TradeResultUpdateBalance        string
	TradeResultInsertCash           string
	TradeResultBalance              string

	// Trade-Status
	TradeStatusTrades string
	TradeStatusNames  string

	// Trade-Update
	TradeUpdateExecName       string
	TradeUpdateSetExecName    string
	TradeUpdateCashType       string
	TradeUpdateSetCashType    string
	TradeUpdateTradesBySymbol string
	TradeUpdateCashName       string
	TradeUpdateSetCashName    string

	// Data-Maintenance
	DMAccountPermissionACL    string
	DMAccountPermissionSetACL string
	DMAddressOfCustomer       string
	DMAddressOfCompany        string
	DMAddressLine2            string
	DMAddressSetLine2         string
	DMCompanySPRate           string
	DMCompanySetSPRate        string
	DMCustomerEmail           string
	DMCustomerSetEmail        string
	DMCustomerTaxRate         string
	DMCustomerSetTaxRate      string
	DMDailyMarketVolume       string
	DMExchangeDescs           string
	DMExchangeSetDesc         string
	DMFinancialFirstDay       string
	DMFinancialShift          string
	DMNewsItemDate            string
	DMSecurityExchDate        string
	DMTaxRateName             string
	DMTaxRateSetName          string
	DMWatchItems              string
	DMWatchNextSymbol         string
	DMWatchSetSymbol          string

	// Trade-Cleanup
	TradeCleanupRequests       string
	TradeCleanupInsertHistory  string
	TradeCleanupCancelTrade    string
	TradeCleanupDeleteRequests string
	TradeCleanupSubmitted      string

	// Check holds the consistency checks of `brokerbench check`.
	Check CheckSQL
}
