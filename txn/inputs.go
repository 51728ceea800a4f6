package txn

import (
	"time"

	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/schema/rnd"
)

// Input generation (tpce.md §6 "CE inputs", after EGen's CETxnInputGenerator). Every
// input is drawn before the transaction starts, so a retry runs the same inputs and
// a seed fixes the whole stream of a worker. The percentages below are the
// reference's; they are not knobs.

// streamInputs separates the transactions' random streams from the loader's.
const streamInputs = 0x7478_6e69 // "txni"

// Gen draws one worker's transaction inputs.
type Gen struct {
	sc schema.Scale
	r  *rnd.Rand
	// dmNext is Data-Maintenance's round-robin position over its 12 tables.
	dmNext int
}

// NewGen returns the input generator of one worker: a pure function of (seed, worker).
func NewGen(sc schema.Scale, seed uint64, worker int) *Gen {
	return &Gen{sc: sc, r: rnd.New(seed, streamInputs, uint64(worker))}
}

// Rand exposes the worker's generator (the driver deals its deck from it).
func (g *Gen) Rand() *rnd.Rand { return g.r }

// customerAccount is the common draw: a tier-skewed customer, an account uniform among
// its accounts (tpce.md §5.2).
func (g *Gen) customerAccount() (cID, caID int64) {
	cID = g.r.Customer(g.sc)
	return cID, g.r.Account(cID)
}

// BrokerVolumeInput: tpce.md §6.1.
type BrokerVolumeInput struct {
	BrokerNames []string
	SectorName  string
}

// MaxBrokerList is the most broker names Broker-Volume passes; the statement binds
// exactly this many (unused slots repeat a name) so the SQL stays one fixed text.
const MaxBrokerList = 40

func (g *Gen) BrokerVolume() BrokerVolumeInput {
	n := int(g.r.Between(20, MaxBrokerList))
	if b := int(g.sc.Brokers()); n > b {
		n = b // below 4 load units there are fewer than 20 brokers
	}
	// Partial shuffle of broker indexes: n distinct brokers, uniform.
	total := g.sc.Brokers()
	picked := make(map[int64]bool, n)
	in := BrokerVolumeInput{SectorName: schema.Sectors[g.r.IntN(len(schema.Sectors))]}
	for len(in.BrokerNames) < n {
		b := g.r.Int64N(total)
		if picked[b] {
			continue
		}
		picked[b] = true
		in.BrokerNames = append(in.BrokerNames, schema.BrokerName(schema.BrokerID(b)))
	}
	return in
}

// CustomerPositionInput: tpce.md §6.2.
type CustomerPositionInput struct {
	CustID     int64  // 0 when identified by tax id
	TaxID      string // "" when identified by id
	GetHistory bool
	AcctIdx    int // index among the customer's accounts, when GetHistory
}

func (g *Gen) CustomerPosition() CustomerPositionInput {
	c := g.r.Customer(g.sc)
	var in CustomerPositionInput
	if g.r.Chance(50) {
		in.TaxID = schema.CustomerTaxID(c)
	} else {
		in.CustID = c
	}
	if g.r.Chance(50) {
		in.GetHistory = true
		in.AcctIdx = g.r.IntN(schema.AccountCount(c))
	}
	return in
}

// Market-Watch's three ways to build its symbol list.
const (
	WatchByWatchList = iota + 1
	WatchByAccount
	WatchByIndustry
)

// MarketWatchInput: tpce.md §6.4.
type MarketWatchInput struct {
	By           int
	CustID       int64 // WatchByWatchList
	AcctID       int64 // WatchByAccount
	IndustryName string
	StartCoID    int64 // WatchByIndustry: company id window
	EndCoID      int64
	StartDay     time.Time
}

// marketWatchWindow is the widest company-id window of the industry variant.
const marketWatchWindow = 5000

func (g *Gen) MarketWatch() MarketWatchInput {
	var in MarketWatchInput
	switch v := g.r.IntN(100); {
	case v < 60:
		in.By, in.CustID = WatchByWatchList, g.r.Customer(g.sc)
	case v < 95:
		in.By = WatchByAccount
		_, in.AcctID = g.customerAccount()
	default:
		in.By = WatchByIndustry
		inds := schema.Industries()
		in.IndustryName = inds[g.r.IntN(len(inds))].Name
		w := min(int64(marketWatchWindow), g.sc.Companies())
		start := g.r.Between(0, g.sc.Companies()-w)
		in.StartCoID, in.EndCoID = schema.CompanyID(start), schema.CompanyID(start+w-1)
	}
	in.StartDay = g.marketWatchDay()
	return in
}

