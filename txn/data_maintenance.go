package txn

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// Data-Maintenance (docs/workload.md §9.11): once a minute, a small change to one of 12 tables
// in round-robin order. Each change toggles or shifts a value so the table stays
// realistic however long the run. Read committed.

// DMTables is Data-Maintenance's round-robin of target tables (docs/workload.md §9.11).
var DMTables = [...]string{
	"account_permission", "address", "company", "customer", "customer_taxrate", "daily_market",
	"exchange", "financial", "news_item", "security", "taxrate", "watch_item",
}

// DataMaintenanceInput: docs/workload.md §7.3.
type DataMaintenanceInput struct {
	Table      string
	AcctID     int64
	CustID     int64
	CoID       int64
	AddrOfCust bool // address: a customer's (67 %) or a company's
	Symbol     string
	DayOfMonth int
	VolIncr    int
	TaxID      string
}

// DataMaintenance draws Data-Maintenance's inputs, the next table of the round-robin.
func (g *Gen) DataMaintenance() DataMaintenanceInput {
	in := DataMaintenanceInput{Table: DMTables[g.dmNext]}
	g.dmNext = (g.dmNext + 1) % len(DMTables)
	in.AcctID = g.r.Account(g.r.Customer(g.sc))
	in.CustID = g.r.Customer(g.sc)
	in.CoID = schema.CompanyID(g.r.Int64N(g.sc.Companies()))
	in.AddrOfCust = g.r.Chance(67)
	in.Symbol = schema.Symbol(g.r.Int64N(g.sc.Securities()))
	in.DayOfMonth = int(g.r.Between(1, 31))
	for in.VolIncr == 0 {
		in.VolIncr = int(g.r.Between(-3, 3))
	}
	in.TaxID = schema.DivisionTaxID(g.r.IntN(schema.DivisionTaxRates))
	return in
}

// DataMaintenanceOutput names the table changed and the rows it changed.
type DataMaintenanceOutput struct {
	Table   string
	Changed int64
}

// runDataMaintenance runs Data-Maintenance on the worker's next inputs (its
// catalogue row).
func (e *executor) runDataMaintenance(ctx context.Context) (Outcome, error) {
	o, _, err := e.dataMaintenanceRun(ctx, e.gen.DataMaintenance())
	return o, err
}

func (e *executor) dataMaintenanceRun(ctx context.Context, in DataMaintenanceInput) (Outcome, DataMaintenanceOutput, error) {
	out := Outcome{Kind: DataMaintenance}
	res := DataMaintenanceOutput{Table: in.Table}
	if e.server {
		// What the client mode derives without the database goes in as inputs: the
		// mailbox of a customer without one, the EXCHANGE stamp.
		f, _, l := schema.CustomerName(in.CustID)
		box := strings.ToLower(f[:1] + l)
		stamp := exchangeMarker + e.now().Format(time.DateTime)
		err := e.callRoutine(ctx, &out, database.ReadCommitted, &res,
			in.Table, in.AcctID, in.CustID, in.CoID, in.AddrOfCust, in.Symbol, in.DayOfMonth, in.VolIncr, in.TaxID,
			box, stamp, exchangeMarker)
		if err == nil && res.Changed == 0 {
			err = checkf(DataMaintenance, 1, "%s: no row changed", in.Table)
		}
		return out, res, err
	}
	err := e.inTx(ctx, &out, database.ReadCommitted, func(tx database.Tx) error {
		n, err := e.dmChangeTable(ctx, tx, in)
		res.Changed = n
		if err == nil && n == 0 {
			err = checkf(DataMaintenance, 1, "%s: no row changed", in.Table)
		}
		return err
	})
	return out, res, err
}

