package loader

import (
	"sync/atomic"

	"github.com/brokerbench/brokerbench/schema"
)

// Tracker exposes the load's progress per table; the command polls it to draw bars or
// print lines, so the loader itself has no display code.
type Tracker struct {
	Tables []*TableProgress
	phase  atomic.Value // string
}

// TableProgress counts one table's rows as its sink streams them.
type TableProgress struct {
	Name     string
	Expected int64 // exact for deterministic tables, an estimate for the others
	rows     atomic.Int64
	bytes    atomic.Int64
	done     atomic.Bool
}

func (p *TableProgress) add(rows, bytes int64) {
	p.rows.Add(rows)
	p.bytes.Add(bytes)
}

// Rows and Bytes (as streamed) so far.
func (p *TableProgress) Rows() int64  { return p.rows.Load() }
func (p *TableProgress) Bytes() int64 { return p.bytes.Load() }

// Done reports whether the table's stream has committed.
func (p *TableProgress) Done() bool { return p.done.Load() }

// Phase returns the current phase name.
func (t *Tracker) Phase() string {
	s, _ := t.phase.Load().(string)
	return s
}

func (t *Tracker) setPhase(p string) { t.phase.Store(p) }

// NewTracker returns a tracker with every loaded table and its expected rows.
func NewTracker(sc schema.Scale) *Tracker {
	t := &Tracker{}
	t.setPhase("")
	for _, tb := range loadedTables() {
		t.Tables = append(t.Tables, &TableProgress{Name: tb.Name, Expected: ExpectedRows(sc, tb.Name)})
	}
	return t
}

func (t *Tracker) table(name string) *TableProgress {
	for _, p := range t.Tables {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// loadedTables are the workload's tables and brokerbench's opening balances.
func loadedTables() []schema.Table {
	out := schema.Tables()
	for _, m := range schema.MetaTables() {
		if m.Name == schema.OpeningBalanceTable {
			out = append(out, m)
		}
	}
	return out
}

// ExactRows reports whether ExpectedRows is exact for the table rather than the
// reference's ratio.
func ExactRows(table string) bool {
	switch table {
	case "account_permission", "watch_item", "trade_history", "cash_transaction", "holding_history", "holding", "holding_summary":
		return false
	}
	return true
}

// ExpectedRows is the row count of a table at a scale (tpce.md §3): exact for the
// deterministic tables, the reference's ratio for the others (permissions, watch
// items, history, cash transactions, holdings).
func ExpectedRows(sc schema.Scale, table string) int64 {
	lus, cust, acc, trades := sc.LoadUnits(), sc.Customers, sc.Accounts(), sc.Trades()
	switch table {
	case "status_type", "trade_type":
		return 5
	case "taxrate":
		return int64(len(schema.CountryTaxIDs) + schema.DivisionTaxRates)
	case "zip_code":
		return zipCodes
	case "sector":
		return int64(len(schema.Sectors))
	case "industry":
		return 102
	case "exchange":
		return schema.Exchanges
	case "charge":
		return 15
	case "commission_rate":
		return 240
	case "address":
		return schema.Exchanges + sc.Companies() + cust
	case "company":
		return sc.Companies()
	case "company_competitor":
		return sc.Companies() * schema.CompetitorsPerCo
	case "security", "last_trade":
		return sc.Securities()
	case "daily_market":
		return sc.Securities() * schema.DailyMarketDays
	case "financial":
		return sc.Companies() * schema.FinancialsPerCo
	case "news_item", "news_xref":
		return sc.Companies() * schema.NewsPerCompany
	case "customer", "watch_list":
		return cust
	case "customer_taxrate":
		return 2 * cust
	case "customer_account", schema.OpeningBalanceTable:
		return acc
	case "account_permission":
		return acc * 142 / 100
	case "watch_item":
		return cust * 100
	case "broker":
		return lus * schema.BrokersPerLU
	case "trade", "settlement":
		return trades
	case "trade_history":
		return trades * 24 / 10
	case "cash_transaction":
		return trades * 92 / 100
	case "holding_history":
		return trades * 13 / 10
	case "holding":
		return trades * 15 / 100
	case "holding_summary":
		return acc * 8
	}
	return 0
}
