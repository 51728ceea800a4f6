package txn

import (
	"flag"
	"fmt"
	"reflect"
	"testing"

	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/schema/rnd"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestDeckDealsExactWeightsPerDeck(t *testing.T) {
	if DeckSize != 890 {
		t.Fatalf("deck size %d, want 890", DeckSize)
	}
	d := NewDeck(rnd.New(7, 1))
	var first []Kind
	for round := 0; round < 5; round++ {
		counts := map[Kind]int{}
		var order []Kind
		for i := 0; i < DeckSize; i++ {
			k := d.Next()
			counts[k]++
			order = append(order, k)
		}
		for _, s := range Catalogue {
			if counts[s.Kind] != s.Weight {
				t.Errorf("round %d: %s dealt %d times, want %d", round, s.Name, counts[s.Kind], s.Weight)
			}
		}
		if round == 0 {
			first = order
		} else if reflect.DeepEqual(first, order) {
			t.Errorf("round %d dealt the same order as round 0: not shuffled", round)
		}
	}
	// Same seed, same deal.
	a, b := NewDeck(rnd.New(3)), NewDeck(rnd.New(3))
	for i := 0; i < 2000; i++ {
		if a.Next() != b.Next() {
			t.Fatal("decks with the same seed differ")
		}
	}
}

// TestCatalogueRows: row k describes kind k, and Run can run exactly the customer
// and timer transactions.
func TestCatalogueRows(t *testing.T) {
	for k, s := range Catalogue {
		if s.Kind != Kind(k) {
			t.Errorf("row %d describes %s", k, s.Kind)
		}
		if (s.run != nil) != (s.Origin != Market) {
			t.Errorf("%s: origin %d, run set %v", s.Name, s.Origin, s.run != nil)
		}
	}
}

func TestMoneyRoundTrip(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Money
	}{{"25.37", 2537}, {"-0.05", -5}, {"12", 1200}, {"0.005", 1}, {"-1.234", -123}, {"9999999.99", 999999999}, {".5", 50}} {
		var m Money
		if err := m.Scan(c.in); err != nil || m != c.want {
			t.Errorf("Scan(%q) = %d, %v; want %d", c.in, m, err, c.want)
		}
	}
	for _, c := range []struct {
		m    Money
		want string
	}{{2537, "25.37"}, {-5, "-0.05"}, {0, "0.00"}, {-12345, "-123.45"}} {
		if v, _ := c.m.Value(); v != c.want {
			t.Errorf("Money(%d).Value() = %v, want %s", c.m, v, c.want)
		}
	}
	if got := commission(0.40, 800, 2500); got != 8000 {
		t.Errorf("commission 0.40%% of 800 x $25 = %s, want 80.00", got)
	}
}

func shares(n int, f func() string) map[string]float64 {
	c := map[string]int{}
	for i := 0; i < n; i++ {
		c[f()]++
	}
	out := map[string]float64{}
	for k, v := range c {
		out[k] = 100 * float64(v) / float64(n)
	}
	return out
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if got < want-tol || got > want+tol {
		t.Errorf("%s: %.2f %%, want %.2f ± %.2f", what, got, want, tol)
	}
}

var testScale = schema.Scale{Customers: 1000, TradeDays: 5}

