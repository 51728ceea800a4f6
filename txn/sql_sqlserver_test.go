package txn

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/schema"
)

// sqlserverTexts lists every rendered T-SQL statement by name.
func sqlserverTexts() map[string]string {
	st := SQLServerSQL()
	out := map[string]string{}
	for _, s := range registry {
		out[s.Name] = st.of(s)
	}
	return out
}

// TestSQLServerStatementsAreTSQL rejects PostgreSQL-only syntax and unrendered
// placeholders, and checks the forms the T-SQL set relies on.
func TestSQLServerStatementsAreTSQL(t *testing.T) {
	ms := sqlserverTexts()
	bad := regexp.MustCompile(`\$[0-9]|\bLIMIT\b|FOR UPDATE|nextval|INTERVAL|EXTRACT|::|\bMERGE\b|\bILIKE\b|string_agg|NOT t_is_cash|t_is_cash AND|\bOFFSET\b`)
	for n, s := range ms {
		if m := bad.FindString(s); m != "" {
			t.Errorf("%s: %q is not T-SQL (or not wanted): %s", n, m, s)
		}
	}
	st := SQLServerSQL()
	if s := st.of(tradeOrderNextTradeID); s != "SELECT NEXT VALUE FOR "+schema.TradeIDSequence {
		t.Errorf("trade ids: %s", s)
	}
	for _, s := range []*Statement{tradeResultTrade, tradeResultAccount, tradeResultLotsAsc, tradeResultLotsDesc} {
		if !strings.Contains(st.of(s), "WITH (UPDLOCK, ROWLOCK)") {
			t.Errorf("Trade-Result row lock missing: %s", st.of(s))
		}
	}
	// Every LIMIT of PostgreSQL became a TOP.
	pg := PostgresSQL()
	for _, s := range registry {
		if strings.Count(pg.of(s), "LIMIT") != strings.Count(st.of(s), "TOP ") {
			t.Errorf("%s: %d LIMIT in PostgreSQL, %d TOP in T-SQL", s.Name, strings.Count(pg.of(s), "LIMIT"), strings.Count(st.of(s), "TOP "))
		}
	}
	// Every Money value is cast to its column's DECIMAL, stored or compared.
	for _, s := range []*Statement{tradeOrderInsertTrade, tradeOrderInsertRequest, tradeResultInsertHolding, tradeResultUpdateTax,
		tradeResultCompleteTrade, tradeResultInsertSettlement, tradeResultInsertCash, marketFeedUpdateLastTrade} {
		if !strings.Contains(st.of(s), " AS DECIMAL(") {
			t.Errorf("money stored without a cast: %s", st.of(s))
		}
	}
	// Casts name the schema's types.
	if !strings.Contains(st.of(customerPositionByTaxID), "c_tax_id = CAST(@p1 AS VARCHAR(20))") ||
		!strings.Contains(st.of(tradeResultUpdateBroker), "b_comm_total + CAST(@p1 AS DECIMAL(12,2))") ||
		!strings.Contains(st.of(securityDetailDays), "dm_date >= CAST(@p2 AS DATE)") ||
		!strings.Contains(st.of(tradeLookupFirstTrade), "t_dts >= CAST(@p2 AS DATETIME2(3))") {
		t.Error("casts do not follow the schema's column types")
	}
}