// dmChangeTable is Data-Maintenance frame 1: it applies the change for the input's
// table.
func (e *executor) dmChangeTable(ctx context.Context, tx database.Tx, in DataMaintenanceInput) (int64, error) {
	s := e.sql
	switch in.Table {
	case "account_permission":
		return e.dmAccountPermission(ctx, tx, in)
	case "address":
		return e.dmAddress(ctx, tx, in)
	case "company":
		return e.dmCompany(ctx, tx, in)
	case "customer":
		return e.dmCustomer(ctx, tx, in)
	case "customer_taxrate":
		// Move the customer's country-level rate to the next code of its country.
		cur, err := dmRead(ctx, tx, in, s.of(dmCustomerTaxRate), in.CustID)
		if err != nil {
			return 0, err
		}
		return tx.Exec(ctx, s.of(dmCustomerSetTaxRate), nextCountryRate(cur), in.CustID, cur)
	case "daily_market":
		return tx.Exec(ctx, s.of(dmDailyMarketVolume), in.VolIncr, in.Symbol, in.DayOfMonth)
	case "exchange":
		return e.dmExchange(ctx, tx)
	case "financial":
		return e.dmFinancial(ctx, tx, in)
	case "news_item":
		return tx.Exec(ctx, s.of(dmNewsItemDate), in.CoID)
	case "security":
		return tx.Exec(ctx, s.of(dmSecurityExchDate), in.Symbol)
	case "taxrate":
		return e.dmTaxRate(ctx, tx, in)
	case "watch_item":
		return e.dmWatchItem(ctx, tx, in)
	}
	return 0, fmt.Errorf("data maintenance: unknown table %q", in.Table)
}

// dmRead reads the one text value (NULL reads as "") Data-Maintenance frame 1 toggles.
func dmRead(ctx context.Context, tx database.Tx, in DataMaintenanceInput, q string, args ...any) (string, error) {
	var v *string
	if err := tx.QueryRow(ctx, q, args...).Scan(&v); err != nil {
		return "", frameErr(DataMaintenance, 1, in.Table, err)
	}
	if v == nil {
		return "", nil
	}
	return *v, nil
}

// toggle is a, or b when cur is already a: a value Data-Maintenance flips between two.
func toggle(cur, a, b string) string {
	if cur == a {
		return b
	}
	return a
}

// dmAccountPermission flips the account's highest ACL between "1111" and "0011".
func (e *executor) dmAccountPermission(ctx context.Context, tx database.Tx, in DataMaintenanceInput) (int64, error) {
	cur, err := dmRead(ctx, tx, in, e.sql.of(dmAccountPermissionACL), in.AcctID)
	if err != nil {
		return 0, err
	}
	return tx.Exec(ctx, e.sql.of(dmAccountPermissionSetACL), toggle(cur, "1111", "0011"), in.AcctID, cur)
}

// dmAddress toggles the second address line of a company's or a customer's address.
func (e *executor) dmAddress(ctx context.Context, tx database.Tx, in DataMaintenanceInput) (int64, error) {
	q := e.sql.of(dmAddressOfCompany)
	id := in.CoID
	if in.AddrOfCust {
		q, id = e.sql.of(dmAddressOfCustomer), in.CustID
	}
	var adID int64
	if err := tx.QueryRow(ctx, q, id).Scan(&adID); err != nil {
		return 0, frameErr(DataMaintenance, 1, "address id", err)
	}
	cur, err := dmRead(ctx, tx, in, e.sql.of(dmAddressLine2), adID)
	if err != nil {
		return 0, err
	}
	return tx.Exec(ctx, e.sql.of(dmAddressSetLine2), toggle(cur, "Apt. 10C", "Apt. 22"), adID)
}

// dmCompany toggles the company's S&P rating between "ABA" and "AAA".
func (e *executor) dmCompany(ctx context.Context, tx database.Tx, in DataMaintenanceInput) (int64, error) {
	cur, err := dmRead(ctx, tx, in, e.sql.of(dmCompanySPRate), in.CoID)
	if err != nil {
		return 0, err
	}
	return tx.Exec(ctx, e.sql.of(dmCompanySetSPRate), toggle(cur, "ABA", "AAA"), in.CoID)
}