func TestTradeOrderInputShares(t *testing.T) {
	g := NewGen(testScale, 1, 0)
	const n = 200_000
	types := map[string]int{}
	var margin, buys, lifo, rollback, byCo, notOwner int
	for i := 0; i < n; i++ {
		in := g.TradeOrder()
		types[in.TradeType]++
		if !in.IsSell {
			buys++
			if in.IsMargin {
				margin++
			}
		} else if in.IsMargin {
			t.Fatal("a sell on margin")
		}
		if in.LIFO {
			lifo++
		}
		if in.Rollback {
			rollback++
		}
		if in.ByCompany {
			byCo++
			if in.CoName == "" || in.Issue == "" {
				t.Fatal("by company without name or issue")
			}
		}
		cID, _ := schema.AccountOwner(in.AcctID)
		if in.ExecTaxID != schema.CustomerTaxID(cID) {
			notOwner++
		}
		if in.Qty != 100 && in.Qty != 200 && in.Qty != 400 && in.Qty != 800 {
			t.Fatalf("qty %d", in.Qty)
		}
		if in.RequestedPrice < 2000 || in.RequestedPrice > 3000 {
			t.Fatalf("price %s", in.RequestedPrice)
		}
		basket := testScale.AccountBasket(in.AcctID)
		found := false
		for _, s := range basket {
			found = found || s == in.SecIndex
		}
		if !found || schema.Symbol(in.SecIndex) != in.Symbol {
			t.Fatal("security not from the account's basket")
		}
	}
	pct := func(x int) float64 { return 100 * float64(x) / n }
	near(t, "TMB", pct(types[schema.MarketBuy]), 30, 0.5)
	near(t, "TMS", pct(types[schema.MarketSell]), 30, 0.5)
	near(t, "TLB", pct(types[schema.LimitBuy]), 20, 0.5)
	near(t, "TLS", pct(types[schema.LimitSell]), 10, 0.5)
	near(t, "TSL", pct(types[schema.StopLoss]), 10, 0.5)
	near(t, "margin of buys", 100*float64(margin)/float64(buys), 16, 0.5)
	near(t, "LIFO", pct(lifo), 35, 0.5)
	near(t, "rollback", pct(rollback), 100.0/101, 0.1)
	near(t, "by company", pct(byCo), 40, 0.5)
	near(t, "executor not the owner", pct(notOwner), 10, 0.5)
}

func TestCustomerSkewByTier(t *testing.T) {
	g := NewGen(testScale, 2, 0)
	s := shares(200_000, func() string {
		_, ca := g.customerAccount()
		c, k := schema.AccountOwner(ca)
		if k >= schema.AccountCount(c) {
			t.Fatalf("account index %d of %d", k, schema.AccountCount(c))
		}
		return fmt.Sprint(schema.Tier(c))
	})
	near(t, "tier 1", s["1"], 10, 0.5)
	near(t, "tier 2", s["2"], 60, 0.5)
	near(t, "tier 3", s["3"], 30, 0.5)
}

func TestFrameShares(t *testing.T) {
	g := NewGen(testScale, 3, 0)
	const n = 100_000
	tl := shares(n, func() string { return fmt.Sprint(g.TradeLookup().Frame) })
	near(t, "TL frame 1", tl["1"], 30, 0.6)
	near(t, "TL frame 2", tl["2"], 30, 0.6)
	near(t, "TL frame 3", tl["3"], 30, 0.6)
	near(t, "TL frame 4", tl["4"], 10, 0.6)
	tu := shares(n, func() string { return fmt.Sprint(g.TradeUpdate().Frame) })
	near(t, "TU frame 1", tu["1"], 33, 0.6)
	near(t, "TU frame 2", tu["2"], 33, 0.6)
	near(t, "TU frame 3", tu["3"], 34, 0.6)
	mw := shares(n, func() string { return fmt.Sprint(g.MarketWatch().By) })
	near(t, "MW watch list", mw[fmt.Sprint(WatchByWatchList)], 60, 0.6)
	near(t, "MW account", mw[fmt.Sprint(WatchByAccount)], 35, 0.6)
	near(t, "MW industry", mw[fmt.Sprint(WatchByIndustry)], 5, 0.3)
	days := shares(n, func() string { return g.MarketWatch().StartDay.Weekday().String() })
	near(t, "MW Friday", days["Friday"], 60, 0.6)
	near(t, "MW Monday", days["Monday"], 20, 0.6)
	cp := shares(n, func() string {
		in := g.CustomerPosition()
		return fmt.Sprint(in.TaxID != "", in.GetHistory)
	})
	near(t, "CP tax id + history", cp["true true"], 25, 0.6)
	near(t, "CP id, no history", cp["false false"], 25, 0.6)
	sd := shares(n, func() string {
		in := g.SecurityDetail()
		if in.MaxRows < 5 || in.MaxRows > 20 {
			t.Fatalf("max rows %d", in.MaxRows)
		}
		return fmt.Sprint(in.AccessLOB)
	})
	near(t, "SD LOB", sd["true"], 1, 0.15)
}

