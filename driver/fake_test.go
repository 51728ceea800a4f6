package driver

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/schema/rnd"
	"github.com/brokerbench/brokerbench/txn"
)

// fakeMarket is the shared state of fake executors: trade ids and the limit orders
// waiting for a Market-Feed, as a database would hold them.
type fakeMarket struct {
	nextID  atomic.Int64
	mu      sync.Mutex
	waiting map[string][]txn.MarketRequest // limit orders by symbol
	// stallUntil (Unix nanoseconds on the run's clock), when in the future, holds
	// every transaction that starts before it until then: a server stall.
	stallUntil atomic.Int64
	// downFrom and downUntil (Unix nanoseconds on the run's clock), when set, make
	// every transaction that starts between them fail as a refused connection: a
	// server that is down.
	downFrom, downUntil atomic.Int64
	// slots, when set, is the database's capacity: a transaction holds one of them
	// while it is served, so at most cap(slots) run at once.
	slots    chan struct{}
	results  atomic.Int64
	feeds    atomic.Int64
	cleanups atomic.Int64
}

func newFakeMarket() *fakeMarket { return &fakeMarket{waiting: map[string][]txn.MarketRequest{}} }

// fakeExec stands in for txn's executor in tests of the driver's own logic: it takes
// a little time per transaction on the run's clock, makes Trade-Orders (60 % market,
// 40 % limit, 1 % rolled back) and releases limit orders in Market-Feed as the
// database would.
type fakeExec struct {
	m     *fakeMarket
	r     *rnd.Rand
	clock Clock
	lat   time.Duration
}

var _ txn.Executor = (*fakeExec)(nil)

func (f *fakeExec) serve(ctx context.Context, k txn.Kind) (txn.Outcome, error) {
	start := f.clock.Now()
	if from, until := f.m.downFrom.Load(), f.m.downUntil.Load(); from > 0 && start.UnixNano() >= from && start.UnixNano() < until {
		if err := f.clock.Sleep(ctx, f.lat); err != nil {
			return txn.Outcome{Kind: k}, err
		}
		return txn.Outcome{Kind: k, Attempts: 1}, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	}
	if until := f.m.stallUntil.Load(); until > 0 {
		if d := time.Unix(0, until).Sub(start); d > 0 {
			// The statement was sent; the server holds it, then serves it.
			if err := f.clock.Sleep(ctx, d+f.lat); err != nil {
				return txn.Outcome{Kind: k}, err
			}
			return txn.Outcome{Kind: k, Attempts: 1, Statements: 3, ServiceStart: start}, nil
		}
	}
	if f.m.slots != nil {
		select {
		case f.m.slots <- struct{}{}:
		case <-ctx.Done():
			return txn.Outcome{Kind: k}, ctx.Err()
		}
		defer func() { <-f.m.slots }()
	}
	if err := f.clock.Sleep(ctx, f.lat); err != nil {
		return txn.Outcome{Kind: k}, err
	}
	return txn.Outcome{Kind: k, Attempts: 1, Statements: 3, ServiceStart: start}, nil
}

func (f *fakeExec) Run(ctx context.Context, k txn.Kind) (txn.Outcome, error) {
	out, err := f.serve(ctx, k)
	if k == txn.TradeCleanup {
		f.m.cleanups.Add(1)
	}
	if err != nil || k != txn.TradeOrder {
		return out, err
	}
	if f.r.Chance(1) {
		out.RolledBack = true
		return out, nil
	}
	sec := f.r.Int64N(685)
	types := []string{schema.MarketBuy, schema.MarketBuy, schema.MarketBuy, schema.MarketSell, schema.MarketSell, schema.MarketSell,
		schema.LimitBuy, schema.LimitBuy, schema.LimitSell, schema.StopLoss}
	tt := types[f.r.IntN(len(types))]
	req := txn.MarketRequest{TradeID: f.m.nextID.Add(1), TradeType: tt, Symbol: schema.Symbol(sec), SecIndex: sec,
		Qty: 100, Price: f.r.Between(2000, 3000), IsLimit: tt == schema.LimitBuy || tt == schema.LimitSell || tt == schema.StopLoss}
	if req.IsLimit {
		f.m.mu.Lock()
		f.m.waiting[req.Symbol] = append(f.m.waiting[req.Symbol], req)
		f.m.mu.Unlock()
	}
	out.ToMarket = []txn.MarketRequest{req}
	return out, nil
}

func (f *fakeExec) TradeResult(ctx context.Context, tradeID, price int64) (txn.Outcome, error) {
	out, err := f.serve(ctx, txn.TradeResult)
	if err == nil {
		f.m.results.Add(1)
	}
	return out, err
}

func (f *fakeExec) MarketFeed(ctx context.Context, entries []txn.TickerEntry) (txn.Outcome, error) {
	out, err := f.serve(ctx, txn.MarketFeed)
	if err != nil {
		return out, err
	}
	f.m.feeds.Add(1)
	f.m.mu.Lock()
	for _, e := range entries {
		var keep []txn.MarketRequest
		for _, r := range f.m.waiting[e.Symbol] {
			if InTheMoney(r, e.Price) {
				out.ToMarket = append(out.ToMarket, r)
			} else {
				keep = append(keep, r)
			}
		}
		f.m.waiting[e.Symbol] = keep
	}
	f.m.mu.Unlock()
	return out, nil
}

// testDeck deals the catalogue's customer weights, shuffled per round of 890.
type testDeck struct {
	r     *rnd.Rand
	cards []txn.Kind
	next  int
}

func newTestDeck(r *rnd.Rand) *testDeck {
	d := &testDeck{r: r}
	for _, s := range txn.Catalogue {
		for i := 0; i < s.Weight; i++ {
			d.cards = append(d.cards, s.Kind)
		}
	}
	return d
}

func (d *testDeck) Next() txn.Kind {
	if d.next == len(d.cards) {
		d.next = 0
	}
	j := d.next + d.r.IntN(len(d.cards)-d.next)
	d.cards[d.next], d.cards[j] = d.cards[j], d.cards[d.next]
	d.next++
	return d.cards[d.next-1]
}

// fakeConfig is a short run on fake executors. The executors wait on the run's own
// clock, RealClock: the tests run inside a synctest bubble (synctest.Test), where that
// clock's time is virtual and moves on only when every goroutine of the run waits.
// So a run of seconds takes milliseconds, and neither a busy machine nor a slow
// goroutine wake-up can move a figure the tests check.
func fakeConfig(m *fakeMarket, users []int, step, warmup time.Duration) Config {
	clock := RealClock{}
	newExec := func(w int) txn.Executor {
		return &fakeExec{m: m, r: rnd.New(7, uint64(w)), clock: clock, lat: 2 * time.Millisecond}
	}
	return Config{
		Plan:              Plan{Users: users, Step: step, Warmup: warmup},
		Market:            MarketConfig{Workers: 4, DelayMean: 50 * time.Millisecond, DelayMax: 250 * time.Millisecond, TickerBatch: 20, TriggeredQty: 375},
		Scale:             schema.Scale{Customers: 1000, TradeDays: 5},
		Seed:              7,
		Clock:             clock,
		NewUserExecutor:   newExec,
		NewMarketExecutor: newExec,
		NewDeck:           func(w int) Deck { return newTestDeck(rnd.New(7, 99, uint64(w))) },
	}
}
