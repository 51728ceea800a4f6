package rnd

import (
	"math"
	"sort"
	"testing"

	"github.com/brokerbench/brokerbench/schema"
)

// skewShape summarises how picks spread over a load unit's customers, each share
// relative to the mean (1 / customers).
type skewShape struct {
	top20   float64 // share of the picks on the hottest 20 % of customers
	for80   float64 // smallest share of customers that takes 80 % of the picks
	hottest float64 // hottest customer against the mean
	coldest float64 // coldest customer against the mean
	starved float64 // share of customers with under a tenth of the mean
}

func shapeOf(counts []float64) skewShape {
	sorted := append([]float64(nil), counts...)
	sort.Sort(sort.Reverse(sort.Float64Slice(sorted)))
	var total float64
	for _, c := range sorted {
		total += c
	}
	mean := total / float64(len(sorted))
	var s skewShape
	var acc float64
	for i, c := range sorted {
		acc += c
		if i+1 == len(sorted)/5 {
			s.top20 = acc / total
		}
		if s.for80 == 0 && acc >= 0.8*total {
			s.for80 = float64(i+1) / float64(len(sorted))
		}
		if c < mean/10 {
			s.starved++
		}
	}
	s.starved /= float64(len(sorted))
	s.hottest = sorted[0] / mean
	s.coldest = sorted[len(sorted)-1] / mean
	return s
}

// TestCustomerSkewShape: the selector has EGen's offset-ramp shape. The exact pick
// probabilities come from sweeping u over a fine grid. The figures EGen's selector gives
// (and the plain sqrt(f) ramp brokerbench used before did not): tier 3, the hottest 20 %,
// takes 30 % of the picks; 80 % of the picks land on about 67 % of the customers (52.5 %
// with the plain ramp); the hottest customer gets 1.7x the mean (3.0x); the coldest
// 0.3x, so no customer is starved (5.8 % got under a tenth of the mean).
func TestCustomerSkewShape(t *testing.T) {
	const grid = 4_000_000
	counts := make([]float64, schema.LoadUnit)
	tiers := map[int]float64{}
	for i := 0; i < grid; i++ {
		c := CustomerInLU(0, (float64(i)+0.5)/grid)
		ord := schema.CustomerOrdinal(c)
		if ord < 1 || ord > schema.LoadUnit {
			t.Fatalf("u=%v picked customer ordinal %d outside load unit 0", float64(i)/grid, ord)
		}
		counts[ord-1]++
		tiers[schema.Tier(c)]++
	}
	for tier, want := range map[int]float64{1: 0.10, 2: 0.60, 3: 0.30} {
		if got := tiers[tier] / grid; math.Abs(got-want) > 0.001 {
			t.Errorf("tier %d gets %.4f of the picks, want %.2f", tier, got, want)
		}
	}
	s := shapeOf(counts)
	t.Logf("top 20 %% take %.3f, 80 %% of picks on %.3f of customers, hottest %.2fx, coldest %.2fx the mean, starved %.3f",
		s.top20, s.for80, s.hottest, s.coldest, s.starved)
	check := func(name string, got, lo, hi float64) {
		if got < lo || got > hi {
			t.Errorf("%s = %.3f, want within [%.3f, %.3f]", name, got, lo, hi)
		}
	}
	check("share of picks on the hottest 20 %", s.top20, 0.295, 0.305)
	check("share of customers taking 80 % of picks", s.for80, 0.655, 0.685)
	check("hottest customer / mean", s.hottest, 1.65, 1.80)
	check("coldest customer / mean", s.coldest, 0.25, 0.35)
	check("customers under a tenth of the mean", s.starved, 0, 0)
}

// TestCustomerPicksSimulated draws through Rand.Customer as the transactions do, over
// three load units: every load unit gets a third of the picks, and after an average of
// 100 picks per customer no customer is left with fewer than 10 (the plain ramp left
// about 6 % of them there).
func TestCustomerPicksSimulated(t *testing.T) {
	sc := schema.Scale{Customers: 3000, TradeDays: 10}
	r := New(7, 1)
	const perCustomer = 100
	n := int(sc.Customers) * perCustomer
	counts := make([]float64, sc.Customers)
	for i := 0; i < n; i++ {
		counts[schema.CustomerOrdinal(r.Customer(sc))-1]++
	}
	for lu := 0; lu < 3; lu++ {
		var sum float64
		for _, c := range counts[lu*schema.LoadUnit : (lu+1)*schema.LoadUnit] {
			sum += c
		}
		if share := sum / float64(n); math.Abs(share-1.0/3) > 0.01 {
			t.Errorf("load unit %d gets %.3f of the picks, want 1/3", lu, share)
		}
	}
	s := shapeOf(counts)
	if s.starved != 0 {
		t.Errorf("%.3f of customers got under a tenth of the mean", s.starved)
	}
	if s.for80 < 0.64 || s.for80 > 0.70 {
		t.Errorf("80 %% of picks land on %.3f of customers, want about 0.67", s.for80)
	}
	if s.hottest > 2.4 { // sampling noise lifts the maximum of 3,000 counts above 1.7x
		t.Errorf("hottest customer got %.2fx the mean, want about 1.7x (the plain ramp gave over 3x)", s.hottest)
	}
}
