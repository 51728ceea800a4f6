package loader

import (
	"context"
	"fmt"

	"github.com/brokerbench/brokerbench/schema"
)

// Fixed tables (docs/workload.md §3.1): the same rows at every scale and seed, from our own
// look-alike lists (never EGen's files). EXCHANGE's symbol counts depend on the scale.

// zipCode returns the i-th zip code: unique, increasing, five digits.
func zipCode(i int64) string {
	return fmt.Sprintf("%05d", 10000+6*i+int64(schema.Mix2(uint64(i), 12)%6))
}

var towns = [...]string{
	"Springfield", "Riverton", "Fairview", "Greenville", "Franklin", "Clinton", "Madison", "Georgetown",
	"Salem", "Arlington", "Ashland", "Dover", "Oxford", "Jackson", "Burlington", "Manchester", "Milton",
	"Newport", "Auburn", "Dayton", "Lexington", "Milford", "Winchester", "Hudson", "Kingston", "Marion",
	"Mount Vernon", "Oakland", "Centerville", "Bristol", "Clayton", "Chester", "Lebanon", "Troy", "Hamilton",
}

var divisions = [...]string{
	"AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY",
	"LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND",
	"OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
	"ON", "QC", "BC", "AB", "MB", "SK", "NS", "NB",
}

type taxRate struct {
	id, name string
	rate     int64 // 10^-5
}

// taxRates returns the 320 TAXRATE rows: 9 country rates of 10-35 %, 311 division
// rates of 0-10 %.
func taxRates() []taxRate {
	out := make([]taxRate, 0, len(schema.CountryTaxIDs)+schema.DivisionTaxRates)
	for i, id := range schema.CountryTaxIDs {
		out = append(out, taxRate{id: id, name: fmt.Sprintf("%s national income tax bracket %d", id[:2], i%5+1),
			rate: 10_000 + int64(schema.Mix2(uint64(i), 13)%25_001)})
	}
	for i := 0; i < schema.DivisionTaxRates; i++ {
		out = append(out, taxRate{id: schema.DivisionTaxID(i), name: fmt.Sprintf("%s division tax rate %d", divisions[i%len(divisions)], i/len(divisions)+1),
			rate: int64(schema.Mix2(uint64(i), 14) % 10_001)})
	}
	return out
}

var exchangeNames = [schema.Exchanges][2]string{
	{"New York Stock Exchange", "Largest stock exchange by listed market value"},
	{"NASDAQ Stock Market", "Electronic exchange, many technology listings"},
	{"American Stock Exchange", "Exchange for small caps, options and ETFs"},
	{"Pacific Exchange", "Regional exchange on the west coast"},
}

var fixedTables = []string{"status_type", "trade_type", "taxrate", "zip_code", "sector", "industry",
	"exchange", "charge", "commission_rate", "address"}

func fixedJob(ks *keyspace) job {
	return job{kind: kindFixed, tables: fixedTables, estimate: schema.ZipCodes,
		run: func(ctx context.Context, e *emitter) error { return runFixed(ctx, ks, e) }}
}

func runFixed(ctx context.Context, ks *keyspace, e *emitter) error {
	g := &groupRows{ctx: ctx, e: e}
	fixedDimensions(g)
	fixedMarket(g, ks)
	return g.err
}

// fixedDimensions writes the status and trade types, tax rates, zip codes, sectors
// and industries.
func fixedDimensions(g *groupRows) {
	e := g.e
	for _, st := range schema.StatusTypes {
		w := e.row(0)
		w.Text(st[0])
		w.Text(st[1])
		g.end(0)
	}
	for _, tt := range schema.TradeTypes {
		w := e.row(1)
		w.Text(tt.ID)
		w.Text(tt.Name)
		w.Bool(tt.IsSell)
		w.Bool(tt.IsMarket)
		g.end(1)
	}
	for _, r := range taxRates() {
		w := e.row(2)
		w.Text(r.id)
		w.Text(r.name)
		w.Decimal(r.rate, 5)
		g.end(2)
	}
	for i := int64(0); i < schema.ZipCodes; i++ {
		h := schema.Mix2(uint64(i), 15)
		w := e.row(3)
		w.Text(zipCode(i))
		w.Text(towns[h%uint64(len(towns))])
		w.Text(divisions[i*int64(len(divisions))/schema.ZipCodes])
		g.end(3)
	}
	for i, name := range schema.Sectors {
		w := e.row(4)
		w.Text(schema.SectorID(i))
		w.Text(name)
		g.end(4)
	}
	for _, in := range schema.Industries() {
		w := e.row(5)
		w.Text(in.ID)
		w.Text(in.Name)
		w.Text(schema.SectorID(in.Sector))
		g.end(5)
	}
}

// fixedMarket writes the exchanges with their addresses, the charges and the
// commission rates.
func fixedMarket(g *groupRows, ks *keyspace) {
	e := g.e
	counts := ks.exchangeSymbols()
	for i, id := range schema.ExchangeIDs {
		w := e.row(6)
		w.Text(id)
		w.Text(exchangeNames[i][0])
		w.Int32(counts[i])
		w.Int32(930)
		w.Int32(1600)
		w.Text(exchangeNames[i][1])
		w.Int64(schema.ExchangeAddressID(i))
		g.end(6)
		w = e.row(9)
		w.Int64(schema.ExchangeAddressID(i))
		w.Text(fmt.Sprintf("%d Wall Street", 11+i*10))
		w.Null()
		w.Text(zipCode(int64(i) * 97))
		w.Text("USA")
		g.end(9)
	}
	for _, tt := range schema.TradeTypes {
		for tier := 1; tier <= 3; tier++ {
			w := e.row(7)
			w.Text(tt.ID)
			w.Int16(int16(tier))
			w.Decimal(schema.Charges[tt.ID][tier-1], 2)
			g.end(7)
		}
	}
	for tier := 1; tier <= 3; tier++ {
		for ti, tt := range schema.TradeTypes {
			for ei, ex := range schema.ExchangeIDs {
				for b, qb := range schema.CommissionBands {
					w := e.row(8)
					w.Int16(int16(tier))
					w.Text(tt.ID)
					w.Text(ex)
					w.Int32(int32(qb[0]))
					w.Int32(int32(qb[1]))
					w.Decimal(ks.comm[tier-1][ti][ei][b], 2)
					g.end(8)
				}
			}
		}
	}
}