// TestSQLServerStringParamsCast: the pool binds strings as VARCHAR(MAX), which
// SQL Server will not use for an index seek unless cast; every comparison of a text
// column with a parameter must therefore go through CAST.
func TestSQLServerStringParamsCast(t *testing.T) {
	text := map[string]bool{}
	for _, tb := range append(schema.Tables(), schema.MetaTables()...) {
		for _, c := range tb.Columns {
			if c.Type.Kind == schema.Varchar {
				text[c.Name] = true
			}
		}
	}
	cmp := regexp.MustCompile(`([a-z0-9_]+) *(=|<>|<=|>=|<|>|IN \() *@p[0-9]+`)
	for n, s := range sqlserverTexts() {
		if i := strings.Index(s, " SET "); i >= 0 && strings.HasPrefix(s, "UPDATE") {
			// Assignments convert to the column type by themselves; look at WHERE only.
			if w := strings.Index(s, "WHERE"); w >= 0 {
				s = s[w:]
			} else {
				s = ""
			}
		}
		for _, m := range cmp.FindAllStringSubmatch(s, -1) {
			if text[m[1]] {
				t.Errorf("%s: text column %s compared with an uncast parameter: %q", n, m[1], m[0])
			}
		}
	}
}

// The integration suite on SQL Server (BROKERBENCH_SQLSERVER_DSN): a copy of the test
// load, each transaction's effects, a short concurrent run, then `check`. Without the
// variable every test below is skipped with one line.

func sqlserverLoaded(t *testing.T, conns int) database.DB {
	t.Helper()
	return testpg.OpenDB(t, testdb.SQLServerLoaded(t), database.Options{MaxConns: conns, AppName: "brokerbench-test"})
}

