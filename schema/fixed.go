package schema

import "fmt"

// Status and trade type codes (docs/workload.md §1). Not knobs.
const (
	StatusCompleted = "CMPT"
	StatusActive    = "ACTV"
	StatusSubmitted = "SBMT"
	StatusPending   = "PNDG"
	StatusCanceled  = "CNCL"
)

// StatusTypes lists (id, name).
var StatusTypes = [...][2]string{
	{StatusCompleted, "Completed"}, {StatusActive, "Active"}, {StatusSubmitted, "Submitted"},
	{StatusPending, "Pending"}, {StatusCanceled, "Canceled"},
}

// TradeType is a row of TRADE_TYPE.
type TradeType struct {
	ID, Name         string
	IsSell, IsMarket bool
}

const (
	MarketBuy  = "TMB"
	MarketSell = "TMS"
	StopLoss   = "TSL"
	LimitSell  = "TLS"
	LimitBuy   = "TLB"
)

var TradeTypes = [...]TradeType{
	{MarketBuy, "Market-Buy", false, true},
	{MarketSell, "Market-Sell", true, true},
	{StopLoss, "Stop-Loss", true, false},
	{LimitSell, "Limit-Sell", true, false},
	{LimitBuy, "Limit-Buy", false, false},
}

// TradeTypeByID returns the trade type row.
func TradeTypeByID(id string) (TradeType, bool) {
	for _, t := range TradeTypes {
		if t.ID == id {
			return t, true
		}
	}
	return TradeType{}, false
}

// ExchangeIDs are the four exchanges, in address-id order.
var ExchangeIDs = [Exchanges]string{"NYSE", "NASDAQ", "AMEX", "PCX"}

// Charges per trade type and tier (docs/workload.md §1), in cents.
var Charges = map[string][3]int64{
	MarketBuy: {500, 450, 250}, MarketSell: {500, 450, 250},
	StopLoss: {650, 550, 350}, LimitSell: {600, 500, 300}, LimitBuy: {600, 500, 300},
}

// CommissionBands are the quantity bands of COMMISSION_RATE.
var CommissionBands = [...][2]int{{1, 200}, {201, 500}, {501, 2000}, {2001, 999999}}

// CommissionRate returns the commission rate in hundredths of a percent for a tier,
// trade type, exchange and band: tier 1 market buy on NYSE is 0.40/0.36/0.32/0.20 %,
// other rows scale from it by tier, type and exchange so every row is positive.
func CommissionRate(tier int, tradeType, exchange string, band int) int64 {
	base := [...]int64{40, 36, 32, 20}[band]
	tierAdj := [...]int64{0, -4, -8}[tier-1]
	typeAdj := map[string]int64{MarketBuy: 0, MarketSell: 0, StopLoss: 5, LimitSell: 3, LimitBuy: 3}[tradeType]
	exAdj := map[string]int64{"NYSE": 0, "NASDAQ": 1, "AMEX": 2, "PCX": 1}[exchange]
	return base + tierAdj + typeAdj + exAdj
}

// Sectors are the 12 sectors; industries are spread over them.
var Sectors = [...]string{
	"Basic Materials", "Capital Goods", "Conglomerates", "Consumer Cyclical", "Consumer Non-Cyclical",
	"Energy", "Financial", "Healthcare", "Services", "Technology", "Transportation", "Utilities",
}

// SectorID returns the 2-character id of sector i.
func SectorID(i int) string { return fmt.Sprintf("%02d", i+1) }

// Industries returns the 102 industries: (id, name, sector index).
func Industries() [102]Industry {
	var out [102]Industry
	for i := range out {
		sec := i % len(Sectors)
		out[i] = Industry{
			ID:     industryID(i),
			Name:   fmt.Sprintf("%s %s", industryWords[i%len(industryWords)], industryKinds[(i/len(industryWords))%len(industryKinds)]),
			Sector: sec,
		}
	}
	return out
}

// Industry is a row of INDUSTRY.
type Industry struct {
	ID, Name string
	Sector   int
}

// industryID gives two-letter ids AA, AB, ...
func industryID(i int) string { return string([]byte{byte('A' + i/26), byte('A' + i%26)}) }

var industryWords = [...]string{
	"Aerospace", "Agricultural", "Apparel", "Auto", "Beverage", "Biotech", "Broadcast", "Chemical",
	"Coal", "Computer", "Construction", "Electronic", "Food", "Forestry", "Furniture", "Gold",
	"Insurance", "Iron", "Medical", "Metal", "Mining", "Office", "Oil", "Paper", "Pharma", "Printing",
	"Railroad", "Retail", "Rubber", "Shipping", "Software", "Textile", "Tobacco", "Trucking",
}

var industryKinds = [...]string{"Products", "Services", "Equipment"}

// IndustryOfCompany returns the industry index of a company index.
func IndustryOfCompany(coIndex int64) int { return int(Mix2(uint64(coIndex), 7) % 102) }

// Tax rates: 9 country-level rates (US1..US5, CN1..CN4) and 311 division-level ones,
// 320 in all. Every customer has one of each.
var CountryTaxIDs = [...]string{"US1", "US2", "US3", "US4", "US5", "CN1", "CN2", "CN3", "CN4"}

const DivisionTaxRates = 311

// DivisionTaxID returns the id of division rate i (0-based).
func DivisionTaxID(i int) string { return fmt.Sprintf("D%03d", i) }

// CustomerTaxRates returns the customer's country and division rate ids.
func CustomerTaxRates(cID int64) (country, division string) {
	h := Mix2(uint64(cID), 8)
	return CountryTaxIDs[h%uint64(len(CountryTaxIDs))], DivisionTaxID(int((h >> 16) % DivisionTaxRates))
}
