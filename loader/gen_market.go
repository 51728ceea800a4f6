package loader

import (
	"context"
	"fmt"
	"time"

	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/schema/rnd"
)

// Market tables of one load unit (docs/workload.md §5.3).

var marketTables = []string{"company", "company_competitor", "security", "last_trade", "financial", "news_xref", "address"}

var spRates = [...]string{"AAA", "AA+", "AA", "AA-", "A+", "A", "A-", "BBB+", "BBB", "BBB-", "BB+", "BB", "BB-", "B+", "B", "B-", "CCC+", "CCC", "CC", "C", "D", "NR"}

var streets = [...]string{"Main", "Oak", "Pine", "Maple", "Cedar", "Elm", "Washington", "Lake", "Hill", "Park", "View", "River", "Church", "Market", "Spring", "Sunset", "Highland", "Forest", "Mill", "Ridge"}

var streetKinds = [...]string{"Street", "Avenue", "Road", "Boulevard", "Lane", "Drive", "Court", "Way", "Place", "Terrace"}

var (
	historyDay      = unixDays(schema.TradeBase)
	dailyMarketBase = unixDays(schema.DailyMarketBase)
)

// writeAddress writes an ADDRESS row drawn from r.
func writeAddress(w RowWriter, r *rnd.Rand, adID int64) {
	w.Int64(adID)
	w.Text(fmt.Sprintf("%d %s %s", r.Between(1, 9999), streets[r.IntN(len(streets))], streetKinds[r.IntN(len(streetKinds))]))
	if r.Chance(25) {
		w.Text(fmt.Sprintf("Suite %d", r.Between(100, 2999)))
	} else {
		w.Null()
	}
	z := r.Int64N(schema.ZipCodes)
	w.Text(zipCode(z))
	if z*int64(len(divisions))/schema.ZipCodes >= 50 { // the last divisions are Canadian
		w.Text("CANADA")
	} else {
		w.Text("USA")
	}
}

func marketJob(ks *keyspace, lu int64) job {
	return job{kind: kindMarket, lu: lu, tables: marketTables, estimate: 15_000,
		run: func(ctx context.Context, e *emitter) error { return runMarket(ctx, ks, lu, e) }}
}

func runMarket(ctx context.Context, ks *keyspace, lu int64, e *emitter) error {
	m := &marketRows{groupRows: groupRows{ctx: ctx, e: e, r: rnd.New(ks.seed, kindMarket, uint64(lu))}, ks: ks,
		industries: schema.Industries(), companies: ks.sc.Companies()}
	for j := int64(0); j < schema.CompaniesPerLU; j++ {
		m.company(lu*schema.CompaniesPerLU + j)
	}
	for j := int64(0); j < schema.SecuritiesPerLU; j++ {
		m.security(lu*schema.SecuritiesPerLU + j)
	}
	return m.err
}

// marketRows writes one load unit's market rows (marketTables, by index).
type marketRows struct {
	groupRows
	ks         *keyspace
	industries [102]schema.Industry
	companies  int64
}

// groupRows writes the rows of one job, drawing from its one stream in a fixed order;
// err is the first error, after which the rows go on being drawn but none is sent.
type groupRows struct {
	ctx context.Context
	e   *emitter
	r   *rnd.Rand
	err error
}

// end ends the row of table i.
func (g *groupRows) end(i int) {
	if g.err == nil {
		g.err = g.e.end(g.ctx, i)
	}
}

// company writes company co: COMPANY, its competitors, financials, news references
// and address.
func (m *marketRows) company(co int64) {
	r := m.r
	coID := schema.CompanyID(co)
	in := m.industries[schema.IndustryOfCompany(co)]
	w := m.e.row(0)
	w.Int64(coID)
	w.Text(schema.StatusActive)
	w.Text(schema.CompanyName(co))
	w.Text(in.ID)
	w.Text(spRates[r.IntN(len(spRates))])
	f, mi, l := schema.PersonName(r.Int64N(1_000_000_000) + 2_000_000_000)
	w.Text(f + " " + mi + ". " + l)
	w.Int64(m.ks.sc.CompanyAddressID(co))
	w.Text(fmt.Sprintf("%s is a %s company founded as a %s partnership.", schema.CompanyName(co), in.Name, towns[r.IntN(len(towns))]))
	w.Date(unixDays(time.Date(1800+int(r.IntN(200)), time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC)))
	m.end(0)
	m.competitors(co, coID, in.ID)
	m.financials(coID)
	for k := 0; k < schema.NewsPerCompany; k++ {
		w = m.e.row(5)
		w.Int64(schema.NewsID(co, k))
		w.Int64(coID)
		m.end(5)
	}
	writeAddress(m.e.row(6), r, m.ks.sc.CompanyAddressID(co))
	m.end(6)
}

