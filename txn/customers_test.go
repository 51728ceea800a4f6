package txn

import (
	"testing"

	"github.com/brokerbench/brokerbench/schema"
)

// A generator given a slice of the customers (run --shard) draws every customer and
// account of the customer transactions from it; without one it draws what it always
// drew.
func TestGenStaysInItsCustomers(t *testing.T) {
	sc := schema.Scale{Customers: 5000, TradeDays: 5}
	rg := CustomerRange{From: 2000, To: 3000}
	g := NewGen(sc, 11, 3)
	g.customers = rg
	in := func(what string, cID int64) {
		t.Helper()
		if o := schema.CustomerOrdinal(cID) - 1; o < rg.From || o >= rg.To {
			t.Fatalf("%s drew customer ordinal %d, outside %+v", what, o, rg)
		}
	}
	account := func(what string, caID int64) {
		t.Helper()
		c, _ := schema.AccountOwner(caID)
		in(what, c)
	}
	for range 2000 {
		if cp := g.CustomerPosition(); cp.CustID != 0 {
			in("Customer-Position", cp.CustID)
		}
		switch mw := g.MarketWatch(); mw.By {
		case WatchByWatchList:
			in("Market-Watch", mw.CustID)
		case WatchByAccount:
			account("Market-Watch", mw.AcctID)
		}
		account("Trade-Order", g.TradeOrder().AcctID)
		account("Trade-Status", g.TradeStatus().AcctID)
	}
	a, b := NewGen(sc, 11, 3), NewGen(sc, 11, 3)
	b.customers = CustomerRange{From: 0, To: sc.Customers}
	for range 500 {
		if x, y := a.TradeStatus(), b.TradeStatus(); x != y {
			t.Fatalf("the whole space drew %+v, no slice %+v", y, x)
		}
	}
}
