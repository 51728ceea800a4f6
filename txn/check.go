package txn

import (
	"context"
	"fmt"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// The invariants `brokerbench check` verifies (docs/workload.md §11) on a loaded or a run
// database. Each is one query listing the rows that break it, so a correct database
// costs a few scans and a broken one names its culprits.

// Violation is one broken invariant, with the row that breaks it.
type Violation struct {
	Check  string // e.g. "broker totals"
	Detail string
}

func (v Violation) String() string { return v.Check + ": " + v.Detail }

// maxPerCheck bounds the violations listed per check; one more row says "more".
const maxPerCheck = 20

// Check verifies the invariants on db at scale sc and returns every violation found;
// the error is for a check that could not run.
func Check(ctx context.Context, db database.DB, sc schema.Scale) ([]Violation, error) {
	st, err := StatementsFor(db.Name())
	if err != nil {
		return nil, err
	}
	var out []Violation
	for _, c := range invariantChecks(st.of, sc) {
		vs, err := c.run(ctx, db)
		out = append(out, vs...)
		if err != nil {
			return out, err
		}
	}
	vs, err := countChecks(ctx, db, st.of, sc)
	return append(out, vs...), err
}

// invariantCheck is one query whose every row is a violation.
type invariantCheck struct {
	name string
	sql  string
	args []any
	// scan reads one violating row and formats it.
	scan func(database.Rows) (string, error)
}

// invariantChecks are the invariants checked row by row (docs/workload.md §11), their
// statements rendered by q.
func invariantChecks(q func(*Statement) string, sc schema.Scale) []invariantCheck {
	return []invariantCheck{
		{"broker totals", q(checkBrokerTotals), nil, func(r database.Rows) (string, error) {
			var id, n, want int64
			var comm, wantComm Money
			err := r.Scan(&id, &n, &comm, &want, &wantComm)
			return fmt.Sprintf("broker %d has b_num_trades %d and b_comm_total %s; its accounts' completed trades count %d with commission %s",
				id, n, comm, want, wantComm), err
		}},
		{"holding summary", q(checkHoldingSummaries), nil, func(r database.Rows) (string, error) {
			var ca int64
			var sym string
			var qty, sum int64
			err := r.Scan(&ca, &sym, &qty, &sum)
			return fmt.Sprintf("account %d %s: hs_qty %d but its lots sum to %d", ca, sym, qty, sum), err
		}},
		{"holding without summary", q(checkOrphanLots), nil, func(r database.Rows) (string, error) {
			var t, ca int64
			var sym string
			err := r.Scan(&t, &ca, &sym)
			return fmt.Sprintf("lot %d of account %d %s has no holding summary", t, ca, sym), err
		}},
		{"completed trade", q(checkCompletedTrades), nil, func(r database.Rows) (string, error) {
			var t int64
			var se, th, ct int64
			var cash bool
			err := r.Scan(&t, &se, &th, &cash, &ct)
			return fmt.Sprintf("trade %d: %d settlement rows (want 1), %d CMPT history rows (want 1), cash %v with %d cash transactions",
				t, se, th, cash, ct), err
		}},
		{"cash balance", q(checkBalances), nil, func(r database.Rows) (string, error) {
			var ca int64
			var bal Money
			var want *Money
			if err := r.Scan(&ca, &bal, &want); err != nil {
				return "", err
			}
			if want == nil {
				return fmt.Sprintf("account %d has no opening balance in bb_opening_balance", ca), nil
			}
			return fmt.Sprintf("account %d: ca_bal %s but opening balance plus cash transactions is %s", ca, bal, *want), nil
		}},
		{"lost trade", q(checkRunTimeTrades), []any{sc.FirstRunTradeID()}, func(r database.Rows) (string, error) {
			var t int64
			var s string
			err := r.Scan(&t, &s)
			return fmt.Sprintf("run-time trade %d is %s: neither completed, submitted, canceled nor pending with its request", t, s), err
		}},
		{"loaded trade", q(checkLoadedTrades), []any{sc.FirstRunTradeID()}, func(r database.Rows) (string, error) {
			var t int64
			var s string
			err := r.Scan(&t, &s)
			return fmt.Sprintf("loaded trade %d is %s, want CMPT", t, s), err
		}},
		{"trade request", q(checkRequests), nil, func(r database.Rows) (string, error) {
			var t int64
			var s *string
			if err := r.Scan(&t, &s); err != nil {
				return "", err
			}
			if s == nil {
				return fmt.Sprintf("request %d has no trade", t), nil
			}
			return fmt.Sprintf("request %d belongs to a %s trade, want PNDG", t, *s), nil
		}},
	}
}

// run lists c's violations, at most maxPerCheck of them and a line saying more were
// left out.
func (c invariantCheck) run(ctx context.Context, db database.DB) ([]Violation, error) {
	var out []Violation
	rows, err := db.Query(ctx, c.sql, c.args...)
	if err != nil {
		return out, fmt.Errorf("check %s: %w", c.name, err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
		if n > maxPerCheck {
			out = append(out, Violation{c.name, "more rows not shown"})
			break
		}
		line, err := c.scan(rows)
		if err != nil {
			return out, fmt.Errorf("check %s: %w", c.name, err)
		}
		out = append(out, Violation{c.name, line})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("check %s: %w", c.name, err)
	}
	return out, nil
}

// countChecks checks the row counts the scale fixes and the number of loaded trades.
func countChecks(ctx context.Context, db database.DB, q func(*Statement) string, sc schema.Scale) ([]Violation, error) {
	var out []Violation
	counts, err := rowCounts(ctx, db, q(checkRowCounts))
	if err != nil {
		return out, err
	}
	for _, tbl := range countedTables {
		if want := sc.Rows(tbl); counts[tbl] != want {
			out = append(out, Violation{"row count", fmt.Sprintf("%s has %d rows, want %d", tbl, counts[tbl], want)})
		}
	}
	var loaded int64
	if err := db.QueryRow(ctx, q(checkLoadedTradeCount), sc.MaxLoadedTradeID()).Scan(&loaded); err != nil {
		return out, fmt.Errorf("check loaded trades: %w", err)
	}
	if loaded != sc.Trades() {
		out = append(out, Violation{"row count", fmt.Sprintf("trade has %d loaded trades, want %d", loaded, sc.Trades())})
	}
	return out, nil
}

// countedTables are the tables whose size the scale fixes, before and after a run
// (Data-Maintenance changes values, never row counts).
var countedTables = [...]string{
	"status_type", "trade_type", "taxrate", "sector", "industry", "exchange", "charge", "commission_rate",
	"address", "company", "company_competitor", "security", "daily_market", "financial", "last_trade",
	"news_item", "news_xref", "customer", "customer_taxrate", "broker", "customer_account",
	"watch_list",
}

func rowCounts(ctx context.Context, db database.DB, sql string) (map[string]int64, error) {
	out := map[string]int64{}
	rows, err := db.Query(ctx, sql)
	if err != nil {
		return nil, fmt.Errorf("check row counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var t string
		var n int64
		if err := rows.Scan(&t, &n); err != nil {
			return nil, fmt.Errorf("check row counts: %w", err)
		}
		out[t] = n
	}
	return out, rows.Err()
}
