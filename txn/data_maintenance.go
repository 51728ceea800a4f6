package txn

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// Data-Maintenance (tpce.md §6.11): once a minute, a small change to one of 12 tables
// in round-robin order. Each change toggles or shifts a value so the table stays
// realistic however long the run. Read committed.

// DataMaintenanceOutput names the table changed and the rows it changed.
type DataMaintenanceOutput struct {
	Table   string
	Changed int64
}

func (e *executor) dataMaintenance(ctx context.Context, in DataMaintenanceInput) (Outcome, error) {
	o, _, err := e.dataMaintenanceRun(ctx, in)
	return o, err
}

func (e *executor) dataMaintenanceRun(ctx context.Context, in DataMaintenanceInput) (Outcome, DataMaintenanceOutput, error) {
	out := Outcome{Kind: DataMaintenance}
	res := DataMaintenanceOutput{Table: in.Table}
	err := e.inTx(ctx, &out, database.ReadCommitted, func(tx database.Tx) error {
		n, err := e.dmFrame1(ctx, tx, in)
		res.Changed = n
		if err == nil && n == 0 {
			err = checkf(DataMaintenance, 1, "%s: no row changed", in.Table)
		}
		return err
	})
	return out, res, err
}

// dmFrame1 applies the change for the input's table.
func (e *executor) dmFrame1(ctx context.Context, tx database.Tx, in DataMaintenanceInput) (int64, error) {
	s := e.sql
	var cur string
	read := func(q string, args ...any) error {
		var v *string
		if err := tx.QueryRow(ctx, q, args...).Scan(&v); err != nil {
			return frameErr(DataMaintenance, 1, in.Table, err)
		}
		if v != nil {
			cur = *v
		}
		return nil
	}
	switch in.Table {
	case "account_permission":
		// Flip the account's highest ACL between "1111" and "0011".
		if err := read(s.DMAccountPermissionACL, in.AcctID); err != nil {
			return 0, err
		}
		next := "1111"
		if cur == "1111" {
			next = "0011"
		}
		return tx.Exec(ctx, s.DMAccountPermissionSetACL, next, in.AcctID, cur)
	case "address":
		q := s.DMAddressOfCompany
		id := in.CoID
		if in.AddrOfCust {
			q, id = s.DMAddressOfCustomer, in.CustID
		}
		var adID int64
		if err := tx.QueryRow(ctx, q, id).Scan(&adID); err != nil {
			return 0, frameErr(DataMaintenance, 1, "address id", err)
		}
		if err := read(s.DMAddressLine2, adID); err != nil {
			return 0, err
		}
		next := "Apt. 10C"
		if cur == "Apt. 10C" {
			next = "Apt. 22"
		}
		return tx.Exec(ctx, s.DMAddressSetLine2, next, adID)
	case "company":
		if err := read(s.DMCompanySPRate, in.CoID); err != nil {
			return 0, err
		}
		next := "ABA"
		if cur == "ABA" {
			next = "AAA"
		}
		return tx.Exec(ctx, s.DMCompanySetSPRate, next, in.CoID)
	case "customer":
		// Move c_email_2 between two domains, keeping the mailbox.
		if err := read(s.DMCustomerEmail, in.CustID); err != nil {
			return 0, err
		}
		box, domain, _ := strings.Cut(cur, "@")
		if box == "" {
			f, _, l := schema.CustomerName(in.CustID)
			box = strings.ToLower(f[:1] + l)
		}
		next := "mindspring.com"
		if domain == "mindspring.com" {
			next = "earthlink.com"
		}
		return tx.Exec(ctx, s.DMCustomerSetEmail, truncate(box+"@"+next, 50), in.CustID)
	case "customer_taxrate":
		// Move the customer's country-level rate to the next code of its country.
		if err := read(s.DMCustomerTaxRate, in.CustID); err != nil {
			return 0, err
		}
		return tx.Exec(ctx, s.DMCustomerSetTaxRate, nextCountryRate(cur), in.CustID, cur)
	case "daily_market":
		return tx.Exec(ctx, s.DMDailyMarketVolume, in.VolIncr, in.Symbol, in.DayOfMonth)
	case "exchange":
		return e.dmExchange(ctx, tx)
	case "financial":
		// Shift every quarter start by a day: forward when the first is on the 1st of
		// a month, back otherwise, so dates oscillate around the quarter starts.
		var day int
		if err := tx.QueryRow(ctx, s.DMFinancialFirstDay, in.CoID).Scan(&day); err != nil {
			return 0, frameErr(DataMaintenance, 1, "financial", err)
		}
		shift := -1
		if day == 1 {
			shift = 1
		}
		return tx.Exec(ctx, s.DMFinancialShift, shift, in.CoID)
	case "news_item":
		return tx.Exec(ctx, s.DMNewsItemDate, in.CoID)
	case "security":
		return tx.Exec(ctx, s.DMSecurityExchDate, in.Symbol)
	case "taxrate":
		if err := read(s.DMTaxRateName, in.TaxID); err != nil {
			return 0, err
		}
		next := strings.Replace(cur, "Tax", "tax", 1)
		if next == cur {
			next = strings.Replace(cur, "tax", "Tax", 1)
		}
		if next == cur {
			next = cur + " Tax" // a name without the word gets it once, then toggles
		}
		return tx.Exec(ctx, s.DMTaxRateSetName, truncate(next, 50), in.TaxID)
	case "watch_item":
		return e.dmWatchItem(ctx, tx, in)
	}
	return 0, fmt.Errorf("data maintenance: unknown table %q", in.Table)
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
	rows, err := tx.Query(ctx, e.sql.DMExchangeDescs)
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
		c, err := tx.Exec(ctx, e.sql.DMExchangeSetDesc, base+stamp, x.id)
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
	rows, err := tx.Query(ctx, e.sql.DMWatchItems, in.CustID)
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
	if err := tx.QueryRow(ctx, e.sql.DMWatchNextSymbol, old, wlID).Scan(&next); err != nil {
		return 0, frameErr(DataMaintenance, 1, "next symbol", err)
	}
	if next == nil {
		// Past the last symbol: wrap to the first one not on the list.
		if err := tx.QueryRow(ctx, e.sql.DMWatchNextSymbol, "", wlID).Scan(&next); err != nil {
			return 0, frameErr(DataMaintenance, 1, "next symbol", err)
		}
		if next == nil {
			return 0, checkf(DataMaintenance, 1, "watch list %d holds every security", wlID)
		}
	}
	return tx.Exec(ctx, e.sql.DMWatchSetSymbol, *next, wlID, old)
}
