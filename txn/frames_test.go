package txn

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/schema"
)

// modeEngine is what the cross-mode test needs of one database: two databases
// holding the same load, its statements, where the clones stand before the first
// step, a fingerprint of every table's rows since then, and the invariants' check.
type modeEngine struct {
	open         func(t *testing.T) (client, server database.DB)
	sql          *Statements
	mark         func(t *testing.T, db database.DB) int64
	fingerprints func(db database.DB, since int64) (map[string]string, error)
	noViolations func(t *testing.T, db database.DB)
}

// postgresModes: two clones of the loaded test database; the append-only tables are
// fingerprinted over the row versions written since the first step.
func postgresModes() modeEngine {
	return modeEngine{
		open:         func(t *testing.T) (database.DB, database.DB) { return loadedDB(t, 4), loadedDB(t, 4) },
		sql:          PostgresSQL(),
		mark:         xidNow,
		fingerprints: fingerprints,
		noViolations: mustNoViolations,
	}
}

// modePair runs the same transaction with the same inputs, at the same clock, in
// client mode on one database and in server mode on another holding the same load.
type modePair struct {
	t              *testing.T
	client, server *executor
	dbC, dbS       database.DB
	now            time.Time
	steps          int
	// calls is how many routine calls the next step makes without retries (0: one).
	calls int
	// sinceC and sinceS are where the databases stood before the first step
	// (modeEngine.mark).
	sinceC, sinceS int64
	// failed lists the steps that failed in both modes alike (their checks).
	failed []string
}

func newModePair(t *testing.T, m modeEngine) *modePair {
	t.Helper()
	ctx := context.Background()
	p := &modePair{t: t, now: time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)}
	p.dbC, p.dbS = m.open(t)
	// Both databases get the routines, so that both hold the same objects; only the
	// server mode calls them.
	for _, db := range []database.DB{p.dbC, p.dbS} {
		if _, err := EnsureRoutines(ctx, db, p.now); err != nil {
			t.Fatal(err)
		}
	}
	p.sinceC, p.sinceS = m.mark(t, p.dbC), m.mark(t, p.dbS)
	clock := func() time.Time { return p.now }
	p.client = NewExecutor(p.dbC, m.sql, testdb.Scale, 42, 3, WithClock(clock)).(*executor)
	p.server = NewExecutor(p.dbS, m.sql, testdb.Scale, 42, 3, WithClock(clock), WithFrames(ServerFrames)).(*executor)
	return p
}

// step runs one transaction in both modes at the next clock second and requires the
// same outcome, the same error class and the same output.
func step[T any](p *modePair, name string, run func(e *executor) (Outcome, T, error)) (Outcome, T) {
	p.t.Helper()
	p.steps++
	p.now = p.now.Add(time.Second)
	oc, rc, ec := run(p.client)
	if ec != nil {
		p.failed = append(p.failed, fmt.Sprintf("%s: %v", name, ec))
	}
	os, rs, es := run(p.server)
	if (ec == nil) != (es == nil) || IsCheck(ec) != IsCheck(es) || database.Classify(ec) != database.Classify(es) {
		p.t.Fatalf("%s: client error %v, server error %v", name, ec, es)
	}
	if ec != nil {
		var cc, cs *CheckError
		if IsCheck(ec) && (!asCheck(ec, &cc) || !asCheck(es, &cs) || cc.Frame != cs.Frame || cc.What != cs.What) {
			p.t.Fatalf("%s: client check %v, server check %v", name, ec, es)
		}
	}
	if oc.RolledBack != os.RolledBack || oc.Attempts != os.Attempts || !sameJSON(oc.ToMarket, os.ToMarket) {
		p.t.Fatalf("%s: outcomes differ:\nclient %+v\nserver %+v", name, oc, os)
	}
	// A failed attempt's output is what it had read when it failed: only the errors
	// compare.
	if ec == nil && !sameOutput(rc, rs) {
		p.t.Fatalf("%s: outputs differ:\nclient %s\nserver %s", name, toJSON(rc), toJSON(rs))
	}
	// One routine call per attempt, per ticker entry for Market-Feed: the round trips
	// of a transaction are no more than the frames it runs.
	calls := max(p.calls, 1)
	if os.Statements != calls+os.Attempts-1 {
		p.t.Fatalf("%s: server mode sent %d statements in %d attempts, want %d", name, os.Statements, os.Attempts, calls+os.Attempts-1)
	}
	return oc, rc
}

func asCheck(err error, c **CheckError) bool {
	for ; err != nil; err = unwrap(err) {
		if x, ok := err.(*CheckError); ok {
			*c = x
			return true
		}
	}
	return false
}

func unwrap(err error) error {
	u, ok := err.(interface{ Unwrap() error })
	if !ok {
		return nil
	}
	return u.Unwrap()
}

func toJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return string(b)
}

// sameJSON compares through JSON, an empty list the same whether nil or not (the
// client mode leaves a list it found nothing for nil, a routine returns []).
func sameJSON(a, b any) bool { return emptyLists(toJSON(a)) == emptyLists(toJSON(b)) }

func emptyLists(s string) string {
	if s == "null" {
		return "[]"
	}
	return strings.ReplaceAll(s, ":null", ":[]")
}

// sameOutput compares two outputs field by field through JSON; Market-Watch's
// percentage, a ratio of float sums whose rows the two plans may add in another
// order, may differ in its last bits.
func sameOutput(a, b any) bool {
	if x, ok := a.(MarketWatchOutput); ok {
		y := b.(MarketWatchOutput)
		return x.Symbols == y.Symbols && math.Abs(x.PctChange-y.PctChange) <= 1e-9*math.Max(1, math.Abs(x.PctChange))
	}
	return sameJSON(a, b)
}

// appendOnly are the large tables the workload never deletes from: their rows that a
// transaction inserted or updated are the row versions newer than the clone, so
// those and the row count fingerprint them. Every other table is hashed whole.
var appendOnly = map[string]bool{"daily_market": true, "trade": true, "trade_history": true,
	"holding_history": true, "settlement": true, "cash_transaction": true}

// xidNow is the transaction id the next write gets, modulo 2^32 as xmin shows it.
func xidNow(t *testing.T, db database.DB) int64 {
	t.Helper()
	var x int64
	if err := db.QueryRow(context.Background(), "SELECT txid_current() % 4294967296").Scan(&x); err != nil {
		t.Fatal(err)
	}
	return x
}

// fingerprints counts and hashes each table's rows (hash_record_extended over the
// row; for appendOnly tables over the rows written since xid since).
func fingerprints(db database.DB, since int64) (map[string]string, error) {
	out := map[string]string{}
	for _, tb := range append(schema.Tables(), schema.MetaTables()...) {
		var n int64
		var sum string
		filter := "true"
		if appendOnly[tb.Name] {
			filter = fmt.Sprintf("xmin::text::bigint >= %d", since)
		}
		q := fmt.Sprintf("SELECT count(*), COALESCE(sum(hash_record_extended(r, 0)) FILTER (WHERE %s), 0)::text FROM %s r", filter, tb.Name)
		if err := db.QueryRow(context.Background(), q).Scan(&n, &sum); err != nil {
			return nil, fmt.Errorf("%s: %w", tb.Name, err)
		}
		out[tb.Name] = fmt.Sprintf("%d rows, %s", n, sum)
	}
	return out, nil
}

// TestFramesServerDoesTheClientsWork is the cross-mode test (docs/workload.md §13):
// every transaction, with inputs drawn from one seed (the intended rollbacks, a
// retry, the Trade-Results of Trade-Order's and Market-Feed's queued orders among
// them), runs in client mode on one clone and in server mode on another; the
// outcomes, outputs and checks must match, then every table's rows, and the
// invariants must hold after the server mode's run.
func TestFramesServerDoesTheClientsWork(t *testing.T) {
	framesServerDoesTheClientsWork(t, postgresModes())
}