// dmCustomer moves c_email_2 between two domains, keeping the mailbox.
func (e *executor) dmCustomer(ctx context.Context, tx database.Tx, in DataMaintenanceInput) (int64, error) {
	cur, err := dmRead(ctx, tx, in, e.sql.of(dmCustomerEmail), in.CustID)
	if err != nil {
		return 0, err
	}
	box, domain, _ := strings.Cut(cur, "@")
	if box == "" {
		f, _, l := schema.CustomerName(in.CustID)
		box = strings.ToLower(f[:1] + l)
	}
	return tx.Exec(ctx, e.sql.of(dmCustomerSetEmail), truncate(box+"@"+toggle(domain, "mindspring.com", "earthlink.com"), 50), in.CustID)
}

// dmFinancial shifts every quarter start by a day: forward when the first is on the
// 1st of a month, back otherwise, so dates oscillate around the quarter starts.
func (e *executor) dmFinancial(ctx context.Context, tx database.Tx, in DataMaintenanceInput) (int64, error) {
	var day int
	if err := tx.QueryRow(ctx, e.sql.of(dmFinancialFirstDay), in.CoID).Scan(&day); err != nil {
		return 0, frameErr(DataMaintenance, 1, "financial", err)
	}
	shift := -1
	if day == 1 {
		shift = 1
	}
	return tx.Exec(ctx, e.sql.of(dmFinancialShift), shift, in.CoID)
}

// dmTaxRate toggles the case of "Tax" in the tax rate's name.
func (e *executor) dmTaxRate(ctx context.Context, tx database.Tx, in DataMaintenanceInput) (int64, error) {
	cur, err := dmRead(ctx, tx, in, e.sql.of(dmTaxRateName), in.TaxID)
	if err != nil {
		return 0, err
	}
	next := strings.Replace(cur, "Tax", "tax", 1)
	if next == cur {
		next = strings.Replace(cur, "tax", "Tax", 1)
	}
	if next == cur {
		next = cur + " Tax" // a name without the word gets it once, then toggles
	}
	return tx.Exec(ctx, e.sql.of(dmTaxRateSetName), truncate(next, 50), in.TaxID)
}

// nextCountryRate cycles US1..US5 and CN1..CN4.
func nextCountryRate(id string) string {
	ids := schema.CountryTaxIDs[:]
	for i, x := range ids {
		if x != id {
			continue
		}
		if strings.HasPrefix(id, "US") {
			return ids[(i+1)%5]
		}
		return ids[5+(i-5+1)%4]
	}
	return ids[0]
}

// exchangeMarker starts the suffix Data-Maintenance keeps on every exchange
// description.
const exchangeMarker = " LAST UPDATED "

// dmExchange appends or refreshes "LAST UPDATED <time>" on all four exchanges.
func (e *executor) dmExchange(ctx context.Context, tx database.Tx) (int64, error) {
	type ex struct{ id, desc string }
	var all []ex
	rows, err := tx.Query(ctx, e.sql.of(dmExchangeDescs))
	err = scanRows(rows, err, func(r database.Rows) error {
		var x ex
		var d *string
		if err := r.Scan(&x.id, &d); err != nil {
			return err
		}
		if d != nil {
			x.desc = *d
		}
		all = append(all, x)
		return nil
	})
	if err != nil {
		return 0, frameErr(DataMaintenance, 1, "exchange", err)
	}
	stamp := exchangeMarker + e.now().Format(time.DateTime)
	var n int64
	for _, x := range all {
		base, _, _ := strings.Cut(x.desc, exchangeMarker)
		base = truncate(base, 150-len(stamp))
		c, err := tx.Exec(ctx, e.sql.of(dmExchangeSetDesc), base+stamp, x.id)
		if err != nil {
			return n, frameErr(DataMaintenance, 1, "exchange", err)
		}
		n += c
	}
	return n, nil
}