func msQ1[T any](t testing.TB, db database.DB, sql string, args ...any) T {
	t.Helper()
	var v T
	if err := db.QueryRow(context.Background(), sql, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return v
}

// sqlserverBaseline is what check finds before a test changes anything. On a server
// that restores a fresh copy per test it is nothing, and no query is spent on it;
// where the package's tests share one load (testdb.SQLServerLoaded), it is what
// earlier tests left, which a test must not be blamed for.
func sqlserverBaseline(t *testing.T, db database.DB) map[string]bool {
	t.Helper()
	if testdb.SQLServerProbe(t).Restores() {
		return nil
	}
	v, err := Check(context.Background(), db, testdb.Scale)
	if err != nil {
		t.Fatalf("check before the test: %v", err)
	}
	seen := map[string]bool{}
	for _, x := range v {
		seen[x.String()] = true
	}
	if len(seen) > 0 {
		t.Logf("the shared test database starts with %d violations an earlier test left; only new ones count", len(seen))
	}
	return seen
}

// sqlserverNewViolations runs check and returns the violations not in before.
func sqlserverNewViolations(t *testing.T, db database.DB, before map[string]bool) []Violation {
	t.Helper()
	v, err := Check(context.Background(), db, testdb.Scale)
	if err != nil {
		t.Fatalf("check on SQL Server: %v (StatementsFor must return SQLServerSQL for database.SQLServer)", err)
	}
	var out []Violation
	for _, x := range v {
		if !before[x.String()] {
			out = append(out, x)
		}
	}
	return out
}

func sqlserverNoViolations(t *testing.T, db database.DB, before map[string]bool) {
	t.Helper()
	for _, x := range sqlserverNewViolations(t, db, before) {
		t.Errorf("violation: %s", x)
	}
}

func TestSQLServerCheckAfterLoad(t *testing.T) {
	db := sqlserverLoaded(t, 2)
	before := sqlserverBaseline(t, db)
	sqlserverNoViolations(t, db, before)
	ctx := context.Background()
	const bump = "UPDATE broker SET b_num_trades = b_num_trades + @p1 WHERE b_id = @p2"
	if _, err := db.Exec(ctx, bump, 1, schema.BrokerID(0)); err != nil {
		t.Fatal(err)
	}
	// Put it back: where tests share the load, the next one checks it too.
	t.Cleanup(func() {
		if _, err := db.Exec(context.Background(), bump, -1, schema.BrokerID(0)); err != nil {
			t.Errorf("undo the broker change: %v", err)
		}
	})
	v := sqlserverNewViolations(t, db, before)
	if len(v) != 1 || v[0].Check != "broker totals" {
		t.Fatalf("new violations %v, want one broker total", v)
	}
}

func TestSQLServerReadOnlyTransactions(t *testing.T) {
	db := sqlserverLoaded(t, 2)
	e := NewExecutor(db, SQLServerSQL(), testdb.Scale, 42, 1).(*executor)
	ctx := context.Background()
	for i := 0; i < 20; i++ {
		_, tl, err := e.tradeLookup(ctx, e.gen.TradeLookup())
		if err != nil {
			t.Fatalf("Trade-Lookup: %v", err)
		}
		if tl.Frame == 1 && len(tl.Trades) != 20 {
			t.Fatalf("Trade-Lookup frame 1 found %d trades", len(tl.Trades))
		}
		in := e.gen.SecurityDetail()
		in.AccessLOB = i%2 == 0
		_, sd, err := e.securityDetail(ctx, in)
		if err != nil {
			t.Fatalf("Security-Detail: %v", err)
		}
		if sd.Financials != 20 || sd.News != 2 || sd.DayRows < 5 || in.AccessLOB && sd.NewsBytes == 0 {
			t.Fatalf("Security-Detail %+v", sd)
		}
		_, cp, err := e.customerPosition(ctx, e.gen.CustomerPosition())
		if err != nil {
			t.Fatalf("Customer-Position: %v", err)
		}
		if n := len(cp.Accounts); n != schema.AccountCount(cp.CustID) {
			t.Fatalf("Customer-Position: %d accounts, customer has %d", n, schema.AccountCount(cp.CustID))
		}
		mwIn := e.gen.MarketWatch()
		_, mw, err := e.marketWatch(ctx, mwIn)
		if err != nil {
			t.Fatalf("Market-Watch: %v", err)
		}
		if mwIn.By == WatchByWatchList && (mw.Symbols < 50 || mw.Symbols > 150) {
			t.Fatalf("Market-Watch: %d symbols", mw.Symbols)
		}
		_, ts, err := e.tradeStatus(ctx, e.gen.TradeStatus())
		if err != nil || ts.BrokerName == "" {
			t.Fatalf("Trade-Status %+v: %v", ts, err)
		}
		for _, k := range []Kind{BrokerVolume, TradeUpdate} {
			if _, err := e.Run(ctx, k); err != nil {
				t.Fatalf("%s: %v", k, err)
			}
		}
	}
}

func TestSQLServerTradeFlow(t *testing.T) {
	db := sqlserverLoaded(t, 2)
	before := sqlserverBaseline(t, db)
	e := NewExecutor(db, SQLServerSQL(), testdb.Scale, 42, 1).(*executor)
	ctx := context.Background()
	order := func(tt string, mutate func(*TradeOrderInput)) MarketRequest {
		t.Helper()
		in := e.gen.TradeOrder()
		tp, _ := schema.TradeTypeByID(tt)
		in.TradeType, in.IsLimit, in.IsSell, in.Rollback = tt, !tp.IsMarket, tp.IsSell, false
		if tp.IsSell {
			in.IsMargin = false
		}
		if mutate != nil {
			mutate(&in)
		}
		o, err := e.tradeOrder(ctx, in)
		if err != nil || len(o.ToMarket) != 1 {
			t.Fatalf("Trade-Order %s: %+v %v", tt, o, err)
		}
		m := o.ToMarket[0]
		want, reqs := schema.StatusSubmitted, int64(0)
		if !tp.IsMarket {
			want, reqs = schema.StatusPending, 1
		}
		if st := msQ1[string](t, db, "SELECT t_st_id FROM trade WHERE t_id = @p1", m.TradeID); st != want {
			t.Fatalf("%s %d: status %s, want %s", tt, m.TradeID, st, want)
		}
		if n := msQ1[int64](t, db, "SELECT COUNT_BIG(*) FROM trade_request WHERE tr_t_id = @p1", m.TradeID); n != reqs {
			t.Fatalf("%s %d: %d requests", tt, m.TradeID, n)
		}
		if m.TradeID < testdb.Scale.FirstRunTradeID() {
			t.Fatalf("trade id %d below the sequence start %d", m.TradeID, testdb.Scale.FirstRunTradeID())
		}
		return m
	}

	// Market orders complete with their effects on balance, broker and holdings.
	first := order(schema.MarketBuy, func(in *TradeOrderInput) { in.IsMargin = false })
	acct := msQ1[int64](t, db, "SELECT t_ca_id FROM trade WHERE t_id = @p1", first.TradeID)
	broker := schema.AccountBroker(acct)
	same := func(in *TradeOrderInput) {
		in.AcctID, in.SecIndex, in.Symbol, in.ByCompany = acct, first.SecIndex, first.Symbol, false
		h := schema.AccountHolders(acct)[0]
		in.ExecFirst, in.ExecLast, in.ExecTaxID = h.First, h.Last, h.TaxID
	}
	orders := []MarketRequest{first}
	for i, tt := range []string{schema.MarketSell, schema.MarketBuy, schema.MarketSell} {
		orders = append(orders, order(tt, func(in *TradeOrderInput) {
			same(in)
			in.Qty = []int{400, 100, 800}[i]
			in.LIFO = i%2 == 0
			in.IsMargin = false
		}))
	}
	for _, m := range orders {
		balBefore := msQ1[Money](t, db, "SELECT ca_bal FROM customer_account WHERE ca_id = @p1", acct)
		nBefore := msQ1[int64](t, db, "SELECT b_num_trades FROM broker WHERE b_id = @p1", broker)
		_, res, err := e.tradeResult(ctx, m.TradeID, Money(m.Price))
		if err != nil {
			t.Fatalf("Trade-Result %d: %v", m.TradeID, err)
		}
		se := msQ1[Money](t, db, "SELECT se_amt FROM settlement WHERE se_t_id = @p1", m.TradeID)
		bal := msQ1[Money](t, db, "SELECT ca_bal FROM customer_account WHERE ca_id = @p1", acct)
		n := msQ1[int64](t, db, "SELECT b_num_trades FROM broker WHERE b_id = @p1", broker)
		st := msQ1[string](t, db, "SELECT t_st_id FROM trade WHERE t_id = @p1", m.TradeID)
		if st != schema.StatusCompleted || bal != balBefore+se || res.Balance != bal || n != nBefore+1 || res.Comm <= 0 {
			t.Fatalf("trade %d: status %s, balance %s -> %s (settlement %s, reported %s), broker trades %d -> %d",
				m.TradeID, st, balBefore, bal, se, res.Balance, nBefore, n)
		}
	}
	hs := msQ1[int64](t, db, "SELECT COALESCE(SUM(hs_qty), 0) FROM holding_summary WHERE hs_ca_id = @p1 AND hs_s_symb = @p2", acct, first.Symbol)
	lots := msQ1[int64](t, db, "SELECT COALESCE(SUM(h_qty), 0) FROM holding WHERE h_ca_id = @p1 AND h_s_symb = @p2", acct, first.Symbol)
	if hs != lots {
		t.Fatalf("holding summary %d, lots %d", hs, lots)
	}
	if _, _, err := e.tradeResult(ctx, first.TradeID, Money(first.Price)); !IsCheck(err) {
		t.Fatalf("second Trade-Result: %v, want a check error", err)
	}

	// Limit orders wait until Market-Feed's quote reaches them.
	buy := order(schema.LimitBuy, func(in *TradeOrderInput) { in.RequestedPrice = 2500 })
	stop := order(schema.StopLoss, func(in *TradeOrderInput) { in.RequestedPrice = 2500 })
	o, err := e.MarketFeed(ctx, []TickerEntry{{Symbol: buy.Symbol, Price: 2600, Qty: 100}, {Symbol: stop.Symbol, Price: 2600, Qty: 100}})
	if err != nil || len(o.ToMarket) != 0 {
		t.Fatalf("nothing should trigger: %+v %v", o, err)
	}
	if p := msQ1[Money](t, db, "SELECT lt_price FROM last_trade WHERE lt_s_symb = @p1", stop.Symbol); p != 2600 {
		t.Fatalf("last trade price %s, want 26.00", p)
	}
	o, err = e.MarketFeed(ctx, []TickerEntry{{Symbol: buy.Symbol, Price: 2450, Qty: 100}, {Symbol: stop.Symbol, Price: 2500, Qty: 100}})
	if err != nil || len(o.ToMarket) != 2 {
		t.Fatalf("both should trigger: %+v %v", o, err)
	}
	for _, m := range o.ToMarket {
		// Two history rows, pending then submitted (no STRING_AGG ... WITHIN GROUP:
		// not every T-SQL server has it).
		var n int64
		var first, last string
		if err := db.QueryRow(ctx, "SELECT COUNT_BIG(*), MIN(th_st_id), MAX(th_st_id) FROM trade_history WHERE th_t_id = @p1", m.TradeID).Scan(&n, &first, &last); err != nil {
			t.Fatal(err)
		}
		if n != 2 || first != schema.StatusPending || last != schema.StatusSubmitted {
			t.Fatalf("%d history: %d rows, %s..%s, want PNDG and SBMT", m.TradeID, n, first, last)
		}
		if _, err := e.TradeResult(ctx, m.TradeID, m.Price); err != nil {
			t.Fatal(err)
		}
	}

	// A rolled-back order writes nothing.
	trades := msQ1[int64](t, db, "SELECT COUNT_BIG(*) FROM trade")
	in := e.gen.TradeOrder()
	in.Rollback = true
	if o, err := e.tradeOrder(ctx, in); err != nil || !o.RolledBack {
		t.Fatalf("rollback: %+v %v", o, err)
	}
	if after := msQ1[int64](t, db, "SELECT COUNT_BIG(*) FROM trade"); after != trades {
		t.Fatalf("rolled-back order left %d trades", after-trades)
	}

	// Trade-Cleanup cancels what is left: one pending limit order, one submitted.
	limit := order(schema.LimitBuy, nil)
	market := order(schema.MarketBuy, nil)
	_, cl, err := e.tradeCleanupRun(ctx)
	if err != nil || cl.Pending != 1 || cl.Submitted != 1 {
		t.Fatalf("cleanup %+v %v", cl, err)
	}
	for _, id := range []int64{limit.TradeID, market.TradeID} {
		if st := msQ1[string](t, db, "SELECT t_st_id FROM trade WHERE t_id = @p1", id); st != schema.StatusCanceled {
			t.Errorf("trade %d is %s after cleanup", id, st)
		}
	}
	sqlserverNoViolations(t, db, before)
}

func TestSQLServerDataMaintenance(t *testing.T) {
	db := sqlserverLoaded(t, 2)
	before := sqlserverBaseline(t, db)
	e := NewExecutor(db, SQLServerSQL(), testdb.Scale, 42, 1, WithClock(func() time.Time {
		return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	})).(*executor)
	ctx := context.Background()
	seen := map[string]bool{}
	for i := 0; i < len(DMTables); i++ {
		in := e.gen.DataMaintenance()
		_, res, err := e.dataMaintenanceRun(ctx, in)
		if err != nil {
			t.Fatalf("%s: %v", in.Table, err)
		}
		if res.Changed == 0 {
			t.Errorf("%s: no row changed", in.Table)
		}
		seen[in.Table] = true
	}
	if len(seen) != len(DMTables) {
		t.Fatalf("tables %v", seen)
	}
	sqlserverNoViolations(t, db, before)
}

// TestSQLServerShortRun runs the customer mix on four workers for a few seconds with
// a small market: market orders are completed, lock waits and deadlock victims are
// retried by the executor. Anything else fails the test, and check must pass after.
func TestSQLServerShortRun(t *testing.T) {
	db := sqlserverLoaded(t, 6)
	before := sqlserverBaseline(t, db)
	ctx := context.Background()
	deadline := time.Now().Add(5 * time.Second)
	var kinds []Kind
	for _, s := range Catalogue {
		if s.Origin == Customer {
			kinds = append(kinds, s.Kind)
		}
	}
	errs := make(chan error, 4)
	counts := make(chan int, 4)
	for w := 0; w < 4; w++ {
		go func(w int) {
			e := NewExecutor(db, SQLServerSQL(), testdb.Scale, 42, w+10)
			n := 0
			for i := w; time.Now().Before(deadline); i++ {
				o, err := e.Run(ctx, kinds[i%len(kinds)])
				var gu *GiveUpError
				if errors.As(err, &gu) {
					continue // contention beyond the retry bound: counted by the driver, not a bug
				}
				if err != nil {
					errs <- fmt.Errorf("%s: %w", kinds[i%len(kinds)], err)
					return
				}
				for _, m := range o.ToMarket {
					if m.IsLimit {
						continue
					}
					if _, err := e.TradeResult(ctx, m.TradeID, m.Price); err != nil && !errors.As(err, &gu) {
						errs <- fmt.Errorf("Trade-Result %d: %w", m.TradeID, err)
						return
					}
				}
				n++
			}
			counts <- n
			errs <- nil
		}(w)
	}
	total := 0
	for w := 0; w < 4; w++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
		total += <-counts
	}
	t.Logf("%d transactions in 5 s on 4 workers", total)
	if total == 0 {
		t.Fatal("no transaction completed")
	}
	sqlserverNoViolations(t, db, before)
}