// framesServerDoesTheClientsWork is the cross-mode test on one database.
func framesServerDoesTheClientsWork(t *testing.T, m modeEngine) {
	p := newModePair(t, m)
	ctx := context.Background()
	g := NewGen(testdb.Scale, 42, 17)
	ran := map[Kind]int{}
	count := func(k Kind) { ran[k]++ }

	step(p, "Trade-Cleanup", func(e *executor) (Outcome, TradeCleanupOutput, error) { return e.tradeCleanupRun(ctx) })
	count(TradeCleanup)
	for i := 0; i < 12; i++ {
		bv := g.BrokerVolume()
		step(p, "Broker-Volume", func(e *executor) (Outcome, []BrokerVolumeRow, error) { return e.brokerVolumeRun(ctx, bv) })
		cp := g.CustomerPosition()
		step(p, "Customer-Position", func(e *executor) (Outcome, CustomerPositionOutput, error) { return e.customerPosition(ctx, cp) })
		mw := g.MarketWatch()
		step(p, "Market-Watch", func(e *executor) (Outcome, MarketWatchOutput, error) { return e.marketWatch(ctx, mw) })
		sd := g.SecurityDetail()
		sd.AccessLOB = sd.AccessLOB || i == 0 // the large news text at least once
		step(p, "Security-Detail", func(e *executor) (Outcome, SecurityDetailOutput, error) { return e.securityDetail(ctx, sd) })
		tl := drawFrame(g.TradeLookup, 1+i%4) // every frame
		step(p, "Trade-Lookup", func(e *executor) (Outcome, TradeLookupOutput, error) { return e.tradeLookup(ctx, tl) })
		ts := g.TradeStatus()
		step(p, "Trade-Status", func(e *executor) (Outcome, TradeStatusOutput, error) { return e.tradeStatus(ctx, ts) })
		for _, k := range []Kind{BrokerVolume, CustomerPosition, MarketWatch, SecurityDetail, TradeLookup, TradeStatus} {
			count(k)
		}
	}

	// Orders: every trade type, by symbol and by company, margin and LIFO as drawn,
	// the input's rollback and an unauthorized executor's.
	var queued []MarketRequest
	rollbacks := 0
	for i := 0; i < 40; i++ {
		in := g.TradeOrder()
		switch i {
		case 3:
			in.Rollback = true
		case 5:
			in.ExecFirst, in.ExecLast, in.ExecTaxID = "Nobody", "Unknown", "000-00-0000"
		}
		o, _ := step(p, "Trade-Order", func(e *executor) (Outcome, struct{}, error) {
			o, err := e.tradeOrder(ctx, in)
			return o, struct{}{}, err
		})
		count(TradeOrder)
		if o.RolledBack {
			rollbacks++
		}
		queued = append(queued, o.ToMarket...)
	}
	if rollbacks < 2 {
		t.Fatalf("%d rollbacks, want at least the two forced ones", rollbacks)
	}
	// The market orders complete at their price; the limit orders wait for a feed.
	var limits []MarketRequest
	for _, m := range queued {
		if m.IsLimit {
			limits = append(limits, m)
			continue
		}
		step(p, "Trade-Result", func(e *executor) (Outcome, TradeResultOutput, error) {
			return e.tradeResult(ctx, m.TradeID, Money(m.Price))
		})
		count(TradeResult)
	}
	// A completed trade cannot complete again: the same failed check in both modes.
	again := 0
	for _, m := range queued {
		if m.IsLimit || again > 0 {
			continue
		}
		again++
		step(p, "Trade-Result again", func(e *executor) (Outcome, TradeResultOutput, error) {
			return e.tradeResult(ctx, m.TradeID, Money(m.Price))
		})
	}
	if again == 0 || len(p.failed) == 0 {
		t.Fatalf("no repeated Trade-Result failed its check (%d market orders)", again)
	}
	// Market-Feed at each limit order's own price releases it (its trigger is
	// inclusive); its Trade-Result follows.
	var entries []TickerEntry
	for _, m := range limits {
		entries = append(entries, TickerEntry{Symbol: m.Symbol, Price: m.Price, Qty: 375})
	}
	p.calls = len(entries)
	o, _ := step(p, "Market-Feed", func(e *executor) (Outcome, struct{}, error) {
		o, err := e.MarketFeed(ctx, entries)
		return o, struct{}{}, err
	})
	p.calls = 0
	count(MarketFeed)
	if len(limits) > 0 && len(o.ToMarket) == 0 {
		t.Fatalf("Market-Feed released none of %d limit orders", len(limits))
	}
	for _, m := range o.ToMarket {
		step(p, "Trade-Result (released)", func(e *executor) (Outcome, TradeResultOutput, error) {
			return e.tradeResult(ctx, m.TradeID, Money(m.Price))
		})
	}
	for i := 0; i < 9; i++ {
		in := drawFrame(g.TradeUpdate, 1+i%3)
		step(p, "Trade-Update", func(e *executor) (Outcome, TradeLookupOutput, error) { return e.tradeUpdate(ctx, in) })
		count(TradeUpdate)
	}
	for range DMTables {
		in := g.DataMaintenance()
		step(p, "Data-Maintenance "+in.Table, func(e *executor) (Outcome, DataMaintenanceOutput, error) { return e.dataMaintenanceRun(ctx, in) })
		count(DataMaintenance)
	}
	// Leftovers for Trade-Cleanup: a pending limit order and a submitted market order.
	for i := 0; i < 6; i++ {
		in := g.TradeOrder()
		in.Rollback = false
		step(p, "Trade-Order (left over)", func(e *executor) (Outcome, struct{}, error) {
			o, err := e.tradeOrder(ctx, in)
			return o, struct{}{}, err
		})
	}
	_, tc := step(p, "Trade-Cleanup", func(e *executor) (Outcome, TradeCleanupOutput, error) { return e.tradeCleanupRun(ctx) })
	if tc.Pending+tc.Submitted == 0 {
		t.Fatalf("Trade-Cleanup found nothing to cancel")
	}
	for k := Kind(0); k < NumKinds; k++ {
		if ran[k] == 0 {
			t.Errorf("%s never ran", k)
		}
	}

	var fc map[string]string
	var errC error
	done := make(chan struct{})
	go func() { defer close(done); fc, errC = m.fingerprints(p.dbC, p.sinceC) }()
	fs, errS := m.fingerprints(p.dbS, p.sinceS)
	<-done
	if errC != nil || errS != nil {
		t.Fatal(errC, errS)
	}
	for name, c := range fc {
		if fs[name] != c {
			t.Errorf("table %s: client mode %s, server mode %s", name, c, fs[name])
		}
	}
	m.noViolations(t, p.dbS)
	t.Logf("%d steps in both modes, %d of %d transaction kinds, the same tables after: %v; failed alike: %q",
		p.steps, len(ran), NumKinds, !t.Failed(), p.failed)
}

