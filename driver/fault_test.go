package driver

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/schema/rnd"
	"github.com/brokerbench/brokerbench/txn"
)

// faultApp names the fault test's connections, so pg_stat_activity shows whether
// the run left any behind.
const faultApp = "brokerbench fault test"

// countOurBackends counts the sessions of dsn's database opened by the test's pools.
func countOurBackends(t *testing.T, dsn string) int {
	t.Helper()
	// QueryInt closes its pool on return: the test counts goroutines after the run,
	// and an open pool keeps its health-check goroutine.
	return testpg.QueryInt(t, dsn, `SELECT count(*) FROM pg_stat_activity
		WHERE datname = current_database() AND application_name LIKE $1`, faultApp+"%")
}

// settle polls cond for a few seconds: goroutines and backends take a moment to go.
func settle(cond func() bool) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// TestRealServerFaults runs three steps against the real server while it suffers a
// fault in each: every backend killed (pg_terminate_backend), the server stalled
// (SIGSTOP of its processes), the server restarted. The users' pool and the
// emulator's own pool (as `run` opens them) both recover, the failures are counted
// by class in the step that saw them, the plan completes, no goroutine and no
// connection is left behind, and the database keeps every invariant: a transaction
// the fault cut is fully there or not at all.
func TestRealServerFaults(t *testing.T) {
	if testpg.Cluster(t) == nil {
		t.Skip("the tests use " + testpg.EnvDSN + ": not stalling or restarting a server they do not own")
	}
	dsn := testdb.Loaded(t)
	before := runtime.NumGoroutine()

	const users = 4
	open := func(app string, conns int) database.DB {
		db, err := database.Open(context.Background(), dsn, database.Options{MaxConns: conns, AppName: app})
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	db := open(faultApp+" users", users)
	market := open(faultApp+" market", 4+1)
	closed := false
	closeAll := func() {
		if !closed {
			db.Close()
			market.Close()
			closed = true
		}
	}
	t.Cleanup(closeAll)
	sql, err := txn.StatementsFor(db.Name())
	if err != nil {
		t.Fatal(err)
	}
	sc, seed := testdb.Scale, testdb.Seed
	var calls callLog
	cfg := Config{
		// Five-second steps: a fault fired late by a busy machine still lands in the
		// measured window of the step it belongs to.
		Plan:   Plan{Users: []int{users, users, users}, Step: 5 * time.Second, Warmup: 500 * time.Millisecond},
		Market: DefaultMarket(4), Scale: sc, Seed: seed,
		DataMaintenanceEvery: 2 * time.Second,
		NewUserExecutor: func(w int) txn.Executor {
			return &timedExec{txn.NewExecutor(db, sql, sc, seed, w), &calls}
		},
		NewMarketExecutor: func(w int) txn.Executor {
			return &timedExec{txn.NewExecutor(market, sql, sc, seed, w), &calls}
		},
		NewDeck: func(w int) Deck { return txn.NewDeck(rnd.New(seed, 0xdec, uint64(w))) },
		Pool:    PoolStatsOf(db),
		Logf:    t.Logf,
	}

	// The faults fall in the measured part of steps 1, 2 and 3, timed from each
	// step's start (Trade-Cleanup on a cold clone may take seconds before step 1).
	var faults sync.WaitGroup
	var killed int
	var stall testpg.Stall
	fault := [3]func(){
		func() { killed = testpg.TerminateBackends(t, dsn) },
		func() { stall = testpg.Pause(t, 1500*time.Millisecond) },
		func() { testpg.Restart(t) },
	}
	var fired [3]sync.Once
	cfg.OnTick = func(l Live) {
		if l.Step >= 1 && l.Step <= 3 && l.InStep >= 1500*time.Millisecond {
			fired[l.Step-1].Do(func() {
				faults.Add(1)
				go func() { defer faults.Done(); fault[l.Step-1]() }()
			})
		}
	}
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := d.Run(context.Background())
	faults.Wait()
	if err != nil {
		t.Fatalf("the run stopped: %v", err)
	}
	if killed == 0 {
		t.Error("pg_terminate_backend ended no backend: the first fault did not happen")
	}
	if len(steps) != 3 {
		t.Fatalf("%d steps, want the whole plan of 3", len(steps))
	}
	for i, st := range steps {
		var n, errs int64
		for _, tx := range st.Transactions {
			n += tx.Count
			errs += tx.Errors
		}
		t.Logf("step %d: %d transactions, %d errors, tps %.1f, faults %+v", i+1, n, errs, st.TPS, st.Faults)
		if st.Partial || n == 0 {
			t.Errorf("step %d: partial %v, %d transactions", i+1, st.Partial, n)
		}
		if st.Faults == nil {
			if errs > 0 {
				t.Errorf("step %d: %d errors but no faults marked", i+1, errs)
			}
			continue
		}
		var byClass int64
		for _, c := range st.Faults.ByClass {
			byClass += c
		}
		if byClass != errs {
			t.Errorf("step %d: faults by class %v sum to %d, transactions' errors to %d", i+1, st.Faults.ByClass, byClass, errs)
		}
	}
	// The stall is proven where load cannot blur it: the kernel reported every
	// server process stopped for the pause, and a transaction was in flight across
	// the whole of it. (Which step's window its long response lands in depends on
	// when a busy machine fired the pause and resumed the server; TestRealStall
	// tests how a stall shows in the figures.)
	if stall.Duration() < 1500*time.Millisecond {
		t.Errorf("step 2: the server was confirmed stopped for %s, want the 1.5 s pause", stall.Duration())
	} else if !calls.spanned(stall.From, stall.Until) {
		t.Errorf("step 2: no transaction was in flight across the stall (%s): the clients did not feel it", stall.Duration())
	}
	for _, i := range []int{0, 2} { // killed backends, restart
		f := steps[i].Faults
		if f == nil || f.ByClass["connection"] == 0 || f.ConnectionsLost == 0 {
			t.Errorf("step %d: faults %+v: the cut connections were not counted", i+1, f)
		}
	}
	// Both pools came back: each served transactions after the last fault.
	last := steps[2].Transactions
	if last["Trade-Order"].Count == 0 || last["Trade-Result"].Count == 0 { // Count: the successes
		t.Errorf("after the restart: Trade-Order %+v, Trade-Result %+v", last["Trade-Order"], last["Trade-Result"])
	}

	// A market order whose Trade-Result a fault cut is tried again: none is left
	// waiting, but those whose Trade-Order committed unacknowledged (the emulator
	// never heard of them).
	var toErrs int64
	for _, st := range steps {
		toErrs += st.Transactions["Trade-Order"].Errors
	}
	var waiting int64
	if err := db.QueryRow(context.Background(), `SELECT count(*) FROM trade WHERE t_id >= $1 AND t_st_id = 'SBMT' AND t_tt_id IN ('TMB', 'TMS')`,
		sc.FirstRunTradeID()).Scan(&waiting); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d market orders still submitted; %d Trade-Orders failed", waiting, toErrs)
	if waiting > toErrs {
		t.Errorf("%d market orders still wait for their Trade-Result after the run (%d Trade-Orders failed)", waiting, toErrs)
	}

	if n := countOurBackends(t, dsn); n > users+4+1 {
		t.Errorf("%d sessions open for %d pool slots: connections leaked", n, users+5)
	}
	v, err := txn.Check(context.Background(), db, sc)
	if err != nil || len(v) > 0 {
		t.Errorf("check after the faults: %v %v", v, err)
	}
	closeAll()
	if !settle(func() bool { return countOurBackends(t, dsn) == 0 }) {
		t.Errorf("%d sessions still open after the pools closed", countOurBackends(t, dsn))
	}
	if !settle(func() bool { return runtime.NumGoroutine() <= before }) {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		t.Errorf("%d goroutines after the run, %d before:\n%s", runtime.NumGoroutine(), before, buf)
	}
}

// timedExec logs when each transaction call began and ended.
type timedExec struct {
	txn.Executor
	log *callLog
}

func (e *timedExec) Run(ctx context.Context, k txn.Kind) (txn.Outcome, error) {
	defer e.log.add(time.Now())
	return e.Executor.Run(ctx, k)
}

func (e *timedExec) TradeResult(ctx context.Context, tradeID, price int64) (txn.Outcome, error) {
	defer e.log.add(time.Now())
	return e.Executor.TradeResult(ctx, tradeID, price)
}

func (e *timedExec) MarketFeed(ctx context.Context, entries []txn.TickerEntry) (txn.Outcome, error) {
	defer e.log.add(time.Now())
	return e.Executor.MarketFeed(ctx, entries)
}

// callLog holds when each transaction call began and ended.
type callLog struct {
	mu    sync.Mutex
	spans [][2]time.Time
}

// add logs a call that began at began and ends now.
func (l *callLog) add(began time.Time) {
	ended := time.Now()
	l.mu.Lock()
	l.spans = append(l.spans, [2]time.Time{began, ended})
	l.mu.Unlock()
}

// spanned reports whether a call began before from and ended after until.
func (l *callLog) spanned(from, until time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.spans {
		if !s[0].After(from) && !s[1].Before(until) {
			return true
		}
	}
	return false
}

// TestBackoffGrows: lost connections in a row double a user's pause up to the cap,
// spread a little by user so they do not come back in step.
func TestBackoffGrows(t *testing.T) {
	var b time.Duration
	var seen []time.Duration
	for range 8 {
		b = nextBackoff(b, 0)
		seen = append(seen, b)
	}
	if seen[0] != failureBackoff || seen[1] != 2*failureBackoff || seen[len(seen)-1] != maxFailureBackoff {
		t.Errorf("pauses %v: want %v doubling to %v", seen, failureBackoff, maxFailureBackoff)
	}
	if a, b := nextBackoff(0, 1), nextBackoff(0, 2); a == b || a <= failureBackoff || b > failureBackoff*5/4 {
		t.Errorf("users 1 and 2 pause %v and %v: want distinct, within a quarter above %v", a, b, failureBackoff)
	}
}
