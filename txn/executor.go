package txn

import (
	"context"
	"time"
)

// MarketRequest is what the market-exchange emulator receives from a committed
// Trade-Order (docs/workload.md §6.2) and what Market-Feed hands back for triggered limit
// orders.
type MarketRequest struct {
	TradeID   int64
	TradeType string // TMB, TMS, TSL, TLS, TLB
	Symbol    string
	SecIndex  int64 // the security's index in the key space (for the price wave)
	Qty       int
	Price     int64 // requested (limit) price in cents; for market orders the price seen
	IsLimit   bool
}

// TickerEntry is one Market-Feed input: a trade at a price.
type TickerEntry struct {
	Symbol string
	Price  int64 // cents
	Qty    int
}

// Outcome reports what happened and what must happen next.
type Outcome struct {
	Kind       Kind
	Attempts   int  // 1 + retries
	RolledBack bool // the intended rollback (Trade-Order's 1 %), not a failure
	Statements int  // SQL statements sent, retries included
	// ServiceStart is when the first statement of the successful (or last) attempt was
	// sent, so the driver can separate service time from queueing.
	ServiceStart time.Time
	// ToMarket: Trade-Order's submitted order (market orders to fill, limit orders to
	// arm); Market-Feed's released limit orders to complete.
	ToMarket []MarketRequest
}

// Executor runs one transaction on one worker with inputs drawn from the worker's own
// generator. An Executor is not safe for concurrent use: one per user or MEE worker.
type Executor interface {
	// Run runs a customer-mix or timer transaction (not Trade-Result or Market-Feed).
	Run(ctx context.Context, k Kind) (Outcome, error)
	// TradeResult completes a trade at the given price (cents) for the emulator.
	TradeResult(ctx context.Context, tradeID int64, price int64) (Outcome, error)
	// MarketFeed applies a batch of ticker entries for the emulator.
	MarketFeed(ctx context.Context, entries []TickerEntry) (Outcome, error)
}