func TestTradeLookupInputsInsideTheHistory(t *testing.T) {
	g := NewGen(testScale, 4, 0)
	for i := 0; i < 20_000; i++ {
		in := g.TradeLookup()
		switch in.Frame {
		case 1:
			if len(in.TradeIDs) != 20 {
				t.Fatalf("%d ids", len(in.TradeIDs))
			}
			seen := map[int64]bool{}
			for _, id := range in.TradeIDs {
				o := id - schema.TradeShift
				if o < 1 || o > testScale.TradeOrdinals() || schema.TradeOrdinalSkipped(o) || seen[id] {
					t.Fatalf("bad trade id %d", id)
				}
				seen[id] = true
			}
		default:
			if in.Start.Before(schema.TradeBase) || !in.Start.Before(testScale.HistoryEnd()) {
				t.Fatalf("frame %d start %v outside the history", in.Frame, in.Start)
			}
		}
	}
}

func TestBrokerVolumeInputs(t *testing.T) {
	g := NewGen(schema.Scale{Customers: 5000, TradeDays: 5}, 5, 0)
	for i := 0; i < 1000; i++ {
		in := g.BrokerVolume()
		if n := len(in.BrokerNames); n < 20 || n > 40 {
			t.Fatalf("%d brokers at 5 load units", n)
		}
	}
	g = NewGen(testScale, 5, 0)
	in := g.BrokerVolume()
	if len(in.BrokerNames) != 10 {
		t.Fatalf("%d brokers at 1 load unit, want all 10", len(in.BrokerNames))
	}
}

func TestDataMaintenanceRotates(t *testing.T) {
	g := NewGen(testScale, 6, 0)
	for round := 0; round < 2; round++ {
		for i, want := range DMTables {
			if got := g.DataMaintenance(); got.Table != want || got.VolIncr == 0 || got.VolIncr < -3 || got.VolIncr > 3 {
				t.Fatalf("call %d: table %s vol %d, want %s", i, got.Table, got.VolIncr, want)
			}
		}
	}
}

func TestInputsAreDeterministic(t *testing.T) {
	a, b := NewGen(testScale, 9, 3), NewGen(testScale, 9, 3)
	c := NewGen(testScale, 9, 4)
	same, differ := true, false
	for i := 0; i < 100; i++ {
		x, y, z := a.TradeOrder(), b.TradeOrder(), c.TradeOrder()
		same = same && reflect.DeepEqual(x, y)
		differ = differ || !reflect.DeepEqual(x, z)
	}
	if !same || !differ {
		t.Fatalf("same seed and worker must repeat (%v); another worker must differ (%v)", same, differ)
	}
}

func TestNextCountryRateCycles(t *testing.T) {
	for in, want := range map[string]string{"US1": "US2", "US5": "US1", "CN1": "CN2", "CN4": "CN1"} {
		if got := nextCountryRate(in); got != want {
			t.Errorf("nextCountryRate(%s) = %s, want %s", in, got, want)
		}
	}
	if toggleExecName(toggleExecName("Ann Lee")) != "Ann Lee" || toggleExecName("Ann Lee") != "Ann X Lee" {
		t.Error("executor name toggle")
	}
	if toggleShares("Market-Buy 100 shares of X") != "Market-Buy 100 Shares of X" {
		t.Error("shares toggle")
	}
}