// competitors writes three distinct competitors of company co, never co itself.
func (m *marketRows) competitors(co, coID int64, industry string) {
	var comp [schema.CompetitorsPerCo]int64
	for k := 0; k < schema.CompetitorsPerCo; k++ {
	draw:
		c := m.r.Int64N(m.companies)
		if c == co {
			goto draw
		}
		for _, x := range comp[:k] {
			if x == c {
				goto draw
			}
		}
		comp[k] = c
		w := m.e.row(1)
		w.Int64(coID)
		w.Int64(schema.CompanyID(c))
		w.Text(industry)
		m.end(1)
	}
}

// financials writes a company's 20 quarters, 2000-2004.
func (m *marketRows) financials(coID int64) {
	r := m.r
	rev := r.Between(10_000_000, 5_000_000_000_00) // cents
	shares := r.Between(4_000_000, 9_500_000_000)
	for q := 0; q < schema.FinancialsPerCo; q++ {
		year, qtr := 2000+q/4, q%4+1
		rev = rev * (95 + r.Int64N(15)) / 100
		earn := rev * (r.Int64N(30) - 5) / 100
		w := m.e.row(4)
		w.Int64(coID)
		w.Int32(int32(year))
		w.Int16(int16(qtr))
		w.Date(unixDays(time.Date(year, time.Month(3*(qtr-1)+1), 1, 0, 0, 0, 0, time.UTC)))
		w.Decimal(rev, 2)
		w.Decimal(earn, 2)
		eps := earn / shares // cents per share
		w.Decimal(eps, 2)
		w.Decimal(eps*(90+r.Int64N(10))/100, 2)
		w.Decimal(earn*100/max(rev, 1), 2) // margin as a ratio
		w.Decimal(rev*r.Int64N(40)/100, 2)
		w.Decimal(rev*(100+r.Int64N(400))/100, 2)
		w.Decimal(rev*(50+r.Int64N(300))/100, 2)
		w.Int64(shares)
		w.Int64(shares * (100 + r.Int64N(10)) / 100)
		m.end(4)
	}
}

// security writes security s's SECURITY and LAST_TRADE rows.
func (m *marketRows) security(s int64) {
	r, ks := m.r, m.ks
	w := m.e.row(2)
	w.Text(ks.symbols[s])
	w.Text(schema.SecurityIssue(s))
	w.Text(schema.StatusActive)
	w.Text(ks.secNames[s])
	w.Text(schema.ExchangeIDs[ks.secEx[s]])
	w.Int64(schema.CompanyID(schema.SecurityCompany(s)))
	w.Int64(r.Between(4_000_000, 9_500_000_000))
	start := unixDays(time.Date(1900+r.IntN(100), time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC))
	w.Date(start)
	w.Date(start + int32(r.IntN(3650)))
	w.Decimal(r.Between(100, 12_000), 2)
	hi := r.Between(2500, 3000)
	w.Decimal(hi, 2)
	w.Date(historyDay - 1 - int32(r.IntN(364)))
	w.Decimal(r.Between(2000, hi), 2)
	w.Date(historyDay - 1 - int32(r.IntN(364)))
	div := int64(0)
	if r.Chance(60) {
		div = r.Between(1, 200)
	}
	w.Decimal(div, 2)
	w.Decimal(div*10000/2500, 2) // yield in percent at a $25 reference price
	m.end(2)

	w = m.e.row(3)
	w.Text(ks.symbols[s])
	w.Timestamp(businessMicros(float64(ks.sc.TradeDays) * schema.BusinessDaySeconds))
	p := schema.PriceAt(s, 0)
	w.Decimal(p, 2)
	w.Decimal(p, 2)
	w.Int64(0)
	m.end(3)
}