// dmWatchItem replaces the middle symbol of the customer's watch list by the next
// symbol, alphabetically, that is not on the list yet.
func (e *executor) dmWatchItem(ctx context.Context, tx database.Tx, in DataMaintenanceInput) (int64, error) {
	var syms []string
	var wlID int64
	rows, err := tx.Query(ctx, e.sql.of(dmWatchItems), in.CustID)
	err = scanRows(rows, err, func(r database.Rows) error {
		var s string
		if err := r.Scan(&wlID, &s); err != nil {
			return err
		}
		syms = append(syms, s)
		return nil
	})
	if err == nil && len(syms) == 0 {
		err = database.ErrNoRows
	}
	if err != nil {
		return 0, frameErr(DataMaintenance, 1, "watch items", err)
	}
	old := syms[len(syms)/2]
	var next *string
	if err := tx.QueryRow(ctx, e.sql.of(dmWatchNextSymbol), old, wlID).Scan(&next); err != nil {
		return 0, frameErr(DataMaintenance, 1, "next symbol", err)
	}
	if next == nil {
		// Past the last symbol: wrap to the first one not on the list.
		if err := tx.QueryRow(ctx, e.sql.of(dmWatchNextSymbol), "", wlID).Scan(&next); err != nil {
			return 0, frameErr(DataMaintenance, 1, "next symbol", err)
		}
		if next == nil {
			return 0, checkf(DataMaintenance, 1, "watch list %d holds every security", wlID)
		}
	}
	return tx.Exec(ctx, e.sql.of(dmWatchSetSymbol), *next, wlID, old)
}