// marketWatchDay: a skewed week 5..260 after the daily-market base, then Friday 60 %,
// Monday 20 %, Tuesday 7 %, Wednesday 6 %, Thursday 7 %.
func (g *Gen) marketWatchDay() time.Time {
	week := g.r.Skewed(5, 260, 255, 0)
	var dow int
	switch v := g.r.IntN(100); {
	case v < 60:
		dow = 4
	case v < 80:
		dow = 0
	case v < 87:
		dow = 1
	case v < 93:
		dow = 2
	default:
		dow = 3
	}
	return schema.DailyMarketBase.AddDate(0, 0, int(week)*7+dow)
}

// SecurityDetailInput: tpce.md §6.5.
type SecurityDetailInput struct {
	Symbol    string
	AccessLOB bool
	MaxRows   int
	StartDay  time.Time
}

func (g *Gen) SecurityDetail() SecurityDetailInput {
	in := SecurityDetailInput{
		Symbol:    schema.Symbol(g.r.Int64N(g.sc.Securities())),
		AccessLOB: g.r.Chance(1),
		MaxRows:   int(g.r.Between(5, 20)),
	}
	in.StartDay = schema.DailyMarketBase.AddDate(0, 0, int(g.r.Between(0, int64(schema.DailyMarketDays-in.MaxRows))))
	return in
}

// TradeLookupInput serves Trade-Lookup (tpce.md §6.6) and Trade-Update (§6.10),
// whose inputs have the same shape.
type TradeLookupInput struct {
	Frame      int
	TradeIDs   []int64 // frame 1
	AcctID     int64   // frames 2 and 4
	Symbol     string  // frame 3
	Start, End time.Time
	MaxTrades  int
}

// maxTrades is the reference's max_trades for both transactions; Trade-Update's
// max_updates equals it.
const maxTrades = 20

func (g *Gen) TradeLookup() TradeLookupInput {
	in := TradeLookupInput{MaxTrades: maxTrades}
	switch v := g.r.IntN(100); {
	case v < 30:
		in.Frame, in.TradeIDs = 1, g.tradeIDs(maxTrades)
	case v < 60:
		in.Frame = 2
		_, in.AcctID = g.customerAccount()
		in.Start, in.End = g.window(32 * 3600)
	case v < 90:
		in.Frame = 3
		in.Symbol = schema.Symbol(g.r.Int64N(g.sc.Securities()))
		in.Start, in.End = g.window(200 * 60)
	default:
		in.Frame = 4
		_, in.AcctID = g.customerAccount()
		in.Start, _ = g.window(500 * 60)
	}
	return in
}

func (g *Gen) TradeUpdate() TradeLookupInput {
	in := TradeLookupInput{MaxTrades: maxTrades}
	switch v := g.r.IntN(100); {
	case v < 33:
		in.Frame, in.TradeIDs = 1, g.tradeIDs(maxTrades)
	case v < 66:
		in.Frame = 2
		_, in.AcctID = g.customerAccount()
		in.Start, in.End = g.window(32 * 3600)
	default:
		in.Frame = 3
		in.Symbol = schema.Symbol(g.r.Int64N(g.sc.Securities()))
		in.Start, in.End = g.window(200 * 60)
	}
	return in
}

// tradeIDs draws n distinct loaded trade ids with the reference's skew (A=65535,
// s=7) over the ordinals, never a skipped one, so every id exists after the load.
func (g *Gen) tradeIDs(n int) []int64 {
	out := make([]int64, 0, n)
	seen := make(map[int64]bool, n)
	max := g.sc.TradeOrdinals()
	for len(out) < n {
		o := g.r.Skewed(1, max, 65535, 7)
		if schema.TradeOrdinalSkipped(o) || seen[o] {
			continue
		}
		seen[o] = true
		out = append(out, schema.TradeID(o))
	}
	return out
}

// window draws a start time inside the initial trades, backOff business seconds
// before their end, with the reference's skew (A=4095, s=16 on milliseconds); the
// window ends 15 minutes after the initial trades.
func (g *Gen) window(backOff int64) (start, end time.Time) {
	span := (int64(g.sc.TradeDays)*schema.BusinessDaySeconds - backOff) * 1000
	ms := g.r.Skewed(0, max(span, 0), 4095, 16)
	return schema.BusinessTime(float64(ms) / 1000), g.sc.HistoryEnd().Add(15 * time.Minute)
}

