package driver

import (
	"math"
	"time"

	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/txn"
)

// MarketConfig is the market-exchange emulator's shape. The delays and batch sizes
// are the reference's (docs/workload.md §6.2), not knobs; tests shorten the delays.
type MarketConfig struct {
	// Workers run Trade-Result and Market-Feed, each on its own executor and
	// connection: one serialized connection was DBT-5's bottleneck (docs/workload.md §6.2).
	Workers int
	// DelayMean and DelayMax shape the processing delay before a market order's
	// Trade-Result (negative-exponential, mean 1 s, capped at 5 s).
	DelayMean, DelayMax time.Duration
	// TickerBatch entries make one Market-Feed.
	TickerBatch int
	// TriggeredQty is the quantity of a triggered limit order's ticker entry.
	TriggeredQty int
}

// DefaultMarket returns the reference's emulator with workers workers.
func DefaultMarket(workers int) MarketConfig {
	return MarketConfig{Workers: workers, DelayMean: time.Second, DelayMax: 5 * time.Second, TickerBatch: 20, TriggeredQty: 375}
}

// ProcessingDelay maps a uniform draw u in [0, 1) to the emulator's delay before a
// market order's Trade-Result: exponential with the given mean, capped.
func ProcessingDelay(mean, maxDelay time.Duration, u float64) time.Duration {
	d := -math.Log(1-u) * float64(mean)
	if d > float64(maxDelay) || math.IsInf(d, 1) {
		return maxDelay
	}
	return time.Duration(d)
}

// InTheMoney reports whether a limit order can fill at the current price (cents):
// a limit buy when the price is at or below its limit, a limit sell at or above, a
// stop-loss at or below its stop.
func InTheMoney(r txn.MarketRequest, current int64) bool {
	switch r.TradeType {
	case schema.LimitBuy, schema.StopLoss:
		return current <= r.Price
	case schema.LimitSell:
		return current >= r.Price
	}
	return true // market orders always fill
}

// FillPrice is the price a trade completes at (docs/workload.md §6.2): a limit buy below the
// current price or a limit sell above it fills at its limit; everything else at the
// current price.
func FillPrice(r txn.MarketRequest, current int64) int64 {
	switch r.TradeType {
	case schema.LimitBuy:
		if r.Price < current {
			return r.Price
		}
	case schema.LimitSell:
		if r.Price > current {
			return r.Price
		}
	}
	return current
}

// Arm decides what the emulator does with a Trade-Order's request at wave time t
// (seconds of the run's price-wave clock): a market order completes after the
// processing delay; a limit order in the money triggers now; another limit order
// triggers when the price wave crosses its limit (after seconds later), or never
// when its limit lies outside the wave's range.
func Arm(r txn.MarketRequest, t float64) (trigger bool, after float64, ok bool) {
	if !r.IsLimit {
		return false, 0, true
	}
	if InTheMoney(r, schema.PriceAt(r.SecIndex, t)) {
		return true, 0, true
	}
	at, ok := schema.NextCrossing(r.SecIndex, t, r.Price)
	if !ok {
		return false, 0, false
	}
	return true, at - t, true
}