// Data-Maintenance's statements, in the order its frames run them.
var (
	dmAccountPermissionACL = DataMaintenance.statement("DMAccountPermissionACL", `SELECT ap_acl FROM account_permission WHERE ap_ca_id = $1
ORDER BY ap_acl DESC
LIMIT 1`,
		override{database.SQLServer, `SELECT TOP 1 ap_acl FROM account_permission WHERE ap_ca_id = $1
ORDER BY ap_acl DESC`})
	dmAccountPermissionSetACL = DataMaintenance.statement("DMAccountPermissionSetACL", `UPDATE account_permission SET ap_acl = $1 WHERE ap_ca_id = $2 AND ap_acl = $3`)
	dmAddressOfCustomer       = DataMaintenance.statement("DMAddressOfCustomer", `SELECT c_ad_id FROM customer WHERE c_id = $1`)
	dmAddressOfCompany        = DataMaintenance.statement("DMAddressOfCompany", `SELECT co_ad_id FROM company WHERE co_id = $1`)
	dmAddressLine2            = DataMaintenance.statement("DMAddressLine2", `SELECT ad_line2 FROM address WHERE ad_id = $1`)
	dmAddressSetLine2         = DataMaintenance.statement("DMAddressSetLine2", `UPDATE address SET ad_line2 = $1 WHERE ad_id = $2`)
	dmCompanySPRate           = DataMaintenance.statement("DMCompanySPRate", `SELECT co_sp_rate FROM company WHERE co_id = $1`)
	dmCompanySetSPRate        = DataMaintenance.statement("DMCompanySetSPRate", `UPDATE company SET co_sp_rate = $1 WHERE co_id = $2`)
	dmCustomerEmail           = DataMaintenance.statement("DMCustomerEmail", `SELECT c_email_2 FROM customer WHERE c_id = $1`)
	dmCustomerSetEmail        = DataMaintenance.statement("DMCustomerSetEmail", `UPDATE customer SET c_email_2 = $1 WHERE c_id = $2`)
	dmCustomerTaxRate         = DataMaintenance.statement("DMCustomerTaxRate", `SELECT cx_tx_id FROM customer_taxrate
WHERE cx_c_id = $1 AND (cx_tx_id LIKE 'US%' OR cx_tx_id LIKE 'CN%')`)
	dmCustomerSetTaxRate = DataMaintenance.statement("DMCustomerSetTaxRate", `UPDATE customer_taxrate SET cx_tx_id = $1 WHERE cx_c_id = $2 AND cx_tx_id = $3`)
	dmDailyMarketVolume  = DataMaintenance.statement("DMDailyMarketVolume", `UPDATE daily_market SET dm_vol = dm_vol + $1
WHERE dm_s_symb = $2 AND EXTRACT(DAY FROM dm_date) = $3`,
		override{database.SQLServer, `UPDATE daily_market SET dm_vol = dm_vol + $1
WHERE dm_s_symb = $2 AND DAY(dm_date) = $3`})
	dmExchangeDescs     = DataMaintenance.statement("DMExchangeDescs", `SELECT ex_id, ex_desc FROM exchange ORDER BY ex_id`)
	dmExchangeSetDesc   = DataMaintenance.statement("DMExchangeSetDesc", `UPDATE exchange SET ex_desc = $1 WHERE ex_id = $2`)
	dmFinancialFirstDay = DataMaintenance.statement("DMFinancialFirstDay", `SELECT CAST(EXTRACT(DAY FROM MIN(fi_qtr_start_date)) AS INTEGER) FROM financial WHERE fi_co_id = $1`,
		override{database.SQLServer, `SELECT DAY(MIN(fi_qtr_start_date)) FROM financial WHERE fi_co_id = $1`},
		override{database.MySQL, `SELECT DAY(MIN(fi_qtr_start_date)) FROM financial WHERE fi_co_id = $1`})
	dmFinancialShift = DataMaintenance.statement("DMFinancialShift", `UPDATE financial SET fi_qtr_start_date = fi_qtr_start_date + CAST($1 AS INTEGER) WHERE fi_co_id = $2`,
		override{database.SQLServer, `UPDATE financial SET fi_qtr_start_date = DATEADD(day, CAST($1 AS INT), fi_qtr_start_date) WHERE fi_co_id = $2`},
		override{database.MySQL, `UPDATE financial SET fi_qtr_start_date = fi_qtr_start_date + INTERVAL $1 DAY WHERE fi_co_id = $2`})
	dmNewsItemDate = DataMaintenance.statement("DMNewsItemDate", `UPDATE news_item SET ni_dts = ni_dts + INTERVAL '1 day'
WHERE ni_id IN (SELECT nx_ni_id FROM news_xref WHERE nx_co_id = $1)`,
		override{database.SQLServer, `UPDATE news_item SET ni_dts = DATEADD(day, 1, ni_dts)
WHERE ni_id IN (SELECT nx_ni_id FROM news_xref WHERE nx_co_id = $1)`},
		override{database.MySQL, `UPDATE news_item SET ni_dts = ni_dts + INTERVAL 1 DAY
WHERE ni_id IN (SELECT nx_ni_id FROM news_xref WHERE nx_co_id = $1)`})
	dmSecurityExchDate = DataMaintenance.statement("DMSecurityExchDate", `UPDATE security SET s_exch_date = s_exch_date + 1 WHERE s_symb = $1`,
		override{database.SQLServer, `UPDATE security SET s_exch_date = DATEADD(day, 1, s_exch_date) WHERE s_symb = $1`},
		override{database.MySQL, `UPDATE security SET s_exch_date = s_exch_date + INTERVAL 1 DAY WHERE s_symb = $1`})
	dmTaxRateName    = DataMaintenance.statement("DMTaxRateName", `SELECT tx_name FROM taxrate WHERE tx_id = $1`)
	dmTaxRateSetName = DataMaintenance.statement("DMTaxRateSetName", `UPDATE taxrate SET tx_name = $1 WHERE tx_id = $2`)
	dmWatchItems     = DataMaintenance.statement("DMWatchItems", `SELECT wi_wl_id, wi_s_symb FROM watch_list, watch_item
WHERE wl_c_id = $1 AND wi_wl_id = wl_id
ORDER BY wi_s_symb`)
	dmWatchNextSymbol = DataMaintenance.statement("DMWatchNextSymbol", `SELECT MIN(s_symb) FROM security
WHERE s_symb > $1 AND s_symb NOT IN (SELECT wi_s_symb FROM watch_item WHERE wi_wl_id = $2)`)
	dmWatchSetSymbol = DataMaintenance.statement("DMWatchSetSymbol", `UPDATE watch_item SET wi_s_symb = $1 WHERE wi_wl_id = $2 AND wi_s_symb = $3`)
)