// TradeOrderInput: tpce.md §6.7.
type TradeOrderInput struct {
	AcctID                          int64
	ExecFirst, ExecLast, ExecTaxID  string
	ByCompany                       bool // security given as company name + issue
	Symbol                          string
	CoName, Issue                   string
	SecIndex                        int64
	TradeType                       string
	IsLimit, IsSell, IsMargin, LIFO bool
	Qty                             int
	RequestedPrice                  Money
	Rollback                        bool
}

var tradeQtys = [...]int{100, 200, 400, 800}

func (g *Gen) TradeOrder() TradeOrderInput {
	_, ca := g.customerAccount()
	in := TradeOrderInput{AcctID: ca}
	// Executor: the owner unless the account has extra holders; then the owner 75 %
	// of the time, so the owner places 90 % of all orders.
	holders := schema.AccountHolders(ca)
	ex := holders[0]
	if len(holders) > 1 && !g.r.Chance(75) {
		ex = holders[1+g.r.IntN(len(holders)-1)]
	}
	in.ExecFirst, in.ExecLast, in.ExecTaxID = ex.First, ex.Last, ex.TaxID
	basket := g.sc.AccountBasket(ca)
	in.SecIndex = basket[g.r.IntN(len(basket))]
	in.Symbol = schema.Symbol(in.SecIndex)
	if g.r.Chance(40) {
		in.ByCompany = true
		in.CoName = schema.CompanyName(schema.SecurityCompany(in.SecIndex))
		in.Issue = schema.SecurityIssue(in.SecIndex)
	}
	in.Qty = tradeQtys[g.r.IntN(len(tradeQtys))]
	in.RequestedPrice = Money(g.r.Between(2000, 3000))
	in.IsLimit = g.r.Chance(40)
	in.IsSell = g.r.Chance(50)
	switch {
	case !in.IsLimit && in.IsSell:
		in.TradeType = schema.MarketSell
	case !in.IsLimit:
		in.TradeType = schema.MarketBuy
	case !in.IsSell:
		in.TradeType = schema.LimitBuy
	case g.r.Chance(50):
		in.TradeType = schema.StopLoss
	default:
		in.TradeType = schema.LimitSell
	}
	if !in.IsSell {
		in.IsMargin = g.r.Chance(16) // sells are always cash
	}
	in.LIFO = g.r.Chance(35)
	in.Rollback = g.r.IntN(101) == 0
	return in
}

// TradeStatusInput: tpce.md §6.9.
type TradeStatusInput struct{ AcctID int64 }

func (g *Gen) TradeStatus() TradeStatusInput {
	_, ca := g.customerAccount()
	return TradeStatusInput{AcctID: ca}
}

// DMTables is Data-Maintenance's round-robin of target tables (tpce.md §5.5).
var DMTables = [...]string{
	"account_permission", "address", "company", "customer", "customer_taxrate", "daily_market",
	"exchange", "financial", "news_item", "security", "taxrate", "watch_item",
}

// DataMaintenanceInput: tpce.md §6.11.
type DataMaintenanceInput struct {
	Table      string
	AcctID     int64
	CustID     int64
	CoID       int64
	AddrOfCust bool // address: a customer's (67 %) or a company's
	Symbol     string
	DayOfMonth int
	VolIncr    int
	TaxID      string
}

func (g *Gen) DataMaintenance() DataMaintenanceInput {
	in := DataMaintenanceInput{Table: DMTables[g.dmNext]}
	g.dmNext = (g.dmNext + 1) % len(DMTables)
	in.AcctID = g.r.Account(g.r.Customer(g.sc))
	in.CustID = g.r.Customer(g.sc)
	in.CoID = schema.CompanyID(g.r.Int64N(g.sc.Companies()))
	in.AddrOfCust = g.r.Chance(67)
	in.Symbol = schema.Symbol(g.r.Int64N(g.sc.Securities()))
	in.DayOfMonth = int(g.r.Between(1, 31))
	for in.VolIncr == 0 {
		in.VolIncr = int(g.r.Between(-3, 3))
	}
	in.TaxID = schema.DivisionTaxID(g.r.IntN(schema.DivisionTaxRates))
	return in
}