// sqlserverModes is the cross-mode test's SQL Server (docs/workload.md §13): two
// databases holding the test load (testdb.SQLServerOwnLoaded), every table
// fingerprinted whole with CHECKSUM(*) (T-SQL has no row versions telling the rows a
// run wrote; both loads are the same rows), but for the load marker, whose times are
// each load's own.
func sqlserverModes() modeEngine {
	return modeEngine{
		open: func(t *testing.T) (database.DB, database.DB) {
			dsn := testdb.SQLServerOwnLoaded(t, 2)
			o := database.Options{MaxConns: 4, AppName: "brokerbench-test"}
			return testpg.OpenDB(t, dsn[0], o), testpg.OpenDB(t, dsn[1], o)
		},
		sql:          SQLServerSQL(),
		mark:         func(*testing.T, database.DB) int64 { return 0 },
		fingerprints: sqlserverFingerprints,
		noViolations: func(t *testing.T, db database.DB) { sqlserverNoViolations(t, db, nil) },
	}
}

func sqlserverFingerprints(db database.DB, _ int64) (map[string]string, error) {
	out := map[string]string{}
	for _, tb := range append(schema.Tables(), schema.MetaTables()...) {
		if tb.Name == schema.LoadMarkerTable {
			continue
		}
		var n, sum int64
		q := fmt.Sprintf("SELECT COUNT_BIG(*), COALESCE(SUM(CAST(CHECKSUM(*) AS BIGINT)), 0) FROM %s", tb.Name)
		if err := db.QueryRow(context.Background(), q).Scan(&n, &sum); err != nil {
			return nil, fmt.Errorf("%s: %w", tb.Name, err)
		}
		out[tb.Name] = fmt.Sprintf("%d rows, %d", n, sum)
	}
	return out, nil
}

// TestSQLServerFramesServerDoesTheClientsWork is the cross-mode test on SQL Server:
// every transaction in client mode and through the T-SQL procedures, with the same
// outcomes, outputs, checks and rows after.
func TestSQLServerFramesServerDoesTheClientsWork(t *testing.T) {
	framesServerDoesTheClientsWork(t, sqlserverModes())
}
