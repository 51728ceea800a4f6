package schema

import (
	"fmt"
	"time"
)

// Workload constants of the reference (docs/workload.md §1, §3). Not knobs: changing one changes
// the workload, and the key space below depends on them.
const (
	LoadUnit          = 1000                // customers per load unit
	ScaleFactor       = 500                 // customers per 1 tpsE
	IdentShift        = 4_300_000_000       // added to ordinal-derived ids (C_ID, CO_ID, AD_ID, ...)
	TradeShift        = 200_000_000_000_000 // added to every trade id
	AccountsPerLU     = 5000
	BrokersPerLU      = 10
	CompaniesPerLU    = 500
	SecuritiesPerLU   = 685
	NewsPerCompany    = 2
	FinancialsPerCo   = 20 // 5 years x 4 quarters
	CompetitorsPerCo  = 3
	DailyMarketDays   = 1305 // 5 years of weekdays from 2000-01-03
	Exchanges         = 4
	TradesPerDayPerLU = 8 * 3600 * LoadUnit / ScaleFactor // 57,600 completed trades per 8-hour day
	// TradeIDsPerDayPerLU includes the 1 id in 101 skipped to mimic Trade-Order rollbacks.
	TradeIDsPerDayPerLU = TradesPerDayPerLU * 101 / 100 // 58,176
	// MinTradeDays: Trade-Lookup and Trade-Update draw window starts up to 32 business
	// hours (4 days) before the history's end, so a shorter history leaves no window
	// (docs/workload.md §3.2).
	MinTradeDays = 5
	// MaxTradeDays is the reference's initial trade days: TPC-E loads 300 days.
	MaxTradeDays       = 300
	DefaultTradeDays   = 10
	BusinessDaySeconds = 8 * 3600
)

// Time base of the generated history (docs/workload.md §4.3): trades on 8-hour weekdays from
// Monday 2005-01-03 09:00; daily market from Monday 2000-01-03.
var (
	TradeBase       = time.Date(2005, 1, 3, 9, 0, 0, 0, time.UTC)
	DailyMarketBase = time.Date(2000, 1, 3, 0, 0, 0, 0, time.UTC)
)

// Scale fixes every cardinality; the loader and the transactions derive keys only
// through it.
type Scale struct {
	Customers int64 // multiple of LoadUnit
	TradeDays int   // initial trade days (ITD)
}

// Validate reports a scale the workload cannot use.
func (s Scale) Validate() error {
	if s.Customers <= 0 || s.Customers%LoadUnit != 0 {
		return fmt.Errorf("customers must be a positive multiple of %d, got %d", LoadUnit, s.Customers)
	}
	if s.TradeDays < MinTradeDays || s.TradeDays > MaxTradeDays {
		return fmt.Errorf("trade days must be %d to %d (fewer leave some transactions without time windows; TPC-E loads %d), got %d",
			MinTradeDays, MaxTradeDays, MaxTradeDays, s.TradeDays)
	}
	return nil
}

func (s Scale) LoadUnits() int64  { return s.Customers / LoadUnit }
func (s Scale) Accounts() int64   { return s.LoadUnits() * AccountsPerLU }
func (s Scale) Brokers() int64    { return s.LoadUnits() * BrokersPerLU }
func (s Scale) Companies() int64  { return s.LoadUnits() * CompaniesPerLU }
func (s Scale) Securities() int64 { return s.LoadUnits() * SecuritiesPerLU }

// TradesPerLU is the number of completed initial trades of one load unit.
func (s Scale) TradesPerLU() int64 { return int64(s.TradeDays) * TradesPerDayPerLU }

// TradeIDsPerLU is the trade-id block of one load unit (trades plus skipped ids).
func (s Scale) TradeIDsPerLU() int64 { return int64(s.TradeDays) * TradeIDsPerDayPerLU }

// Trades is the number of completed initial trades.
func (s Scale) Trades() int64 { return s.LoadUnits() * s.TradesPerLU() }

// TradeOrdinals is the number of trade ids the load consumes, skipped ones included.
func (s Scale) TradeOrdinals() int64 { return s.LoadUnits() * s.TradeIDsPerLU() }

// MaxLoadedTradeID is the highest trade id the load can use.
func (s Scale) MaxLoadedTradeID() int64 { return TradeShift + s.TradeOrdinals() }

// FirstRunTradeID is the first id run-time Trade-Orders take (docs/workload.md §4.1).
func (s Scale) FirstRunTradeID() int64 { return s.MaxLoadedTradeID() + 1 }

// TradeID maps a 1-based trade ordinal to its id.
func TradeID(ordinal int64) int64 { return TradeShift + ordinal }

// TradeOrdinalSkipped reports whether the ordinal's id is left unused: one id in 101
// mimics a rolled-back Trade-Order (docs/workload.md §4.1).
func TradeOrdinalSkipped(ordinal int64) bool { return ordinal%101 == 0 }

// TradeSeconds is the business time (seconds since TradeBase, counting only the
// 8-hour days) at which the ordinal's trade was initiated: the LU's id block is
// spread evenly over its trade days, about one trade every 0.495 s.
func (s Scale) TradeSeconds(ordinal int64) float64 {
	pos := (ordinal-1)%s.TradeIDsPerLU() + 1
	span := float64(s.TradeDays) * BusinessDaySeconds
	return float64(pos) * span / float64(s.TradeIDsPerLU()+1)
}

// BusinessTime converts business seconds since TradeBase to a wall timestamp,
// skipping nights and weekends.
func BusinessTime(sec float64) time.Time {
	day := int(sec / BusinessDaySeconds)
	within := sec - float64(day)*BusinessDaySeconds
	// TradeBase is a Monday; every 5 business days is one calendar week.
	cal := (day/5)*7 + day%5
	return TradeBase.AddDate(0, 0, cal).Add(time.Duration(within * float64(time.Second)))
}

// HistoryEnd is the end of the initial trade window.
func (s Scale) HistoryEnd() time.Time {
	return BusinessTime(float64(s.TradeDays) * BusinessDaySeconds)
}

// Ids derived from ordinals (docs/workload.md §4.1). Ordinals are 1-based.

func CustomerID(ordinal int64) int64                 { return IdentShift + ordinal }
func CustomerOrdinal(cID int64) int64                { return cID - IdentShift }
func CompanyID(index int64) int64                    { return IdentShift + 1 + index } // index 0-based
func BrokerID(index int64) int64                     { return IdentShift + 1 + index } // index 0-based
func BrokerIndex(bID int64) int64                    { return bID - IdentShift - 1 }
func WatchListID(cID int64) int64                    { return cID } // one list per customer
func NewsID(coIndex int64, k int) int64              { return IdentShift + 1 + coIndex*NewsPerCompany + int64(k) }
func ExchangeAddressID(e int) int64                  { return IdentShift + 1 + int64(e) }
func (s Scale) CompanyAddressID(coIndex int64) int64 { return IdentShift + 1 + Exchanges + coIndex }
func (s Scale) CustomerAddressID(cID int64) int64    { return Exchanges + s.Companies() + cID }

// AccountID is the k-th (0-based) account of a customer: a block of 10 ids per customer.
func AccountID(cID int64, k int) int64 { return (cID-1)*10 + int64(k) + 1 }

// AccountOwner returns the customer owning an account id and the account's index.
func AccountOwner(caID int64) (cID int64, k int) {
	return (caID-1)/10 + 1, int((caID - 1) % 10)
}