// News items: two per company, about 100 KB of text each, dated within 50 days before
// the history starts.
func newsJob(ks *keyspace, lu, part int64) job {
	return job{kind: kindNews, lu: lu, part: part, tables: []string{"news_item"}, estimate: 20_000,
		run: func(ctx context.Context, e *emitter) error {
			r := rnd.New(ks.seed, kindNews, uint64(lu), uint64(part))
			per := int64(schema.CompaniesPerLU / newsParts)
			buf := make([]byte, 0, 110_000)
			for j := part * per; j < (part+1)*per; j++ {
				co := lu*schema.CompaniesPerLU + j
				for k := 0; k < schema.NewsPerCompany; k++ {
					w := e.row(0)
					w.Int64(schema.NewsID(co, k))
					w.Text(truncate(fmt.Sprintf("%s %s %s", schema.CompanyName(co), newsVerbs[r.IntN(len(newsVerbs))], newsObjects[r.IntN(len(newsObjects))]), 80))
					buf = newsText(buf[:0], r, 180+r.IntN(50)) // under VARCHAR(255) with the last word
					w.Text(string(buf))
					buf = newsText(buf[:0], r, 95_000+r.IntN(10_000))
					w.Text(string(buf))
					w.Timestamp(unixMicros(schema.TradeBase) - r.Int64N(50*microsPerDay))
					w.Text(newsSources[r.IntN(len(newsSources))])
					f, _, l := schema.PersonName(r.Int64N(1_000_000_000) + 3_000_000_000)
					w.Text(f + " " + l)
					if err := e.end(ctx, 0); err != nil {
						return err
					}
				}
			}
			return nil
		}}
}

var (
	newsVerbs   = [...]string{"reports", "announces", "expands", "cuts", "beats", "misses", "acquires", "launches", "restructures", "settles"}
	newsObjects = [...]string{"quarterly earnings", "new product line", "dividend", "guidance", "merger talks", "share buyback", "executive changes", "supply agreement", "lawsuit", "outlook"}
	newsSources = [...]string{"Business Wire", "Market Daily", "Financial Courier", "Street Journal", "Trade Gazette", "Wire Service"}
	newsWords   = [...]string{"the", "company", "market", "shares", "quarter", "growth", "revenue", "investors", "analysts", "said",
		"expected", "profit", "demand", "costs", "sales", "strong", "weak", "year", "price", "trading", "results", "board",
		"management", "strategy", "products", "customers", "segment", "outlook", "increase", "decline", "rate", "margin"}
)

// newsText appends about n bytes of word salad ending in a period.
func newsText(buf []byte, r *rnd.Rand, n int) []byte {
	for len(buf) < n {
		h := r.Uint64()
		for i := 0; i < 8 && len(buf) < n; i++ {
			buf = append(buf, newsWords[(h>>(i*8))%uint64(len(newsWords))]...)
			buf = append(buf, ' ')
		}
	}
	buf[len(buf)-1] = '.'
	return buf
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// dailyJob writes DAILY_MARKET for the k-th slice of dailySecurities securities of
// the symbol-sorted list (docs/workload.md §5.3): all 1,305 weekdays of one security,
// in date order, before the next security, so the table is written in the order of its
// (dm_s_symb, dm_date) key. The daily jobs are ordered: generate runs them one after the
// other, in plan order, on one producer, so the heap is in key order across the whole
// table and Security-Detail's 5-20 consecutive days of a symbol share a page or two.
// Values: close uniform $20-$30, high 1.05 x close, low 0.92 x close, volume
// 1,000-10,000, drawn from a generator per security, so they do not depend on the
// slicing. The job's lu and part name the slice (k / dailyParts, k % dailyParts),
// not a load unit.
func dailyJob(ks *keyspace, k int64) job {
	secs := ks.bySymbol[k*dailySecurities : (k+1)*dailySecurities]
	return job{kind: kindDaily, lu: k / dailyParts, part: k % dailyParts, tables: []string{"daily_market"},
		estimate: dailySecurities * schema.DailyMarketDays, ordered: true,
		run: func(ctx context.Context, e *emitter) error {
			for _, sec := range secs {
				r := rnd.New(ks.seed, kindDaily, uint64(sec))
				sym := ks.symbols[sec]
				for d := int32(0); d < schema.DailyMarketDays; d++ {
					c := r.Between(2000, 3000)
					w := e.row(0)
					w.Date(dailyMarketBase + d/5*7 + d%5)
					w.Text(sym)
					w.Decimal(c, 2)
					w.Decimal(roundDiv(c*105, 100), 2)
					w.Decimal(roundDiv(c*92, 100), 2)
					w.Int64(r.Between(1000, 10000))
					if err := e.end(ctx, 0); err != nil {
						return err
					}
				}
			}
			return nil
		}}
}
