package txn

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testmdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/schema"
)

func TestMain(m *testing.M) {
	code := testpg.Main(m)
	testmdb.Stop()
	os.Exit(code)
}

// loadedDB opens a fresh clone of the loaded test database.
func loadedDB(t testing.TB, conns int) database.DB {
	t.Helper()
	return testpg.OpenDB(t, testdb.Loaded(t), database.Options{MaxConns: conns})
}

// newTestExecutor runs the workload's statements for db's engine.
func newTestExecutor(db database.DB, worker int, opts ...Option) *executor {
	return NewExecutor(db, statementsOf(db), testdb.Scale, 42, worker, opts...).(*executor)
}

func statementsOf(db database.DB) *Statements {
	st, err := StatementsFor(db.Name())
	if err != nil {
		panic(err) // a test database of an engine without statements: a bug in the test
	}
	return st
}

// sqlOf turns a test's portable SQL ($1 placeholders) into db's, as the
// workload's statements are: the same test queries run on every engine.
func sqlOf(db database.DB, portable string) string {
	e, err := database.Of(db)
	if err != nil {
		panic(err)
	}
	return e.SQL(portable)
}

func mustNoViolations(t *testing.T, db database.DB) {
	t.Helper()
	v, err := Check(context.Background(), db, testdb.Scale)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range v {
		t.Errorf("violation: %s", x)
	}
}