// drawFrame draws inputs until they are for the given frame.
func drawFrame(draw func() TradeLookupInput, frame int) TradeLookupInput {
	for {
		if in := draw(); in.Frame == frame {
			return in
		}
	}
}

// TestFramesServerRetriesASerializationFailure: a server-mode Trade-Update that loses
// a write conflict inside its routine gets the routine's SQLSTATE, is classified as a
// retry and runs again, as in client mode.
func TestFramesServerRetriesASerializationFailure(t *testing.T) {
	db := loadedDB(t, 4)
	if _, err := EnsureRoutines(context.Background(), db, time.Now()); err != nil {
		t.Fatal(err)
	}
	e := NewExecutor(db, PostgresSQL(), testdb.Scale, 42, 7, WithFrames(ServerFrames)).(*executor)
	retryOnSerializationFailure(t, db, e)
}

// TestRoutinesInstallAndVersion: a database without routines gets them, the marker
// says this build's version, a second run leaves them, and a newer set is refused.
func TestRoutinesInstallAndVersion(t *testing.T) {
	db := loadedDB(t, 2)
	routinesInstallAndVersion(t, db, func() int {
		return q1[int](t, db, "SELECT count(*) FROM pg_proc WHERE proname LIKE 'bb\\_%'")
	}, nil)
}

// routinesInstallAndVersion is the install test on one database without routines:
// four concurrent ensures (the shards of one run) install one after the other and all
// succeed, leaving one marker of this build's version and every routine (routines
// counts the database's bb_ routines); installed runs then, if set; an older set is
// upgraded, a newer one refused; DropRoutines (schema drop) removes the routines and
// the marker.
func routinesInstallAndVersion(t *testing.T, db database.DB, routines func() int, installed func()) {
	t.Helper()
	ctx := context.Background()
	if v, _, err := InstalledRoutines(ctx, db); err != nil || v != 0 {
		t.Fatalf("fresh database: version %d, %v; want none", v, err)
	}
	dids := make(chan string, 4)
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			did, err := EnsureRoutines(ctx, db, time.Now())
			dids <- did
			errs <- err
		}()
	}
	got := map[string]int{}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
		got[<-dids]++
	}
	if got["installed"] < 1 || got["installed"]+got["current"] != 4 {
		t.Fatalf("four concurrent ensures: %v, want at least one installed, the others installed or current", got)
	}
	if n := q1[int](t, db, "SELECT count(*) FROM bb_routines"); n != 1 {
		t.Fatalf("%d marker rows, want 1", n)
	}
	if v, _, err := InstalledRoutines(ctx, db); err != nil || v != RoutinesVersion {
		t.Fatalf("version %d, %v; want %d", v, err, RoutinesVersion)
	}
	if n := routines(); n < len(Routines) {
		t.Fatalf("%d bb_ routines installed, want at least %d", n, len(Routines))
	}
	if installed != nil {
		installed()
	}
	if _, err := db.Exec(ctx, "UPDATE bb_routines SET version = version - 1"); err != nil {
		t.Fatal(err)
	}
	if did, err := EnsureRoutines(ctx, db, time.Now()); err != nil || did != fmt.Sprintf("upgraded from version %d", RoutinesVersion-1) {
		t.Fatalf("older set: %q, %v", did, err)
	}
	if _, err := db.Exec(ctx, "UPDATE bb_routines SET version = version + 1"); err != nil {
		t.Fatal(err)
	}
	if _, err := EnsureRoutines(ctx, db, time.Now()); err == nil || !strings.Contains(err.Error(), "newer than this brokerbench's") {
		t.Fatalf("newer set: %v, want a refusal", err)
	}
	if err := DropRoutines(ctx, db); err != nil {
		t.Fatal(err)
	}
	if n := routines(); n != 0 {
		t.Fatalf("%d bb_ routines left after DropRoutines", n)
	}
	if v, digest, err := InstalledRoutines(ctx, db); err != nil || v != 0 || digest != "" {
		t.Fatalf("after DropRoutines: version %d %q, %v", v, digest, err)
	}
}
