package driver

import (
	"time"

	"github.com/brokerbench/brokerbench/txn"
)

// TradeResultsPerCustomerTxn is how many Trade-Results one customer transaction
// brings in the steady state, the arithmetic behind --pace nominal
// (docs/workload.md, nominal pacing):
//
//   - Trade-Order is 101 of the deck's 890 cards, and rolls back 1 in 101, so
//     100/890 of customer transactions submit an order;
//   - market orders (60 %) complete after the emulator's delay (at most 5 s);
//     limit orders (40 %) ask a price within the price wave's range, so each
//     triggers when the wave reaches it: half at once (already in the money), the
//     rest within one wave period (900 s). In the steady state every submitted
//     order is completed by exactly one Trade-Result.
//
// So the ratio is 100/890 ≈ 0.1124. Before a wave period has passed, the limit
// orders still waiting make tpsE run low: at the very start about 80 % of this
// (the market orders and the limit orders in the money), rising to it by 900 s.
var TradeResultsPerCustomerTxn = func() float64 {
	var all int
	for _, s := range txn.Catalogue {
		if s.Origin == txn.Customer {
			all += s.Weight
		}
	}
	const committed = 100.0 / 101 // Trade-Order's 1-in-101 intended rollback
	return float64(txn.Catalogue[txn.TradeOrder].Weight) / float64(all) * committed
}()

// NominalThink is the mean think time that makes users users offer tpsE
// Trade-Results per second. Under nominal pacing a user's think time runs from its
// previous start (runUser), so each user starts one customer transaction per think
// time whatever the response times, and users/think customer transactions per
// second bring users/think × TradeResultsPerCustomerTxn Trade-Results:
//
//	think = users × TradeResultsPerCustomerTxn / tpsE
//
// For 1,000 customers (2 tpsE) and 10 users that is 0.56 s.
func NominalThink(users int, tpsE float64) time.Duration {
	if users <= 0 || tpsE <= 0 {
		return 0
	}
	return time.Duration(float64(users) * TradeResultsPerCustomerTxn / tpsE * float64(time.Second))
}
