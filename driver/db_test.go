package driver

import (
	"context"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testdb"
	"github.com/brokerbench/brokerbench/internal/testpg"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/schema/rnd"
	"github.com/brokerbench/brokerbench/txn"
)

func TestMain(m *testing.M) { os.Exit(testpg.Main(m)) }

// realConfig drives a clone of the loaded test database with the real executors.
func realConfig(t *testing.T, users []int, step, warmup time.Duration) (Config, database.DB) {
	t.Helper()
	dsn := testdb.Loaded(t)
	db, err := database.Open(context.Background(), dsn, database.Options{MaxConns: 40})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	sql, err := txn.StatementsFor(db.Name())
	if err != nil {
		t.Fatal(err)
	}
	sc, seed := testdb.Scale, testdb.Seed
	newExec := func(w int) txn.Executor { return txn.NewExecutor(db, sql, sc, seed, w) }
	return Config{
		Plan:              Plan{Users: users, Step: step, Warmup: warmup},
		Market:            DefaultMarket(4),
		Scale:             sc,
		Seed:              seed,
		NewUserExecutor:   newExec,
		NewMarketExecutor: newExec,
		NewDeck:           func(w int) Deck { return txn.NewDeck(rnd.New(seed, 0xdec, uint64(w))) },
		Pool:              PoolStatsOf(db),
		Logf:              t.Logf,
	}, db
}

// TestRealMix runs the workload on PostgreSQL: the customer mix within 1.5
// percentage points of the deck's weights, Trade-Results following Trade-Orders,
// tpsE/tps equal to Trade-Result's share, no errors, and a consistent database after.
func TestRealMix(t *testing.T) {
	cfg, db := realConfig(t, []int{4, 8}, 6*time.Second, time.Second)
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := d.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 2 {
		t.Fatalf("%d steps", len(steps))
	}
	all := results.Step{Transactions: map[string]results.TxnStats{}}
	for i, st := range steps {
		t.Logf("step %d: %d users, tps %.1f, tpsE %.2f, statements %d, lag %+v, driver %+v", i, st.Users, st.TPS, st.TPSE, st.Statements, st.Lag, st.Driver)
		for name, tx := range st.Transactions {
			if tx.Errors > 0 {
				t.Errorf("step %d: %s had %d errors", i, name, tx.Errors)
			}
			a := all.Transactions[name]
			a.Count += tx.Count
			all.Transactions[name] = a
		}
		tr := st.Transactions["Trade-Result"]
		if math.Abs(st.TPSE/st.TPS-tr.Share) > 0.002 {
			t.Errorf("step %d: tpsE/tps %.4f, Trade-Result share %.4f", i, st.TPSE/st.TPS, tr.Share)
		}
		// Limit orders wait for the price wave, so a short run completes fewer
		// trades than the long-run 10 %; market orders (60 %) complete within 5 s.
		if tr.Share < 0.05 || tr.Share > 0.115 {
			t.Errorf("step %d: Trade-Result share %.3f", i, tr.Share)
		}
		if st.Statements < 3*int64(st.TPS*st.MeasuredS) {
			t.Errorf("step %d: %d statements for %.0f transactions", i, st.Statements, st.TPS*st.MeasuredS)
		}
		if st.Transactions["Market-Feed"].Count == 0 {
			t.Errorf("step %d: no Market-Feed", i)
		}
	}
	shares, n := customerShares(all)
	for _, s := range txn.Catalogue {
		if s.Origin == txn.Customer {
			// 1.5 percentage points; on a machine too busy to deliver the ~2,000
			// transactions that makes meaningful, three standard errors.
			want := float64(s.Weight) / float64(txn.DeckSize)
			tol := max(0.015, 3*math.Sqrt(want*(1-want)/float64(n)))
			if math.Abs(shares[s.Name]-want) > tol {
				t.Errorf("%s: share %.3f of %d customer transactions, want %.3f ± %.3f", s.Name, shares[s.Name], n, want, tol)
			}
		}
	}
	v, err := txn.Check(context.Background(), db, cfg.Scale)
	if err != nil || len(v) > 0 {
		t.Errorf("check after the run: %v %v", v, err)
	}
}

// TestRealRate: --rate below capacity is achieved within 2 %. The rate sits far below
// what six users manage even on a loaded 2-core machine (about 50/s seen at worst),
// so the test measures the pacer, not the machine.
func TestRealRate(t *testing.T) {
	cfg, _ := realConfig(t, []int{6}, 6*time.Second, time.Second)
	cfg.Rate = 25
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := d.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	_, n := customerShares(steps[0])
	got := float64(n) / steps[0].MeasuredS
	t.Logf("achieved %.2f customer starts/s; lag %+v", got, steps[0].Lag)
	if math.Abs(got-cfg.Rate) > 0.02*cfg.Rate {
		t.Errorf("achieved %.2f customer starts/s at --rate %.0f", got, cfg.Rate)
	}
}

