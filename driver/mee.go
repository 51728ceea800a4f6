package driver

import (
	"container/heap"
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/schema/rnd"
	"github.com/brokerbench/brokerbench/txn"
)

// meeAction is what a pending emulator item becomes when it falls due.
type meeAction uint8

const (
	doTradeResult meeAction = iota
	doMarketFeed
	doTrigger // a limit order's price crossing: it joins the ticker
)

type meeItem struct {
	due    time.Time
	action meeAction
	req    txn.MarketRequest
	feed   []txn.TickerEntry
	tries  int // Trade-Results cut by a lost connection so far
}

// meeRetries bounds how often a Trade-Result cut by a lost connection is tried
// again. The cut transaction rolled back, so the trade still waits for it; if the
// commit went through unacknowledged, the retry fails Trade-Result's own status
// check instead of completing the trade twice.
// Eight tries with the delay doubling from 0.5 s to at most 4 s span about 25 s: a
// restart of a loaded server (shutdown checkpoint, recovery) fits in it, where three
// tries (3.5 s) left trades submitted for ever in CI.
const meeRetries = 8

type meeHeap []meeItem

func (h meeHeap) Len() int           { return len(h) }
func (h meeHeap) Less(i, j int) bool { return h[i].due.Before(h[j].due) }
func (h meeHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *meeHeap) Push(x any)        { *h = append(*h, x.(meeItem)) }
func (h *meeHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

// mee is the market-exchange emulator (docs/workload.md §6.2): one dispatcher goroutine
// holds the pending items ordered by due time and hands due ones to a pool of
// workers, each with its own executor and so its own connection.
type mee struct {
	cfg        MarketConfig
	clock      Clock
	rec        *recording
	securities int64
	waveStart  time.Time
	sched      *atomic.Pointer[RateSchedule] // --rate's schedule of the step, charged for every start; nil inside: no cap

	mu         sync.Mutex
	r          *rnd.Rand // under mu
	pending    meeHeap
	ticker     []txn.TickerEntry
	triggered  []txn.TickerEntry // triggered limit orders waiting for a ticker slot
	inflight   int
	draining   bool
	unfillable int64 // limit orders whose limit the wave never reaches

	wake chan struct{}
	work chan meeItem
	wg   sync.WaitGroup
}

func newMEE(cfg MarketConfig, clock Clock, rec *recording, securities int64, seed uint64, waveStart time.Time) *mee {
	return &mee{
		cfg: cfg, clock: clock, rec: rec, securities: max(1, securities), waveStart: waveStart,
		r: rnd.New(seed, 0x4d4545), wake: make(chan struct{}, 1), work: make(chan meeItem),
	}
}

// wave is the price wave's clock: seconds since the run started.
func (m *mee) wave(t time.Time) float64 { return t.Sub(m.waveStart).Seconds() }

func (m *mee) signal() {
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// submit takes a committed Trade-Order's requests at now. It never blocks the user
// beyond a short lock.
func (m *mee) submit(reqs []txn.MarketRequest, now time.Time) {
	m.mu.Lock()
	for _, r := range reqs {
		if !r.IsLimit {
			d := ProcessingDelay(m.cfg.DelayMean, m.cfg.DelayMax, m.r.Float64())
			heap.Push(&m.pending, meeItem{due: now.Add(d), action: doTradeResult, req: r})
			continue
		}
		trigger, after, ok := Arm(r, m.wave(now))
		switch {
		case !ok:
			m.unfillable++
		case trigger && after == 0:
			m.triggered = append(m.triggered, m.triggeredEntry(r))
		default:
			heap.Push(&m.pending, meeItem{due: now.Add(time.Duration(after * float64(time.Second))), action: doTrigger, req: r})
		}
	}
	m.mu.Unlock()
	m.signal()
}

func (m *mee) triggeredEntry(r txn.MarketRequest) txn.TickerEntry {
	// The limit itself: the price Market-Feed matches the waiting request against.
	return txn.TickerEntry{Symbol: r.Symbol, Price: r.Price, Qty: m.cfg.TriggeredQty}
}

// start runs the dispatcher and the workers until ctx ends.
func (m *mee) start(ctx context.Context, workers []*worker) {
	m.wg.Add(1 + len(workers))
	go func() { defer m.wg.Done(); m.dispatch(ctx) }()
	for _, w := range workers {
		go func() { defer m.wg.Done(); m.serve(ctx, w) }()
	}
}

func (m *mee) dispatch(ctx context.Context) {
	for {
		m.mu.Lock()
		now := m.clock.Now()
		var ready []meeItem
		for len(m.pending) > 0 {
			it := m.pending[0]
			// Draining brings the orders' delays forward, but not a retry's backoff:
			// retried at once, a Trade-Result cut by a restart would spend its tries
			// in a second or two against a server that is still starting.
			due := !it.due.After(now) || (m.draining && it.action != doTrigger && it.tries == 0)
			if !due {
				break
			}
			heap.Pop(&m.pending)
			if it.action == doTrigger {
				m.triggered = append(m.triggered, m.triggeredEntry(it.req))
				continue
			}
			ready = append(ready, it)
		}
		m.inflight += len(ready)
		wait := time.Minute
		if len(m.pending) > 0 {
			wait = m.pending[0].due.Sub(now)
		}
		m.mu.Unlock()
		for i, it := range ready {
			select {
			case m.work <- it:
			case <-ctx.Done():
				m.mu.Lock()
				m.inflight -= len(ready) - i
				m.mu.Unlock()
				return
			}
		}
		if len(ready) > 0 {
			continue // time moved while handing out work
		}
		select {
		case <-m.wake:
		case <-m.clock.After(wait):
		case <-ctx.Done():
			return
		}
	}
}

func (m *mee) serve(ctx context.Context, w *worker) {
	for {
		select {
		case it := <-m.work:
			m.run(w, it)
			m.mu.Lock()
			m.inflight--
			m.mu.Unlock()
			m.signal()
		case <-ctx.Done():
			return
		}
	}
}

func (m *mee) run(w *worker, it meeItem) {
	start := m.clock.Now()
	if s := m.schedule(); s != nil {
		s.Charge(start)
	}
	switch it.action {
	case doTradeResult:
		price := FillPrice(it.req, schema.PriceAt(it.req.SecIndex, m.wave(start)))
		out, err := m.rec.attempt(txn.TradeResult, func(ctx context.Context) (txn.Outcome, error) {
			return w.exec.TradeResult(ctx, it.req.TradeID, price)
		})
		end := m.clock.Now()
		if !m.rec.finish(w, txn.TradeResult, txnTimes{it.due, start, end}, &out, err) {
			return
		}
		if err != nil {
			m.afterConnectionLoss(it, end, err)
			return
		}
		m.afterTradeResult(it.req, price, end)
	case doMarketFeed:
		out, err := m.rec.attempt(txn.MarketFeed, func(ctx context.Context) (txn.Outcome, error) { return w.exec.MarketFeed(ctx, it.feed) })
		end := m.clock.Now()
		if m.rec.finish(w, txn.MarketFeed, txnTimes{it.due, start, end}, &out, err) && err != nil {
			m.afterConnectionLoss(it, end, err)
		}
		// Even a failed (or cut) Market-Feed committed the entries before the one
		// that failed: the orders they released are submitted and owed a
		// Trade-Result, or they would stay half done.
		if len(out.ToMarket) > 0 {
			m.mu.Lock()
			for _, r := range out.ToMarket {
				heap.Push(&m.pending, meeItem{due: end, action: doTradeResult, req: r})
			}
			m.mu.Unlock()
		}
	}
}

// afterConnectionLoss gives a server that went away time to come back: the worker
// pauses (a pool of workers retrying at once against a restarting server would be
// a reconnect storm), and a cut Trade-Result is due again later, with a growing
// delay, up to meeRetries times. Other failures are final.
func (m *mee) afterConnectionLoss(it meeItem, now time.Time, err error) {
	if database.Classify(err) != database.Connection {
		return
	}
	if it.action == doTradeResult && it.tries < meeRetries {
		it.tries++
		it.due = now.Add(min(failureBackoff<<it.tries, maxFailureBackoff))
		m.mu.Lock()
		heap.Push(&m.pending, it)
		m.mu.Unlock()
	}
	_ = m.clock.Sleep(m.rec.txCtx, failureBackoff)
}

// afterTradeResult feeds the ticker (docs/workload.md §6.2): the trade's own entry plus one
// more, a triggered limit order if one waits, else a random security at its current
// price; every TickerBatch entries make a Market-Feed.
func (m *mee) afterTradeResult(r txn.MarketRequest, price int64, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ticker = append(m.ticker, txn.TickerEntry{Symbol: r.Symbol, Price: price, Qty: r.Qty})
	if len(m.triggered) > 0 {
		m.ticker = append(m.ticker, m.triggered[0])
		m.triggered = m.triggered[1:]
	} else {
		s := m.r.Int64N(m.securities)
		m.ticker = append(m.ticker, txn.TickerEntry{Symbol: schema.Symbol(s), Price: schema.PriceAt(s, m.wave(now)), Qty: int(m.r.Between(1, 8)) * 100})
	}
	if len(m.ticker) >= m.cfg.TickerBatch {
		feed := append([]txn.TickerEntry(nil), m.ticker[:m.cfg.TickerBatch]...)
		m.ticker = append(m.ticker[:0], m.ticker[m.cfg.TickerBatch:]...)
		heap.Push(&m.pending, meeItem{due: now, action: doMarketFeed, feed: feed})
	}
}

// drain completes the pending market orders at once (their delays no longer matter:
// the last window is closed), so a finished run leaves no trade half done that the
// emulator owed; limit orders still waiting for their price are left, as the
// reference leaves them. It gives up at deadline, or later while a Trade-Result cut
// by a lost connection waits for its next try (the tries are bounded: meeRetries).
func (m *mee) drain(deadline time.Time) {
	m.mu.Lock()
	m.draining = true
	m.mu.Unlock()
	m.signal()
	for {
		m.mu.Lock()
		busy := m.inflight > 0
		until := deadline
		for _, it := range m.pending {
			busy = busy || it.action != doTrigger
			if it.tries > 0 && it.due.After(until) {
				until = it.due.Add(time.Second)
			}
		}
		m.mu.Unlock()
		if !m.clock.Now().Before(until) {
			return
		}
		if !busy {
			return
		}
		_ = m.clock.Sleep(context.Background(), 20*time.Millisecond)
	}
}

func (m *mee) wait() { m.wg.Wait() }

// limitOrders counts the limit orders placed and not yet completed at this instant:
// waiting for the price wave to reach their limit, triggered and waiting for a ticker
// slot, and never fillable. Each waiting one is a Trade-Result still owed, which is
// why a paced step early in a run reads below the nominal tpsE (docs/workload.md
// §6.1.1).
func (m *mee) limitOrders() results.LimitOrders {
	m.mu.Lock()
	defer m.mu.Unlock()
	lo := results.LimitOrders{Triggered: int64(len(m.triggered)), Unfillable: m.unfillable}
	for _, it := range m.pending {
		if it.action == doTrigger {
			lo.Waiting++
		}
	}
	return lo
}

// schedule is the step's rate schedule, nil without one.
func (m *mee) schedule() *RateSchedule {
	if m.sched == nil {
		return nil
	}
	return m.sched.Load()
}
