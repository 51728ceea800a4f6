package loader_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/schema"
)

// open opens dsn with the loader's pool size for the test.
func open(t *testing.T, dsn string) database.DB {
	t.Helper()
	return testpg.OpenDB(t, dsn, database.Options{MaxConns: loader.MaxConnections})
}

func queryInt(t *testing.T, db database.DB, q string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow(context.Background(), q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// The deterministic cardinalities of docs/workload.md §3.1 at one load unit and 5 trade days,
// and the reference's ratios for the others.
func TestLoadedCardinalities(t *testing.T) {
	t.Parallel()
	db := open(t, testdb.Loaded(t))
	sc := testdb.Scale
	exact := map[string]int64{
		"status_type": 5, "trade_type": 5, "taxrate": 320, "zip_code": 14741, "sector": 12, "industry": 102,
		"exchange": 4, "charge": 15, "commission_rate": 240,
		"customer": 1000, "customer_account": 5000, "customer_taxrate": 2000, "watch_list": 1000, "broker": 10,
		"company": 500, "company_competitor": 1500, "financial": 10000, "news_item": 1000, "news_xref": 1000,
		"security": 685, "last_trade": 685, "daily_market": 893925, "address": 1504,
		"trade": 5 * 57600, "settlement": 5 * 57600, "trade_request": 0, schema.OpeningBalanceTable: 5000,
	}
	for tb, want := range exact {
		if got := queryInt(t, db, "SELECT count(*) FROM "+tb); got != want {
			t.Errorf("%s: %d rows, want %d", tb, got, want)
		}
		if want != sc.Rows(tb) {
			t.Errorf("Rows(%s) = %d, want %d", tb, sc.Rows(tb), want)
		}
	}
	ratio := func(num, den string) float64 {
		return float64(queryInt(t, db, "SELECT count(*) FROM "+num)) / float64(queryInt(t, db, "SELECT count(*) FROM "+den))
	}
	if r := ratio("account_permission", "customer_account"); r < 1.38 || r > 1.46 {
		t.Errorf("permissions per account = %.3f, want about 1.42", r)
	}
	if r := ratio("trade_history", "trade"); r < 2.35 || r > 2.45 {
		t.Errorf("history rows per trade = %.3f, want about 2.4", r)
	}
	if r := ratio("cash_transaction", "trade"); r < 0.90 || r > 0.94 {
		t.Errorf("cash transactions per trade = %.3f, want about 0.92", r)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM (SELECT wi_wl_id FROM watch_item GROUP BY 1 HAVING count(*) NOT BETWEEN 50 AND 150) x"); n != 0 {
		t.Errorf("%d watch lists outside 50-150 items", n)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM watch_list WHERE wl_id NOT IN (SELECT wi_wl_id FROM watch_item)"); n != 0 {
		t.Errorf("%d empty watch lists", n)
	}
	for _, tb := range []string{"holding", "holding_summary", "holding_history"} {
		if queryInt(t, db, "SELECT count(*) FROM "+tb) == 0 {
			t.Errorf("%s is empty", tb)
		}
	}
	// 57,600 completed trades per business day.
	if n := queryInt(t, db, "SELECT count(*) FROM (SELECT t_dts::date FROM trade GROUP BY 1 HAVING count(*) <> 57600) x"); n != 0 {
		t.Errorf("%d trade days without exactly 57,600 trades", n)
	}
	if n := queryInt(t, db, "SELECT count(DISTINCT t_dts::date) FROM trade"); n != int64(sc.TradeDays) {
		t.Errorf("trades on %d days, want %d", n, sc.TradeDays)
	}
	// Ids: one in 101 skipped, the rest dense up to the maximum; the sequence continues above.
	if got, want := queryInt(t, db, "SELECT max(t_id) FROM trade"), sc.MaxLoadedTradeID(); got > want || got < want-2 {
		t.Errorf("max t_id = %d, want about %d", got, want)
	}
	if n := queryInt(t, db, fmt.Sprintf("SELECT count(*) FROM trade WHERE (t_id - %d) %% 101 = 0", schema.TradeShift)); n != 0 {
		t.Errorf("%d trades use a skipped id", n)
	}
	if got := queryInt(t, db, "SELECT nextval('seq_trade_id')"); got != sc.FirstRunTradeID() {
		t.Errorf("seq_trade_id starts at %d, want %d", got, sc.FirstRunTradeID())
	}
}

// The consistency rules of docs/workload.md §11 that `check` verifies.
func TestLoadedConsistency(t *testing.T) {
	t.Parallel()
	db := open(t, testdb.Loaded(t))
	zero := map[string]string{
		"broker trade counts equal their accounts' completed trades": `SELECT count(*) FROM broker b LEFT JOIN (
			SELECT ca_b_id, count(*) n, sum(t_comm) c FROM trade JOIN customer_account ON ca_id = t_ca_id WHERE t_st_id = 'CMPT' GROUP BY 1) x
			ON x.ca_b_id = b.b_id WHERE b.b_num_trades <> coalesce(x.n, 0) OR b.b_comm_total <> coalesce(x.c, 0)`,
		"holding summaries equal the sum of their lots": `SELECT count(*) FROM holding_summary FULL JOIN (
			SELECT h_ca_id, h_s_symb, sum(h_qty) q FROM holding GROUP BY 1, 2) h ON h_ca_id = hs_ca_id AND h_s_symb = hs_s_symb
			WHERE hs_qty IS DISTINCT FROM h.q`,
		"every trade is completed":                  "SELECT count(*) FROM trade WHERE t_st_id <> 'CMPT' OR t_trade_price IS NULL",
		"every trade has its settlement":            "SELECT count(*) FROM trade WHERE NOT EXISTS (SELECT 1 FROM settlement WHERE se_t_id = t_id)",
		"every trade ends in a CMPT history row":    "SELECT count(*) FROM trade WHERE NOT EXISTS (SELECT 1 FROM trade_history WHERE th_t_id = t_id AND th_st_id = 'CMPT' AND th_dts = t_dts)",
		"market orders have 2, limit orders 3":      "SELECT count(*) FROM trade JOIN trade_type ON tt_id = t_tt_id JOIN (SELECT th_t_id, count(*) n FROM trade_history GROUP BY 1) h ON th_t_id = t_id WHERE h.n <> CASE WHEN tt_is_mrkt THEN 2 ELSE 3 END",
		"history times increase":                    "SELECT count(*) FROM trade_history a JOIN trade_history b ON a.th_t_id = b.th_t_id AND a.th_st_id = 'SBMT' AND b.th_st_id IN ('PNDG', 'CMPT') WHERE (b.th_st_id = 'CMPT' AND b.th_dts <= a.th_dts) OR (b.th_st_id = 'PNDG' AND b.th_dts >= a.th_dts)",
		"cash transactions exactly for cash trades": "SELECT count(*) FROM trade FULL JOIN cash_transaction ON ct_t_id = t_id WHERE t_is_cash IS DISTINCT FROM (ct_t_id IS NOT NULL)",
		"cash amounts equal settlement amounts":     "SELECT count(*) FROM cash_transaction JOIN settlement ON se_t_id = ct_t_id WHERE ct_amt <> se_amt",
		"settlement type follows t_is_cash":         "SELECT count(*) FROM trade JOIN settlement ON se_t_id = t_id WHERE se_cash_type <> CASE WHEN t_is_cash THEN 'Cash Account' ELSE 'Margin' END",
		"settlement due two days after completion":  "SELECT count(*) FROM trade JOIN settlement ON se_t_id = t_id WHERE se_cash_due_date <> t_dts::date + 2",
		"balances are opening balance plus cash": `SELECT count(*) FROM customer_account JOIN bb_opening_balance o ON o.ca_id = customer_account.ca_id
			LEFT JOIN (SELECT t_ca_id, sum(ct_amt) s FROM cash_transaction JOIN trade ON t_id = ct_t_id GROUP BY 1) c ON c.t_ca_id = customer_account.ca_id
			WHERE ca_bal <> o.bal + coalesce(c.s, 0)`,
		"sells are cash":             "SELECT count(*) FROM trade JOIN trade_type ON tt_id = t_tt_id WHERE tt_is_sell AND NOT t_is_cash",
		"prices on the $20-$30 wave": "SELECT count(*) FROM trade WHERE t_trade_price NOT BETWEEN 20 AND 30 OR t_bid_price NOT BETWEEN 20 AND 30",
		"commission from COMMISSION_RATE": `SELECT count(*) FROM trade JOIN customer_account ON ca_id = t_ca_id JOIN customer ON c_id = ca_c_id JOIN security ON s_symb = t_s_symb
			JOIN commission_rate ON cr_c_tier = c_tier AND cr_tt_id = t_tt_id AND cr_ex_id = s_ex_id AND t_qty BETWEEN cr_from_qty AND cr_to_qty
			WHERE t_comm <> round(t_qty * t_trade_price * cr_rate / 100, 2)`,
		"charge from CHARGE":              "SELECT count(*) FROM trade JOIN customer_account ON ca_id = t_ca_id JOIN customer ON c_id = ca_c_id JOIN charge ON ch_tt_id = t_tt_id AND ch_c_tier = c_tier WHERE t_chrg <> ch_chrg",
		"no tax for non-taxable accounts": "SELECT count(*) FROM trade JOIN customer_account ON ca_id = t_ca_id WHERE ca_tax_st = 0 AND t_tax <> 0",
		"settlement amounts from value, fees and withheld tax": `SELECT count(*) FROM trade JOIN trade_type ON tt_id = t_tt_id JOIN customer_account ON ca_id = t_ca_id JOIN settlement ON se_t_id = t_id
			WHERE se_amt <> CASE WHEN tt_is_sell THEN t_qty * t_trade_price - t_chrg - t_comm ELSE -(t_qty * t_trade_price + t_chrg + t_comm) END
			             - CASE WHEN ca_tax_st = 1 THEN t_tax ELSE 0 END`,
		"lots match their opening trades":           "SELECT count(*) FROM holding JOIN trade ON t_id = h_t_id WHERE h_ca_id <> t_ca_id OR h_s_symb <> t_s_symb OR h_dts <> t_dts OR h_price <> t_trade_price OR abs(h_qty) > t_qty",
		"holding history opens every lot":           "SELECT count(*) FROM holding WHERE NOT EXISTS (SELECT 1 FROM holding_history WHERE hh_h_t_id = h_t_id AND hh_t_id = h_t_id AND hh_before_qty = 0)",
		"accounts trade only their basket's owner":  "SELECT count(*) FROM trade JOIN customer_account ON ca_id = t_ca_id WHERE ca_c_id <> (t_ca_id - 1) / 10 + 1",
		"customers have their tier's account count": "SELECT count(*) FROM (SELECT c_tier, count(ca_id) n FROM customer JOIN customer_account ON ca_c_id = c_id GROUP BY c_id, c_tier) x WHERE (c_tier = 1 AND n NOT BETWEEN 1 AND 4) OR (c_tier = 2 AND n NOT BETWEEN 2 AND 8) OR (c_tier = 3 AND n NOT BETWEEN 5 AND 10)",
		"foreign keys are validated":                "SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND NOT convalidated",
	}
	for name, q := range zero {
		if n := queryInt(t, db, q); n != 0 {
			t.Errorf("%s: %d violations", name, n)
		}
	}
	if n := queryInt(t, db, "SELECT count(*) FROM pg_constraint WHERE contype = 'f'"); n < 40 {
		t.Errorf("only %d foreign keys", n)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM trade WHERE t_tax > 0"); n == 0 {
		t.Error("no trade paid tax on a gain")
	}
	// Tier skew: tier 3 customers (20 %) place about 30 % of the trades.
	var share float64
	if err := db.QueryRow(context.Background(), `SELECT avg(CASE WHEN c_tier = 3 THEN 1.0 ELSE 0 END)::float8 FROM trade
		JOIN customer_account ON ca_id = t_ca_id JOIN customer ON c_id = ca_c_id`).Scan(&share); err != nil {
		t.Fatal(err)
	}
	if share < 0.27 || share > 0.33 {
		t.Errorf("tier 3 share of trades = %.3f, want about 0.30", share)
	}
}

func TestReadMarker(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	empty := open(t, testpg.NewDB(t))
	if _, err := loader.ReadMarker(ctx, empty); !errors.Is(err, loader.ErrNoLoad) || !strings.Contains(err.Error(), "run `brokerbench load` first") {
		t.Errorf("empty database: %v", err)
	}
	db := open(t, testdb.Loaded(t))
	m, err := loader.ReadMarker(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if m.Scale != testdb.Scale || m.Seed != testdb.Seed || m.CompletedAt == nil || m.CompletedAt.Before(m.StartedAt) {
		t.Errorf("marker = %+v", m)
	}
	if _, err := db.Exec(ctx, "UPDATE bb_load SET completed_at = NULL"); err != nil {
		t.Fatal(err)
	}
	if _, err := loader.ReadMarker(ctx, db); !errors.Is(err, loader.ErrUnfinished) || !strings.Contains(err.Error(), "--drop") {
		t.Errorf("unfinished load: %v", err)
	}
	// Load refuses both states without Drop, naming --drop.
	o := loader.Options{Scale: testdb.Scale, Seed: testdb.Seed}
	if _, err := loader.Load(ctx, db, o, nil); !errors.Is(err, loader.ErrUnfinished) || !strings.Contains(err.Error(), "--drop") {
		t.Errorf("load over an unfinished load: %v", err)
	}
	if _, err := db.Exec(ctx, "UPDATE bb_load SET completed_at = started_at"); err != nil {
		t.Fatal(err)
	}
	if _, err := loader.Load(ctx, db, o, nil); !errors.Is(err, loader.ErrSchemaExists) || !strings.Contains(err.Error(), "--drop") {
		t.Errorf("load over a schema: %v", err)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM trade"); n != testdb.Scale.Trades() {
		t.Errorf("a refused load changed the data: %d trades", n)
	}
}

// A canceled load stops promptly and leaves its marker unfinished; Drop then clears
// everything.
func TestCanceledLoadLeavesUnfinishedMarker(t *testing.T) {
	t.Parallel()
	db := open(t, testpg.NewDB(t))
	ctx, cancel := context.WithCancel(context.Background())
	tr := loader.NewTracker(testdb.Scale)
	go func() {
		for tr.Phase() != loader.PhaseGenerate {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(500 * time.Millisecond)
		cancel()
	}()
	start := time.Now()
	_, err := loader.Load(ctx, db, loader.Options{Scale: testdb.Scale, Seed: 1}, tr)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("canceled load returned %v", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("cancel took %s", d)
	}
	if _, err := loader.ReadMarker(context.Background(), db); !errors.Is(err, loader.ErrUnfinished) {
		t.Errorf("after cancel: %v", err)
	}
	if err := loader.Drop(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	if left, err := loader.ExistingTables(context.Background(), db); err != nil || len(left) != 0 {
		t.Errorf("after drop: %v %v", left, err)
	}
}

// DAILY_MARKET is stored in (dm_s_symb, dm_date) order: the planner sees a correlation
// of about 1 for dm_s_symb (it costs index scans by it), and a Security-Detail read of
// 20 consecutive days of one symbol touches at most two heap pages. The other history
// tables' correlations are logged for docs/workload.md §5.3.
func TestLoadedDailyMarketInSymbolOrder(t *testing.T) {
	t.Parallel()
	db := open(t, testdb.Loaded(t))
	ctx := context.Background()
	correlation := func(table, column string) float64 {
		t.Helper()
		var c *float64
		if err := db.QueryRow(ctx, "SELECT correlation::float8 FROM pg_stats WHERE schemaname = current_schema() AND tablename = $1 AND attname = $2",
			table, column).Scan(&c); err != nil {
			t.Fatalf("pg_stats for %s.%s: %v", table, column, err)
		}
		if c == nil {
			t.Fatalf("pg_stats has no correlation for %s.%s", table, column)
		}
		return *c
	}
	if c := correlation("daily_market", "dm_s_symb"); c < 0.99 {
		t.Errorf("pg_stats.correlation of dm_s_symb = %.3f, want about 1", c)
	}
	pages := queryInt(t, db, `SELECT max(n) FROM (
		SELECT count(DISTINCT (ctid::text::point)[0]) n FROM (
			SELECT ctid, dm_s_symb, row_number() OVER (PARTITION BY dm_s_symb ORDER BY dm_date) d FROM daily_market
			WHERE dm_s_symb IN (SELECT s_symb FROM security ORDER BY s_symb LIMIT 50)) x
		WHERE d BETWEEN 600 AND 619 GROUP BY dm_s_symb) y`)
	if pages > 2 {
		t.Errorf("20 consecutive days of one symbol span up to %d heap pages, want at most 2", pages)
	}
	for _, tc := range [][2]string{{"daily_market", "dm_date"}, {"trade", "t_id"}, {"trade", "t_dts"}, {"trade", "t_ca_id"},
		{"trade", "t_s_symb"}, {"trade_history", "th_t_id"}, {"settlement", "se_t_id"}, {"cash_transaction", "ct_t_id"},
		{"holding_history", "hh_h_t_id"}, {"holding_history", "hh_t_id"}, {"holding", "h_ca_id"}, {"holding_summary", "hs_ca_id"},
		{"financial", "fi_co_id"}, {"watch_item", "wi_wl_id"}, {"customer_account", "ca_c_id"}} {
		t.Logf("correlation %s.%s = %.3f", tc[0], tc[1], correlation(tc[0], tc[1]))
	}
}
