package loader

import (
	"sort"

	"github.com/brokerbench/brokerbench/schema"
)

// keyspace caches, for one load, the key-space values generators look up per row
// (symbols, names, exchanges, commission rates), so the hot loops neither allocate nor
// hash. Everything in it is derived from the scale; nothing is mutable after newKeyspace.
type keyspace struct {
	sc       schema.Scale
	seed     uint64
	symbols  []string
	secNames []string
	secEx    []uint8 // index into schema.ExchangeIDs
	// bySymbol lists the security indexes in symbol order (byte order, which is every
	// collation's order for symbols of capital letters, digits and '-'): DAILY_MARKET
	// is written in it.
	bySymbol []int64
	// comm[tier-1][tradeTypeIndex][exchange][band] in hundredths of a percent.
	comm [3][5][schema.Exchanges][4]int64
	// taxRate maps a TAXRATE id to its rate in units of 10^-5.
	taxRate map[string]int64
}

func newKeyspace(sc schema.Scale, seed uint64) *keyspace {
	n := sc.Securities()
	ks := &keyspace{sc: sc, seed: seed, symbols: make([]string, n), secNames: make([]string, n), secEx: make([]uint8, n)}
	exIndex := map[string]uint8{}
	for i, e := range schema.ExchangeIDs {
		exIndex[e] = uint8(i)
	}
	for s := int64(0); s < n; s++ {
		ks.symbols[s] = schema.Symbol(s)
		ks.secNames[s] = schema.SecurityName(s)
		ks.secEx[s] = exIndex[schema.SecurityExchange(s)]
	}
	ks.bySymbol = make([]int64, n)
	for s := range ks.bySymbol {
		ks.bySymbol[s] = int64(s)
	}
	sort.Slice(ks.bySymbol, func(a, b int) bool { return ks.symbols[ks.bySymbol[a]] < ks.symbols[ks.bySymbol[b]] })
	for tier := 1; tier <= 3; tier++ {
		for ti, tt := range schema.TradeTypes {
			for ei, ex := range schema.ExchangeIDs {
				for b := range schema.CommissionBands {
					ks.comm[tier-1][ti][ei][b] = schema.CommissionRate(tier, tt.ID, ex, b)
				}
			}
		}
	}
	ks.taxRate = map[string]int64{}
	for _, r := range taxRates() {
		ks.taxRate[r.id] = r.rate
	}
	return ks
}

// band returns the COMMISSION_RATE quantity band of qty.
func band(qty int32) int {
	for i, b := range schema.CommissionBands {
		if int(qty) <= b[1] {
			return i
		}
	}
	return len(schema.CommissionBands) - 1
}

// customerTaxRate is the sum of the customer's country and division rates (10^-5).
func (ks *keyspace) customerTaxRate(cID int64) int64 {
	c, d := schema.CustomerTaxRates(cID)
	return ks.taxRate[c] + ks.taxRate[d]
}

// exchangeSymbols counts the securities listed on each exchange (EXCHANGE.ex_num_symb
// is computed from the whole scale, as DBT-5's patch does).
func (ks *keyspace) exchangeSymbols() [schema.Exchanges]int32 {
	var out [schema.Exchanges]int32
	for _, e := range ks.secEx {
		out[e]++
	}
	return out
}
