// Package txn is the TPC-E-like transaction catalogue: the mix as one table literal,
// one file per transaction with its inputs, its frames and its statements (portable
// SQL, with a database's own text only where it differs), and the invariants `check`
// verifies. It starts no goroutines. ARCHITECTURE.md ("Adding a transaction") lists
// what a new transaction touches besides its file and its row below.
package txn

import (
	"context"
	"time"
)

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

// Origin says which actor runs a transaction (docs/workload.md §6.1).
type Origin uint8

const (
	Customer Origin = iota + 1 // the customer emulator's mix (the ramping users)
	Market                     // the market-exchange emulator
	Timer                      // Data-Maintenance every 60 s, Trade-Cleanup once before the run
)

// Spec is one row of the catalogue: every fact about a transaction type that another
// package needs is here, and only here (the driver hands results its share,
// driver/workload.go).
type Spec struct {
	Kind     Kind
	Name     string // display name; stable: result files and histograms are keyed by it
	Origin   Origin // the actor that runs it
	Weight   int    // cards in the customer deck; 0 when not in the customer mix
	ReadOnly bool   // commits nothing
	// Limit is the default 90th-percentile response-time limit (run --limit overrides
	// it), 0 for none: the values commonly cited for TPC-E (Trade-Result's 2 s is the
	// confirmed one; the others are the usual citations). Data-Maintenance and
	// Trade-Cleanup have none. They are this tool's defaults, not a claim of TPC-E
	// compliance.
	Limit time.Duration
	// run runs the transaction on the worker's next inputs (Executor.Run); nil for the
	// market emulator's transactions, whose inputs come from the emulator.
	run func(*executor, context.Context) (Outcome, error)
}

// Catalogue is the workload (docs/workload.md §8). The weights are the reference's 890-card
// deck; they are not knobs.
var Catalogue = [NumKinds]Spec{
	{BrokerVolume, "Broker-Volume", Customer, 49, true, 3 * time.Second, (*executor).runBrokerVolume},
	{CustomerPosition, "Customer-Position", Customer, 130, true, 3 * time.Second, (*executor).runCustomerPosition},
	{MarketFeed, "Market-Feed", Market, 0, false, 2 * time.Second, nil},
	{MarketWatch, "Market-Watch", Customer, 180, true, 3 * time.Second, (*executor).runMarketWatch},
	{SecurityDetail, "Security-Detail", Customer, 140, true, 3 * time.Second, (*executor).runSecurityDetail},
	{TradeLookup, "Trade-Lookup", Customer, 80, true, 3 * time.Second, (*executor).runTradeLookup},
	{TradeOrder, "Trade-Order", Customer, 101, false, 2 * time.Second, (*executor).runTradeOrder},
	{TradeResult, "Trade-Result", Market, 0, false, 2 * time.Second, nil},
	{TradeStatus, "Trade-Status", Customer, 190, true, time.Second, (*executor).runTradeStatus},
	{TradeUpdate, "Trade-Update", Customer, 20, false, 3 * time.Second, (*executor).runTradeUpdate},
	{DataMaintenance, "Data-Maintenance", Timer, 0, false, 0, (*executor).runDataMaintenance},
	{TradeCleanup, "Trade-Cleanup", Timer, 0, false, 0, (*executor).runTradeCleanup},
}

func (k Kind) String() string {
	if k < NumKinds {
		return Catalogue[k].Name
	}
	return "unknown"
}
