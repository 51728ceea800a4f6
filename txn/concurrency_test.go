package txn

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema/rnd"
)

// testMarket is a minimal market emulator for the concurrency test: market orders
// complete at once at their price; limit orders wait until a ticker entry at their
// limit goes out in a Market-Feed of 20 entries, which releases them.
type testMarket struct {
	mu      sync.Mutex
	armed   []MarketRequest
	ticker  []TickerEntry
	r       *rnd.Rand
	results atomic.Int64
	feeds   atomic.Int64
	release atomic.Int64
}

// complete runs Trade-Result for m and, per the reference's batching, adds its ticker
// entry plus one more (an armed limit order if any); it returns a full batch to feed.
func (mk *testMarket) complete(ctx context.Context, e Executor, m MarketRequest) ([]TickerEntry, error) {
	if _, err := e.TradeResult(ctx, m.TradeID, m.Price); err != nil {
		return nil, err
	}
	mk.results.Add(1)
	mk.mu.Lock()
	defer mk.mu.Unlock()
	mk.ticker = append(mk.ticker, TickerEntry{Symbol: m.Symbol, Price: m.Price, Qty: m.Qty})
	if len(mk.armed) > 0 {
		a := mk.armed[0]
		mk.armed = mk.armed[1:]
		mk.ticker = append(mk.ticker, TickerEntry{Symbol: a.Symbol, Price: a.Price, Qty: 375})
	}
	if len(mk.ticker) >= 20 {
		batch := mk.ticker[:20:20]
		mk.ticker = append([]TickerEntry(nil), mk.ticker[20:]...)
		return batch, nil
	}
	return nil, nil
}

func testConcurrentMixKeepsInvariants(t *testing.T, db database.DB) {
	if testing.Short() {
		t.Skip("runs the mix for several seconds")
	}
	const users, mees = 4, 2
	ctx := context.Background()
	if _, err := newTestExecutor(db, 100).Run(ctx, TradeCleanup); err != nil {
		t.Fatal(err)
	}
	mk := &testMarket{}
	orders := make(chan MarketRequest, 10_000)
	var (
		errs     atomic.Int64
		retries  atomic.Int64
		rollback atomic.Int64
		ran      [NumKinds]atomic.Int64
	)
	fail := func(what string, err error) {
		if errs.Add(1) <= 10 {
			t.Errorf("%s: %v", what, err)
		}
	}
	// The mix runs until it has done what the test is about, not for a fixed time that
	// a quiet machine fills with thousands of transactions: minMix customer
	// transactions (or, on a machine too busy for them, the ten seconds the test used
	// to run), and in any case what the checks below want of the market: Trade-Results,
	// a Market-Feed and a limit order it released. maxRun only ends a run that never
	// gets there, and the checks then say what was missing.
	const minMix, busyRun, maxRun = 1200, 10 * time.Second, 2 * time.Minute
	start := time.Now()
	var customer atomic.Int64
	done := func() bool {
		enough := customer.Load() >= minMix || time.Since(start) >= busyRun
		market := mk.results.Load() > 0 && mk.feeds.Load() > 0 && mk.release.Load() > 0
		return enough && market || time.Since(start) >= maxRun
	}
	var ce sync.WaitGroup
	for u := 0; u < users; u++ {
		ce.Add(1)
		go func(u int) {
			defer ce.Done()
			e := newTestExecutor(db, u)
			deck := NewDeck(rnd.New(42, 7, uint64(u)))
			for !done() {
				k := deck.Next()
				o, err := e.Run(ctx, k)
				ran[k].Add(1)
				customer.Add(1)
				retries.Add(int64(o.Attempts - 1))
				if o.RolledBack {
					rollback.Add(1)
				}
				if err != nil {
					fail(k.String(), err)
					continue
				}
				for _, m := range o.ToMarket {
					orders <- m
				}
			}
		}(u)
	}
	// Data-Maintenance on its own timer, faster than once a minute.
	dmDone := make(chan struct{})
	go func() {
		defer close(dmDone)
		e := newTestExecutor(db, 200)
		for !done() {
			o, err := e.Run(ctx, DataMaintenance)
			ran[DataMaintenance].Add(1)
			retries.Add(int64(o.Attempts - 1))
			if err != nil {
				fail("Data-Maintenance", err)
			}
			time.Sleep(500 * time.Millisecond)
		}
	}()
	var mee sync.WaitGroup
	for w := 0; w < mees; w++ {
		mee.Add(1)
		go func(w int) {
			defer mee.Done()
			e := newTestExecutor(db, 300+w)
			for m := range orders {
				if m.IsLimit {
					mk.mu.Lock()
					mk.armed = append(mk.armed, m)
					mk.mu.Unlock()
					continue
				}
				batch, err := mk.complete(ctx, e, m)
				if err != nil {
					fail("Trade-Result", err)
					continue
				}
				if batch == nil {
					continue
				}
				o, err := e.MarketFeed(ctx, batch)
				mk.feeds.Add(1)
				retries.Add(int64(o.Attempts - 1))
				if err != nil {
					fail("Market-Feed", err)
					continue
				}
				for _, r := range o.ToMarket {
					mk.release.Add(1)
					r.IsLimit = false // released: complete it like a market order
					if _, err := mk.complete(ctx, e, r); err != nil {
						fail("Trade-Result of a released order", err)
					}
				}
			}
		}(w)
	}
	ce.Wait()
	<-dmDone
	close(orders)
	mee.Wait()
	var summary []any
	for k := Kind(0); k < NumKinds; k++ {
		if n := ran[k].Load(); n > 0 {
			summary = append(summary, k.String(), n)
		}
	}
	t.Logf("ran %v; Trade-Results %d, Market-Feeds %d releasing %d, retries %d, rollbacks %d, errors %d",
		summary, mk.results.Load(), mk.feeds.Load(), mk.release.Load(), retries.Load(), rollback.Load(), errs.Load())
	if mk.results.Load() == 0 || mk.feeds.Load() == 0 || mk.release.Load() == 0 {
		t.Errorf("the market did not work: %d results, %d feeds, %d released", mk.results.Load(), mk.feeds.Load(), mk.release.Load())
	}
	mustNoViolations(t, db)
}
