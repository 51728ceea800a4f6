package loader

import (
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/schema/rnd"
)

// Customer tables of one customer group (docs/workload.md §5.2: customers, accounts and
// permissions, watch lists). CUSTOMER_ACCOUNT is written by the trade job.

var customerTables = []string{"customer", "customer_taxrate", "address", "watch_list", "watch_item", "account_permission"}

// Age brackets relative to the history start (docs/workload.md §5.2), percent and age range.
var ageBrackets = [...]struct{ pct, lo, hi int }{
	{5, 10, 18}, {16, 19, 24}, {17, 25, 34}, {19, 35, 44}, {16, 45, 54}, {11, 55, 64}, {8, 65, 74}, {7, 75, 84}, {1, 85, 100},
}

var emailDomains = [...]string{"mail.example.com", "inbox.example.net", "post.example.org", "webmail.example.com", "isp.example.net", "home.example.org"}

func customerJob(ks *keyspace, lu, g int64) job {
	return job{kind: kindCustomer, lu: lu, part: g, tables: customerTables, estimate: customersPerGroup * 110,
		run: func(ctx context.Context, e *emitter) error { return runCustomers(ctx, ks, lu, g, e) }}
}

func runCustomers(ctx context.Context, ks *keyspace, lu, g int64, e *emitter) error {
	c := &customerRows{groupRows: groupRows{ctx: ctx, e: e, r: rnd.New(ks.seed, kindCustomer, uint64(lu), uint64(g))}, ks: ks, nsec: ks.sc.Securities()}
	c0, n := groupCustomers(lu, g)
	for cID := c0; cID < c0+n && c.err == nil; cID++ {
		c.customer(cID)
		country, division := schema.CustomerTaxRates(cID)
		for _, tx := range []string{country, division} {
			w := e.row(1)
			w.Text(tx)
			w.Int64(cID)
			c.end(1)
		}
		writeAddress(e.row(2), c.r, ks.sc.CustomerAddressID(cID))
		c.end(2)
		c.watchList(cID)
		c.permissions(cID)
	}
	return c.err
}

// customerRows writes one group's customer rows (the job's tables, by index).
type customerRows struct {
	groupRows
	ks    *keyspace
	nsec  int64
	picks []int64 // a watch list's securities, reused
}

// customer writes the CUSTOMER row of cID.
func (c *customerRows) customer(cID int64) {
	r := c.r
	f, m, l := schema.CustomerName(cID)
	w := c.e.row(0)
	w.Int64(cID)
	w.Text(schema.CustomerTaxID(cID))
	w.Text(schema.StatusActive)
	w.Text(l)
	w.Text(f)
	w.Text(m)
	if r.Chance(50) {
		w.Text("M")
	} else {
		w.Text("F")
	}
	w.Int16(int16(schema.Tier(cID)))
	w.Date(birthDay(r))
	w.Int64(c.ks.sc.CustomerAddressID(cID))
	for p := 0; p < 3; p++ {
		if p > 0 && r.Chance(40) { // second and third phones are often missing
			w.Null()
			w.Null()
			w.Null()
			w.Null()
			continue
		}
		w.Text("011")
		w.Text(strconv.Itoa(int(r.Between(200, 999))))
		w.Text(strconv.Itoa(int(r.Between(2_000_000, 9_999_999))))
		if r.Chance(25) {
			w.Text(strconv.Itoa(int(r.Between(1, 9999))))
		} else {
			w.Null()
		}
	}
	w.Text(f + "." + l + "@" + emailDomains[r.IntN(len(emailDomains))])
	if r.Chance(50) {
		w.Text(f[:1] + l + "@" + emailDomains[r.IntN(len(emailDomains))])
	} else {
		w.Null()
	}
	c.end(0)
}

// watchList writes cID's WATCH_LIST and its 50-150 distinct securities, drawn
// uniformly from all securities.
func (c *customerRows) watchList(cID int64) {
	wl := schema.WatchListID(cID)
	w := c.e.row(3)
	w.Int64(wl)
	w.Int64(cID)
	c.end(3)
	k := int(c.r.Between(50, 150))
	c.picks = c.picks[:0]
	for len(c.picks) < k {
		if s := c.r.Int64N(c.nsec); !slices.Contains(c.picks, s) {
			c.picks = append(c.picks, s)
		}
	}
	// The picks are distinct, so any sort gives the same order; slices.Sort needs no
	// reflection and no boxed slice per watch list.
	slices.Sort(c.picks)
	for _, s := range c.picks {
		w = c.e.row(4)
		w.Int64(wl)
		w.Text(c.ks.symbols[s])
		c.end(4)
	}
}

// permissions writes the ACCOUNT_PERMISSION rows of cID's accounts.
func (c *customerRows) permissions(cID int64) {
	for a := 0; a < schema.AccountCount(cID); a++ {
		caID := schema.AccountID(cID, a)
		for _, h := range schema.AccountHolders(caID) {
			w := c.e.row(5)
			w.Int64(caID)
			w.Text(h.ACL)
			w.Text(h.TaxID)
			w.Text(h.Last)
			w.Text(h.First)
			c.end(5)
		}
	}
}

// birthDay draws a date of birth by the reference's age brackets.
func birthDay(r *rnd.Rand) int32 {
	v := r.IntN(100)
	for _, b := range ageBrackets {
		if v < b.pct {
			age := int(r.Between(int64(b.lo), int64(b.hi)))
			d := schema.TradeBase.AddDate(-age, 0, -r.IntN(365))
			return unixDays(time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC))
		}
		v -= b.pct
	}
	return unixDays(schema.TradeBase.AddDate(-40, 0, 0))
}