// q1 reads one value.
func q1[T any](t testing.TB, db database.DB, sql string, args ...any) T {
	t.Helper()
	var v T
	if err := db.QueryRow(context.Background(), sqlOf(db, sql), args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return v
}

// historyOf lists a trade's history statuses in order, comma-separated.
func historyOf(t testing.TB, db database.DB, tradeID int64) string {
	t.Helper()
	rows, err := db.Query(context.Background(), sqlOf(db, "SELECT th_st_id FROM trade_history WHERE th_t_id = $1 ORDER BY th_st_id"), tradeID)
	var out []string
	err = scanRows(rows, err, func(r database.Rows) error {
		out = append(out, "")
		return r.Scan(&out[len(out)-1])
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(out, ",")
}

// rowsDigest is a digest of a query's rows, in any order: equal before and after
// a change that did not touch them. Values are compared as the engine's client
// returns them, so only digests from one database compare.
func rowsDigest(t testing.TB, db database.DB, sql string, args ...any) string {
	t.Helper()
	rows, err := db.Query(context.Background(), sqlOf(db, sql), args...)
	var lines []string
	err = scanRows(rows, err, func(r database.Rows) error {
		// One destination per column of the select list (the test's queries have no
		// comma in an expression).
		cols := strings.Count(sql[:strings.Index(sql, " FROM ")], ",") + 1
		dest := make([]any, cols)
		for i := range dest {
			dest[i] = new(any)
		}
		if err := r.Scan(dest...); err != nil {
			return err
		}
		var line strings.Builder
		for _, d := range dest {
			v := *d.(*any)
			if bs, ok := v.([]byte); ok {
				v = string(bs)
			}
			fmt.Fprintf(&line, "%v|", v)
		}
		lines = append(lines, line.String())
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	slices.Sort(lines)
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(sum[:])
}

func testCheckPassesAfterLoad(t *testing.T, db database.DB) {
	mustNoViolations(t, db)
	// And it finds a broken invariant.
	ctx := context.Background()
	if _, err := db.Exec(ctx, sqlOf(db, "UPDATE broker SET b_num_trades = b_num_trades + 1 WHERE b_id = $1"), schema.BrokerID(0)); err != nil {
		t.Fatal(err)
	}
	// The derived table: MySQL refuses a subquery on the table being updated.
	if _, err := db.Exec(ctx, "UPDATE customer_account SET ca_bal = ca_bal + 1 WHERE ca_id = (SELECT m FROM (SELECT MIN(ca_id) AS m FROM customer_account) x)"); err != nil {
		t.Fatal(err)
	}
	v, err := Check(ctx, db, testdb.Scale)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, x := range v {
		got[x.Check]++
	}
	if got["broker totals"] != 1 || got["cash balance"] != 1 || len(v) != 2 {
		t.Fatalf("violations %v, want one broker and one balance", v)
	}
}

func testReadOnlyTransactionsMeetTheReferenceChecks(t *testing.T, db database.DB) {
	e := newTestExecutor(db, 1)
	ctx := context.Background()
	for i := 0; i < 40; i++ {
		o, res, err := e.tradeLookup(ctx, e.gen.TradeLookup())
		if err != nil {
			t.Fatalf("Trade-Lookup: %v", err)
		}
		if res.Frame == 1 && len(res.Trades) != 20 {
			t.Fatalf("Trade-Lookup frame 1 found %d trades", len(res.Trades))
		}
		if (res.Frame == 2 || res.Frame == 3) && len(res.Trades) == 0 {
			t.Logf("Trade-Lookup frame %d: empty window", res.Frame)
		}
		if o.Attempts != 1 || o.Statements == 0 || o.ServiceStart.IsZero() {
			t.Fatalf("outcome %+v", o)
		}
		_, sd, err := e.securityDetail(ctx, e.gen.SecurityDetail())
		if err != nil {
			t.Fatalf("Security-Detail: %v", err)
		}
		if sd.Financials != 20 || sd.News != 2 || sd.DayRows < 5 {
			t.Fatalf("Security-Detail %+v", sd)
		}
		_, cp, err := e.customerPosition(ctx, e.gen.CustomerPosition())
		if err != nil {
			t.Fatalf("Customer-Position: %v", err)
		}
		if n := len(cp.Accounts); n < 1 || n > 10 || n != schema.AccountCount(cp.CustID) {
			t.Fatalf("Customer-Position: %d accounts, customer has %d", n, schema.AccountCount(cp.CustID))
		}
		in := e.gen.MarketWatch()
		_, mw, err := e.marketWatch(ctx, in)
		if err != nil {
			t.Fatalf("Market-Watch: %v", err)
		}
		if in.By == WatchByWatchList && (mw.Symbols < 50 || mw.Symbols > 150) {
			t.Fatalf("Market-Watch: %d symbols", mw.Symbols)
		}
		_, ts, err := e.tradeStatus(ctx, e.gen.TradeStatus())
		if err != nil {
			t.Fatalf("Trade-Status: %v", err)
		}
		if ts.BrokerName == "" || len(ts.Trades) > 50 {
			t.Fatalf("Trade-Status %+v", ts)
		}
		if _, err := e.Run(ctx, BrokerVolume); err != nil {
			t.Fatalf("Broker-Volume: %v", err)
		}
	}
	// The LOB variant reads the news text.
	in := e.gen.SecurityDetail()
	in.AccessLOB = true
	if _, sd, err := e.securityDetail(ctx, in); err != nil || sd.NewsBytes == 0 {
		t.Fatalf("Security-Detail with LOB: %+v %v", sd, err)
	}
	// Each Trade-Lookup frame at least once with a result.
	for f := 1; f <= 4; f++ {
		found := false
		for i := 0; i < 50 && !found; i++ {
			in := e.gen.TradeLookup()
			if in.Frame != f {
				continue
			}
			_, res, err := e.tradeLookup(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			found = len(res.Trades) > 0 && (f != 4 || len(res.HoldingHistory) > 0)
		}
		if !found {
			t.Errorf("Trade-Lookup frame %d never returned a trade", f)
		}
	}
}

func testBrokerVolumeSumsPendingOrders(t *testing.T, db database.DB) {
	e := newTestExecutor(db, 1)
	ctx := context.Background()
	// Place limit orders until some exist, then ask for all brokers in every sector.
	placed := 0
	for placed < 30 {
		in := e.gen.TradeOrder()
		in.Rollback, in.IsLimit, in.TradeType, in.IsSell = false, true, schema.LimitBuy, false
		o, err := e.tradeOrder(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if !o.RolledBack {
			placed++
		}
	}
	var names []string
	for b := int64(0); b < testdb.Scale.Brokers(); b++ {
		names = append(names, schema.BrokerName(schema.BrokerID(b)))
	}
	var total Money
	for _, sec := range schema.Sectors {
		_, rows, err := e.brokerVolumeRun(ctx, BrokerVolumeInput{BrokerNames: names, SectorName: sec})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			total += r.Volume
		}
	}
	want := q1[Money](t, db, "SELECT SUM(tr_qty * tr_bid_price) FROM trade_request")
	if total != want || total == 0 {
		t.Fatalf("Broker-Volume over all sectors %s, pending volume %s", total, want)
	}
}

func testTradeOrderWritesTheOrder(t *testing.T, db database.DB) {
	e := newTestExecutor(db, 1)
	ctx := context.Background()
	for _, c := range []struct {
		tt      string
		limit   bool
		sell    bool
		byCo    bool
		hist    string
		request int
	}{
		{schema.MarketBuy, false, false, false, schema.StatusSubmitted, 0},
		{schema.MarketSell, false, true, true, schema.StatusSubmitted, 0},
		{schema.LimitBuy, true, false, true, schema.StatusPending, 1},
		{schema.StopLoss, true, true, false, schema.StatusPending, 1},
		{schema.LimitSell, true, true, false, schema.StatusPending, 1},
	} {
		in := e.gen.TradeOrder()
		in.TradeType, in.IsLimit, in.IsSell, in.Rollback = c.tt, c.limit, c.sell, false
		in.ByCompany = c.byCo
		in.CoName = schema.CompanyName(schema.SecurityCompany(in.SecIndex))
		in.Issue = schema.SecurityIssue(in.SecIndex)
		if c.sell {
			in.IsMargin = false
		}
		o, err := e.tradeOrder(ctx, in)
		if err != nil {
			t.Fatalf("%s: %v", c.tt, err)
		}
		if o.RolledBack || len(o.ToMarket) != 1 {
			t.Fatalf("%s: outcome %+v", c.tt, o)
		}
		m := o.ToMarket[0]
		if m.TradeID < testdb.Scale.FirstRunTradeID() || m.Symbol != in.Symbol || m.SecIndex != in.SecIndex || m.Qty != in.Qty || m.IsLimit != c.limit || m.TradeType != c.tt {
			t.Fatalf("%s: market request %+v for input %+v", c.tt, m, in)
		}
		if c.limit && m.Price != int64(in.RequestedPrice) {
			t.Fatalf("%s: limit price %d, want %d", c.tt, m.Price, in.RequestedPrice)
		}
		st := q1[string](t, db, "SELECT t_st_id FROM trade WHERE t_id = $1", m.TradeID)
		comm := q1[Money](t, db, "SELECT t_comm FROM trade WHERE t_id = $1", m.TradeID)
		chrg := q1[Money](t, db, "SELECT t_chrg FROM trade WHERE t_id = $1", m.TradeID)
		cash := q1[bool](t, db, "SELECT t_is_cash FROM trade WHERE t_id = $1", m.TradeID)
		hist := historyOf(t, db, m.TradeID)
		req := q1[int64](t, db, "SELECT COUNT(*) FROM trade_request WHERE tr_t_id = $1", m.TradeID)
		if st != c.hist || hist != c.hist || req != int64(c.request) || comm <= 0 || chrg <= 0 || cash == in.IsMargin {
			t.Fatalf("%s: status %s history %s requests %d comm %s charge %s cash %v", c.tt, st, hist, req, comm, chrg, cash)
		}
	}
	// A rolled-back order writes nothing, but consumes its id.
	before := q1[int64](t, db, "SELECT COUNT(*) FROM trade")
	in := e.gen.TradeOrder()
	in.Rollback = true
	o, err := e.tradeOrder(ctx, in)
	if err != nil || !o.RolledBack || len(o.ToMarket) != 0 {
		t.Fatalf("rollback: %+v %v", o, err)
	}
	if after := q1[int64](t, db, "SELECT COUNT(*) FROM trade"); after != before {
		t.Fatalf("rolled-back order left %d trades", after-before)
	}
	// An executor without permission is refused with a rollback, not an error.
	in = e.gen.TradeOrder()
	in.Rollback, in.ExecFirst, in.ExecLast, in.ExecTaxID = false, "No", "Body", "000-none"
	o, err = e.tradeOrder(ctx, in)
	if err != nil || !o.RolledBack {
		t.Fatalf("unauthorized executor: %+v %v", o, err)
	}
}

// placeOrder places a committed order with the given type.
func placeOrder(t *testing.T, e *executor, tt string, mutate func(*TradeOrderInput)) MarketRequest {
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
	o, err := e.tradeOrder(context.Background(), in)
	if err != nil || len(o.ToMarket) != 1 {
		t.Fatalf("Trade-Order %s: %+v %v", tt, o, err)
	}
	return o.ToMarket[0]
}

func testTradeResultCompletesTrades(t *testing.T, db database.DB) {
	e := newTestExecutor(db, 1)
	ctx := context.Background()
	type snap struct {
		bal          Money
		brokerTrades int64
		brokerComm   Money
		hs           int64
		lots         int64
	}
	take := func(m MarketRequest, acct, broker int64) snap {
		return snap{
			bal:          q1[Money](t, db, "SELECT ca_bal FROM customer_account WHERE ca_id = $1", acct),
			brokerTrades: q1[int64](t, db, "SELECT b_num_trades FROM broker WHERE b_id = $1", broker),
			brokerComm:   q1[Money](t, db, "SELECT b_comm_total FROM broker WHERE b_id = $1", broker),
			hs:           q1[int64](t, db, "SELECT COALESCE(SUM(hs_qty), 0) FROM holding_summary WHERE hs_ca_id = $1 AND hs_s_symb = $2", acct, m.Symbol),
			lots:         q1[int64](t, db, "SELECT COALESCE(SUM(h_qty), 0) FROM holding WHERE h_ca_id = $1 AND h_s_symb = $2", acct, m.Symbol),
		}
	}
	// Buys and sells, cash and margin, FIFO and LIFO, on the same account and symbol
	// so lots open, shrink, close and flip sides.
	first := placeOrder(t, e, schema.MarketBuy, func(in *TradeOrderInput) { in.IsMargin = false })
	acct := q1[int64](t, db, "SELECT t_ca_id FROM trade WHERE t_id = $1", first.TradeID)
	broker := schema.AccountBroker(acct)
	same := func(in *TradeOrderInput) {
		in.AcctID, in.SecIndex, in.Symbol, in.ByCompany = acct, first.SecIndex, first.Symbol, false
		in.ExecFirst, in.ExecLast, in.ExecTaxID = "", "", ""
		h := schema.AccountHolders(acct)[0]
		in.ExecFirst, in.ExecLast, in.ExecTaxID = h.First, h.Last, h.TaxID
	}
	orders := []MarketRequest{first}
	for i, tt := range []string{schema.MarketSell, schema.MarketSell, schema.MarketBuy, schema.MarketSell, schema.MarketBuy, schema.MarketBuy} {
		i := i
		orders = append(orders, placeOrder(t, e, tt, func(in *TradeOrderInput) {
			same(in)
			in.Qty = []int{800, 400, 100, 200, 800, 400}[i]
			in.LIFO = i%2 == 0
			in.IsMargin = tt == schema.MarketBuy && i == 2
		}))
	}
	for _, m := range orders {
		before := take(m, acct, broker)
		cash := q1[bool](t, db, "SELECT t_is_cash FROM trade WHERE t_id = $1", m.TradeID)
		o, res, err := e.tradeResult(ctx, m.TradeID, Money(m.Price))
		if err != nil {
			t.Fatalf("Trade-Result %d: %v", m.TradeID, err)
		}
		if o.Attempts != 1 || res.AcctID != acct {
			t.Fatalf("outcome %+v %+v", o, res)
		}
		after := take(m, acct, broker)
		delta := int64(m.Qty)
		if m.TradeType == schema.MarketSell {
			delta = -delta
		}
		st := q1[string](t, db, "SELECT t_st_id FROM trade WHERE t_id = $1", m.TradeID)
		price := q1[Money](t, db, "SELECT t_trade_price FROM trade WHERE t_id = $1", m.TradeID)
		se := q1[Money](t, db, "SELECT se_amt FROM settlement WHERE se_t_id = $1", m.TradeID)
		cts := q1[int64](t, db, "SELECT COUNT(*) FROM cash_transaction WHERE ct_t_id = $1", m.TradeID)
		hh := q1[int64](t, db, "SELECT COUNT(*) FROM holding_history WHERE hh_t_id = $1", m.TradeID)
		switch {
		case st != schema.StatusCompleted || price != Money(m.Price):
			t.Fatalf("trade %d: status %s price %s", m.TradeID, st, price)
		case after.hs != before.hs+delta || after.lots != after.hs:
			t.Fatalf("trade %d: summary %d -> %d (delta %d), lots sum %d", m.TradeID, before.hs, after.hs, delta, after.lots)
		case after.brokerTrades != before.brokerTrades+1 || after.brokerComm != before.brokerComm+res.Comm || res.Comm <= 0:
			t.Fatalf("trade %d: broker %d/%s -> %d/%s, comm %s", m.TradeID, before.brokerTrades, before.brokerComm, after.brokerTrades, after.brokerComm, res.Comm)
		case cash && (after.bal != before.bal+se || cts != 1 || res.Balance != after.bal):
			t.Fatalf("trade %d: balance %s -> %s, settlement %s, cash rows %d", m.TradeID, before.bal, after.bal, se, cts)
		case !cash && (after.bal != before.bal || cts != 0):
			t.Fatalf("margin trade %d moved the balance or wrote cash", m.TradeID)
		case hh < 1:
			t.Fatalf("trade %d wrote no holding history", m.TradeID)
		}
	}
	// A second Trade-Result for the same trade is a failed check, not a double count.
	_, _, err := e.tradeResult(ctx, first.TradeID, Money(first.Price))
	if !IsCheck(err) {
		t.Fatalf("second Trade-Result: %v, want a check error", err)
	}
	mustNoViolations(t, db)
}

func testMarketFeedTriggersLimitOrders(t *testing.T, db database.DB) {
	e := newTestExecutor(db, 1)
	ctx := context.Background()
	buy := placeOrder(t, e, schema.LimitBuy, func(in *TradeOrderInput) { in.RequestedPrice = 2500 })
	sell := placeOrder(t, e, schema.LimitSell, func(in *TradeOrderInput) { in.RequestedPrice = 2500 })
	stop := placeOrder(t, e, schema.StopLoss, func(in *TradeOrderInput) { in.RequestedPrice = 2500 })
	// A quote that reaches none of them first, then one per order that does.
	entries := []TickerEntry{
		{Symbol: buy.Symbol, Price: 2600, Qty: 100},  // above the limit buy: no
		{Symbol: sell.Symbol, Price: 2400, Qty: 100}, // below the limit sell: no
		{Symbol: stop.Symbol, Price: 2600, Qty: 100}, // above the stop: no
	}
	o, err := e.MarketFeed(ctx, entries)
	if err != nil || len(o.ToMarket) != 0 {
		t.Fatalf("nothing should trigger: %+v %v", o, err)
	}
	if p := q1[Money](t, db, "SELECT lt_price FROM last_trade WHERE lt_s_symb = $1", stop.Symbol); p != 2600 {
		t.Fatalf("last trade price %s, want 26.00", p)
	}
	vol := q1[int64](t, db, "SELECT lt_vol FROM last_trade WHERE lt_s_symb = $1", buy.Symbol)
	o, err = e.MarketFeed(ctx, []TickerEntry{
		{Symbol: buy.Symbol, Price: 2450, Qty: 375},
		{Symbol: sell.Symbol, Price: 2550, Qty: 375},
		{Symbol: stop.Symbol, Price: 2500, Qty: 375},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64]bool{}
	for _, m := range o.ToMarket {
		got[m.TradeID] = true
		if !m.IsLimit || m.Price != 2500 {
			t.Fatalf("released %+v", m)
		}
	}
	for _, m := range []MarketRequest{buy, sell, stop} {
		if !got[m.TradeID] {
			t.Errorf("%s %d not released", m.TradeType, m.TradeID)
		}
		if st := q1[string](t, db, "SELECT t_st_id FROM trade WHERE t_id = $1", m.TradeID); st != schema.StatusSubmitted {
			t.Errorf("%d is %s", m.TradeID, st)
		}
		if n := q1[int64](t, db, "SELECT COUNT(*) FROM trade_request WHERE tr_t_id = $1", m.TradeID); n != 0 {
			t.Errorf("%d keeps its request", m.TradeID)
		}
		if h := historyOf(t, db, m.TradeID); h != "PNDG,SBMT" {
			t.Errorf("%d history %s", m.TradeID, h)
		}
	}
	if v := q1[int64](t, db, "SELECT lt_vol FROM last_trade WHERE lt_s_symb = $1", buy.Symbol); v < vol+375 {
		t.Errorf("lt_vol %d, want at least %d", v, vol+375)
	}
	// The released orders complete.
	for _, m := range o.ToMarket {
		if _, err := e.TradeResult(ctx, m.TradeID, m.Price); err != nil {
			t.Fatal(err)
		}
	}
}

func testTradeUpdateChangesWhatItsFrameSays(t *testing.T, db database.DB) {
	e := newTestExecutor(db, 1)
	ctx := context.Background()
	done := map[int]bool{}
	for i := 0; i < 200 && len(done) < 3; i++ {
		in := e.gen.TradeUpdate()
		if done[in.Frame] {
			continue
		}
		// Read what the frame will change before it runs.
		var before []string
		var ids []int64
		switch in.Frame {
		case 1:
			ids = in.TradeIDs
		case 2:
			ids = tradeIDsIn(t, db, "SELECT t_id FROM trade WHERE t_ca_id = $1 AND t_dts >= $2 AND t_dts <= $3 ORDER BY t_dts LIMIT 20", in.AcctID, in.Start, in.End)
		case 3:
			// Frame 3 lists 20 trades and rewrites the cash ones among them.
			ids = tradeIDsIn(t, db, "SELECT t_id FROM (SELECT t_id, t_is_cash, t_dts FROM trade WHERE t_s_symb = $1 AND t_dts >= $2 AND t_dts <= $3 ORDER BY t_dts LIMIT 20) x WHERE t_is_cash ORDER BY t_dts", in.Symbol, in.Start, in.End)
		}
		if len(ids) == 0 {
			continue
		}
		field := map[int]string{
			1: "SELECT t_exec_name FROM trade WHERE t_id = $1",
			2: "SELECT se_cash_type FROM settlement WHERE se_t_id = $1",
			3: "SELECT ct_name FROM cash_transaction WHERE ct_t_id = $1",
		}[in.Frame]
		for _, id := range ids {
			before = append(before, q1[string](t, db, field, id))
		}
		_, res, err := e.tradeUpdate(ctx, in)
		if err != nil {
			t.Fatalf("frame %d: %v", in.Frame, err)
		}
		if res.Updated != len(ids) {
			t.Fatalf("frame %d updated %d, want %d", in.Frame, res.Updated, len(ids))
		}
		for k, id := range ids {
			after := q1[string](t, db, field, id)
			var want string
			switch in.Frame {
			case 1:
				want = toggleExecName(before[k])
			case 2:
				want = toggleCashType(before[k], q1[bool](t, db, "SELECT t_is_cash FROM trade WHERE t_id = $1", id))
			case 3:
				want = toggleShares(before[k])
			}
			if after != want || after == before[k] {
				t.Fatalf("frame %d trade %d: %q -> %q, want %q", in.Frame, id, before[k], after, want)
			}
		}
		done[in.Frame] = true
	}
	if len(done) != 3 {
		t.Fatalf("frames run: %v", done)
	}
}

func tradeIDsIn(t *testing.T, db database.DB, sql string, args ...any) []int64 {
	t.Helper()
	rows, err := db.Query(context.Background(), sqlOf(db, sql), args...)
	var out []int64
	err = scanRows(rows, err, func(r database.Rows) error {
		out = append(out, 0)
		return r.Scan(&out[len(out)-1])
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func testDataMaintenanceChangesEveryTable(t *testing.T, db database.DB) {
	e := newTestExecutor(db, 1, WithClock(func() time.Time {
		return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	}))
	ctx := context.Background()
	// What each table's change touches, and the input that picks those rows.
	digest := func(in DataMaintenanceInput) string {
		q := map[string]struct {
			sql string
			arg any
		}{
			"account_permission": {"SELECT ap_ca_id, ap_tax_id, ap_acl FROM account_permission WHERE ap_ca_id = $1", in.AcctID},
			"address":            {"SELECT ad_id, ad_line2 FROM address", nil},
			"company":            {"SELECT co_id, co_sp_rate FROM company WHERE co_id = $1", in.CoID},
			"customer":           {"SELECT c_id, c_email_2 FROM customer WHERE c_id = $1", in.CustID},
			"customer_taxrate":   {"SELECT cx_c_id, cx_tx_id FROM customer_taxrate WHERE cx_c_id = $1", in.CustID},
			"daily_market":       {"SELECT dm_date, dm_vol FROM daily_market WHERE dm_s_symb = $1", in.Symbol},
			"exchange":           {"SELECT ex_id, ex_desc FROM exchange", nil},
			"financial":          {"SELECT fi_year, fi_qtr, fi_qtr_start_date FROM financial WHERE fi_co_id = $1", in.CoID},
			"news_item":          {"SELECT ni_id, ni_dts FROM news_item", nil},
			"security":           {"SELECT s_symb, s_exch_date FROM security WHERE s_symb = $1", in.Symbol},
			"taxrate":            {"SELECT tx_id, tx_name FROM taxrate WHERE tx_id = $1", in.TaxID},
			"watch_item":         {"SELECT wi_wl_id, wi_s_symb FROM watch_item, watch_list WHERE wi_wl_id = wl_id AND wl_c_id = $1", in.CustID},
		}[in.Table]
		if q.arg == nil {
			return rowsDigest(t, db, q.sql)
		}
		return rowsDigest(t, db, q.sql, q.arg)
	}
	seen := map[string]bool{}
	for i := 0; i < len(DMTables); i++ {
		in := e.gen.DataMaintenance()
		before := digest(in)
		o, res, err := e.dataMaintenanceRun(ctx, in)
		if err != nil {
			t.Fatalf("%s: %v", in.Table, err)
		}
		if after := digest(in); after == before || res.Changed == 0 || o.Attempts != 1 {
			t.Errorf("%s: unchanged (changed %d rows)", in.Table, res.Changed)
		}
		seen[in.Table] = true
	}
	if len(seen) != 12 {
		t.Fatalf("tables %v", seen)
	}
}

func testTradeCleanupCancelsLeftovers(t *testing.T, db database.DB) {
	e := newTestExecutor(db, 1)
	ctx := context.Background()
	limit := placeOrder(t, e, schema.LimitBuy, nil)
	market := placeOrder(t, e, schema.MarketBuy, nil)
	done := placeOrder(t, e, schema.MarketSell, nil)
	if _, err := e.TradeResult(ctx, done.TradeID, done.Price); err != nil {
		t.Fatal(err)
	}
	_, res, err := e.tradeCleanupRun(ctx)
	if err != nil || res.Pending != 1 || res.Submitted != 1 {
		t.Fatalf("cleanup %+v %v", res, err)
	}
	for id, want := range map[int64]string{limit.TradeID: "CNCL", market.TradeID: "CNCL", done.TradeID: "CMPT"} {
		if st := q1[string](t, db, "SELECT t_st_id FROM trade WHERE t_id = $1", id); st != want {
			t.Errorf("trade %d is %s, want %s", id, st, want)
		}
	}
	if h := historyOf(t, db, limit.TradeID); h != "CNCL,PNDG,SBMT" {
		t.Errorf("limit order history %s", h)
	}
	if n := q1[int64](t, db, "SELECT COUNT(*) FROM trade_request"); n != 0 {
		t.Errorf("%d requests left", n)
	}
}

func TestRunRefusesMarketKinds(t *testing.T) {
	e := &executor{}
	for _, k := range []Kind{TradeResult, MarketFeed, NumKinds} {
		if _, err := e.Run(context.Background(), k); err == nil {
			t.Errorf("Run(%s) accepted", k)
		}
	}
	// A give-up must not look retryable to the driver.
	var ge error = &GiveUpError{Kind: TradeOrder, Attempts: MaxAttempts, Last: errors.New("x")}
	if IsCheck(ge) {
		t.Fatal("a give-up is not a check error")
	}
}

// TestOnLoadedDatabase runs the database tests on one clone of the loaded PostgreSQL
// database (cloning costs seconds).
func TestOnLoadedDatabase(t *testing.T) {
	onLoaded(t, loadedDB(t, 8))
}

// databaseTest is one test of a loaded database, which it leaves consistent.
type databaseTest struct {
	name string
	fn   func(*testing.T, database.DB)
}

// onLoaded runs the database tests every engine shares on db, in an order where
// each leaves it consistent for the next. The check test, which breaks invariants on purpose, runs last: finding no
// other violation there also checks everything the earlier tests did to the
// database.
func onLoaded(t *testing.T, db database.DB) {
	for _, c := range []databaseTest{
		{"ReadOnlyTransactionsMeetTheReferenceChecks", testReadOnlyTransactionsMeetTheReferenceChecks},
		{"TradeOrderWritesTheOrder", testTradeOrderWritesTheOrder},
		{"TradeResultCompletesTrades", testTradeResultCompletesTrades},
		{"MarketFeedTriggersLimitOrders", testMarketFeedTriggersLimitOrders},
		{"TradeUpdateChangesWhatItsFrameSays", testTradeUpdateChangesWhatItsFrameSays},
		{"DataMaintenanceChangesEveryTable", testDataMaintenanceChangesEveryTable},
		{"BrokerVolumeSumsPendingOrders", testBrokerVolumeSumsPendingOrders},
		{"TradeCleanupCancelsLeftovers", testTradeCleanupCancelsLeftovers},
		{"RetryOnSerializationFailure", testRetryOnSerializationFailure},
		{"ConcurrentMixKeepsInvariants", testConcurrentMixKeepsInvariants},
		{"CheckPassesAfterLoadAndFindsBreaks", testCheckPassesAfterLoad},
	} {
		// Each test starts without orders in flight, as a run starts after Trade-Cleanup.
		if _, err := newTestExecutor(db, 99).Run(context.Background(), TradeCleanup); err != nil {
			t.Fatal(err)
		}
		if !t.Run(c.name, func(t *testing.T) { c.fn(t, db) }) {
			t.Fatalf("%s failed; later tests would run on a damaged database", c.name)
		}
	}
}

// testRetryOnSerializationFailure makes a Trade-Update lose a write conflict: another
// transaction changes one of its trades after the Trade-Update's snapshot, as a
// Trade-Update would. The repeatable-read update then fails (PostgreSQL's 40001,
// MariaDB's 1020 under innodb_snapshot_isolation) and the whole transaction runs
// again, changing the trade from the value the other committed: no update is lost.
func testRetryOnSerializationFailure(t *testing.T, db database.DB) {
	retryOnSerializationFailure(t, db, newTestExecutor(db, 7))
}

// retryOnSerializationFailure is the retry test for executor e, in either frame mode.
func retryOnSerializationFailure(t *testing.T, db database.DB, e *executor) {
	ctx := context.Background()
	var in TradeLookupInput
	for in.Frame != 1 {
		in = e.gen.TradeUpdate()
	}
	last := in.TradeIDs[len(in.TradeIDs)-1]
	const execName = "SELECT t_exec_name FROM trade WHERE t_id = $1"
	committed := toggleExecName(q1[string](t, db, execName, last))
	// The Trade-Update blocks on the last trade's row lock; the other commits once
	// the server reports it waiting on that lock (however slow a busy machine).
	probe := lockProbes[db.Name()]
	finish := holdTradeRow(ctx, db, last, committed, func(holder int64) error { return probe.waitFor(ctx, db, holder) })
	o, res, err := e.tradeUpdate(ctx, in)
	if err := finish(); err != nil {
		t.Fatal(err)
	}
	if err != nil || res.Updated != 20 {
		t.Fatalf("Trade-Update: %v, updated %d", err, res.Updated)
	}
	if o.Attempts != 2 {
		t.Fatalf("attempts %d, want 2 (one serialization failure, one retry)", o.Attempts)
	}
	if got, want := q1[string](t, db, execName, last), toggleExecName(committed); got != want {
		t.Fatalf("the contended trade's executor is %q, want %q: changed from what the other transaction committed", got, want)
	}
}

// holdTradeRow locks trade id's row in a transaction of db of its own (setting its
// executor's name to name) and returns once the lock is held. The transaction
// commits when until, given the holder's session id (lockProbes' self), returns:
// when the server reports the sessions under test waiting on the lock. finish
// returns the holder's error and until's.
func holdTradeRow(ctx context.Context, db database.DB, id int64, name string, until func(holder int64) error) (finish func() error) {
	locked, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	var holder int64
	go func() {
		done <- db.InTx(ctx, database.ReadCommitted, func(tx database.Tx) error {
			if err := tx.QueryRow(ctx, lockProbes[db.Name()].self).Scan(&holder); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, sqlOf(db, "UPDATE trade SET t_exec_name = $1 WHERE t_id = $2"), name, id); err != nil {
				return err
			}
			close(locked)
			<-release
			return nil
		})
	}()
	waited := make(chan error, 1)
	select {
	case <-locked:
		go func() {
			defer close(release)
			waited <- until(holder)
		}()
	case err := <-done:
		done <- err
		waited <- nil
	}
	return func() error { return errors.Join(<-done, <-waited) }
}

// lockProbes say, per engine, how a session names itself (self) and how a test
// waits until another session waits on a lock the named one holds (waitFor).
var lockProbes = map[database.Name]struct {
	self    string
	waitFor func(ctx context.Context, db database.DB, blocker int64) error
}{
	database.Postgres: {"SELECT pg_backend_pid()", waitForLockWait},
	database.MySQL:    {"SELECT CONNECTION_ID()", waitForInnoDBLockWait},
}

// waitForLockWait polls pg_stat_activity until a backend waits on a lock that the
// backend blocker holds: the event a lock test synchronises on, instead of a sleep
// that a busy machine can outlast. It gives up after two minutes.
func waitForLockWait(ctx context.Context, db database.DB, blocker int64) error {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var n int
		if err := db.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE wait_event_type = 'Lock' AND $1 = ANY (pg_blocking_pids(pid))`, blocker).Scan(&n); err != nil {
			return fmt.Errorf("poll pg_stat_activity: %w", err)
		}
		if n > 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no backend waited on backend %d's lock within two minutes", blocker)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
