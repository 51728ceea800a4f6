// Package txn is the TPC-E-like transaction catalogue: the mix as one table literal,
// input generation, one file per transaction with its frames, the per-dialect SQL and
// the invariants `check` verifies. It starts no goroutines and reads no clock except
// through what the load driver passes in.
package txn

// Kind names one transaction of the workload.
type Kind uint8

const (
	BrokerVolume Kind = iota
	CustomerPosition
	MarketFeed
	MarketWatch
	SecurityDetail
	TradeLookup
	TradeOrder
	TradeResult
	TradeStatus
	TradeUpdate
	DataMaintenance
	TradeCleanup
	NumKinds
)

// Origin says which actor runs a transaction (tpce.md §5.1).
type Origin uint8

const (
	Customer Origin = iota + 1 // the customer emulator's mix (the ramping users)
	Market                     // the market-exchange emulator
	Timer                      // Data-Maintenance every 60 s, Trade-Cleanup once before the run
)

// Spec is one row of the catalogue.
type Spec struct {
	Kind     Kind
	Name     string // stable: result files and histograms are keyed by it
	Origin   Origin
	Weight   int // cards in the customer deck; 0 when not in the customer mix
	ReadOnly bool
}

// Catalogue is the workload (tpce.md §5.3). The weights are the reference's 890-card
// deck; they are not knobs.
var Catalogue = [NumKinds]Spec{
	{BrokerVolume, "Broker-Volume", Customer, 49, true},
	{CustomerPosition, "Customer-Position", Customer, 130, true},
	{MarketFeed, "Market-Feed", Market, 0, false},
	{MarketWatch, "Market-Watch", Customer, 180, true},
	{SecurityDetail, "Security-Detail", Customer, 140, true},
	{TradeLookup, "Trade-Lookup", Customer, 80, true},
	{TradeOrder, "Trade-Order", Customer, 101, false},
	{TradeResult, "Trade-Result", Market, 0, false},
	{TradeStatus, "Trade-Status", Customer, 190, true},
	{TradeUpdate, "Trade-Update", Customer, 20, false},
	{DataMaintenance, "Data-Maintenance", Timer, 0, false},
	{TradeCleanup, "Trade-Cleanup", Timer, 0, false},
}

func (k Kind) String() string {
	if k < NumKinds {
		return Catalogue[k].Name
	}
	return "unknown"
}