// pauseServer stops (SIGSTOP) every process of the test cluster for d, or holds the
// hot tables' locks for d on a server the tests do not own. Either way the server
// answers nothing for d.
func pauseServer(t *testing.T, db database.DB, d time.Duration) {
	if c := testpg.Cluster(t); c != nil {
		pm, err := c.PostmasterPID()
		if err != nil {
			t.Error(err)
			return
		}
		// The postmaster too: else it forks fresh backends for the pool's new
		// connections, and a run that needs few connections never stalls.
		kids := append(childrenOf(pm), pm)
		for _, p := range kids {
			_ = syscall.Kill(p, syscall.SIGSTOP)
		}
		resume := func() {
			for _, p := range kids {
				_ = syscall.Kill(p, syscall.SIGCONT)
			}
		}
		timer := time.AfterFunc(d, resume)
		t.Cleanup(func() { timer.Stop(); resume() })
		return
	}
	go func() {
		// Taking five exclusive locks while users hold row locks can deadlock, and the
		// deadlock detector may pick us: try again until the locks are held, or the
		// stall never happens and the test measures nothing.
		for attempt := 0; attempt < 20; attempt++ {
			err := db.InTx(context.Background(), database.ReadCommitted, func(tx database.Tx) error {
				if _, err := tx.Exec(context.Background(), "LOCK TABLE trade, last_trade, security, customer_account, broker IN ACCESS EXCLUSIVE MODE"); err != nil {
					return err
				}
				time.Sleep(d)
				return nil
			})
			if err == nil {
				return
			}
			t.Logf("stall by locks, attempt %d: %v", attempt+1, err)
		}
	}()
}

// childrenOf lists the pids whose parent is pid, from /proc.
func childrenOf(pid int) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so cut after its ')'.
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			out = append(out, p)
		}
	}
	return out
}

// TestRealStall: the server stalls two seconds in a rate-limited step. The starts
// due during the stall keep their intended times, so response-time percentiles rise
// by about the stall while service-time percentiles do not.
func TestRealStall(t *testing.T) {
	cfg, db := realConfig(t, []int{8}, 7*time.Second, time.Second)
	// Well below capacity on a loaded machine, so only the stall delays starts.
	cfg.Rate = 30
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Timed from the step, not the test: Trade-Cleanup on a cold clone can take
	// seconds before the step starts.
	var once sync.Once
	cfg.OnTick = func(l Live) {
		if l.InStep >= 3*time.Second {
			once.Do(func() { pauseServer(t, db, 2*time.Second) })
		}
	}
	d, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := d.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st := steps[0]
	var resp, svc []string
	for _, tx := range st.Transactions {
		resp, svc = append(resp, tx.Response), append(svc, tx.Service)
	}
	r, s := mergedP(t, resp), mergedP(t, svc)
	t.Logf("response p90 %.0f ms p95 %.0f ms; service p90 %.0f ms p95 %.0f ms; lag %+v", r(90), r(95), s(90), s(95), st.Lag)
	if r(90) < 700 {
		t.Errorf("response p90 %.0f ms: the stall's delayed starts lost their intended times", r(90))
	}
	if s(90) > 300 {
		t.Errorf("service p90 %.0f ms: service time should not carry the stall", s(90))
	}
	// A 2 s stall at 30 starts/s delays about 60 starts; ask for half of them.
	if st.Lag.Late < 30 || st.Lag.MaxMS < 1500 {
		t.Errorf("lag %+v: the starts delayed by the stall were not counted", st.Lag)
	}
}

func mergedP(t *testing.T, enc []string) func(q float64) float64 {
	var hs []*hdrhistogram.Histogram
	for _, e := range enc {
		if e == "" {
			continue
		}
		h, err := results.DecodeHistogram(e)
		if err != nil {
			t.Fatal(err)
		}
		hs = append(hs, h)
	}
	m, _ := results.MergeHistograms(hs...)
	return func(q float64) float64 { return float64(m.ValueAtQuantile(q)) / 1000 }
}

// TestRealRestart: the server restarts in the middle of a step. The transactions it
// cut count as connection faults, the pool reconnects, and the run keeps going.
func TestRealRestart(t *testing.T) {
	c := testpg.Cluster(t)
	if c == nil {
		t.Skip("the tests use " + testpg.EnvDSN + ": not restarting a server they do not own")
	}
	cfg, _ := realConfig(t, []int{4}, 9*time.Second, time.Second)
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	restarted := make(chan error, 1)
	time.AfterFunc(3*time.Second, func() { restarted <- c.Restart(context.Background()) })
	steps, err := d.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := <-restarted; err != nil {
		t.Fatal(err)
	}
	st := steps[0]
	t.Logf("tps %.1f, faults %+v", st.TPS, st.Faults)
	if st.Faults == nil || st.Faults.ConnectionsLost == 0 || st.Faults.ByClass["connection"] == 0 {
		t.Errorf("faults %+v: the restart's cut transactions were not counted", st.Faults)
	}
	var errs int64
	for _, tx := range st.Transactions {
		errs += tx.Errors
	}
	if errs != st.Faults.ConnectionsLost {
		t.Errorf("%d errors, %d connection faults", errs, st.Faults.ConnectionsLost)
	}
	if st.TPS*st.MeasuredS < 100 {
		t.Errorf("only %.0f transactions: the run did not keep going after the restart", st.TPS*st.MeasuredS)
	}
}
