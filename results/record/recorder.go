package record

import (
	"slices"
	"sync"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/brokerbench/brokerbench/results"
)

// Outcome is how one transaction ended, as the load driver saw it.
type Outcome struct {
	// Failed: the transaction ended in an error after its retries. Its times are not
	// recorded in the histograms (a fast failure would flatter them); it counts in
	// Errors only.
	Failed bool
	// Retries the transaction needed (serialization failures, deadlocks).
	Retries int
	// RolledBack: the workload's intended business rollback (e.g. Trade-Order's 1 %).
	// It is a normal outcome and its times are recorded.
	RolledBack bool
}

// Recorder collects response and service times from many load-driver workers.
// Each worker owns one Handle; one goroutine (the driver's ticker) calls Tick,
// StartWindow and Window. The hot path, Handle.Record, takes only its own handle's
// lock, which is contended only for the instant Tick swaps that handle's data.
//
// See the package documentation (doc.go) for the life cycle of a step.
type Recorder struct {
	mu      sync.Mutex // guards handles; Tick and Handle may race at ramp-up
	handles []*Handle

	// The fields below are touched only by the ticking goroutine (see doc.go), but
	// guarded anyway so a misuse is a slow path, not a data race.
	tickMu     sync.Mutex
	lastTick   time.Time
	interval   map[string]*txnAgg // reused every tick
	window     map[string]*txnAgg // accumulated since StartWindow
	windowFrom time.Time
}

// txnAgg is one transaction type's dense histograms and counters.
type txnAgg struct {
	resp, svc                *hdrhistogram.Histogram
	errs, retries, rollbacks int64
}

func newTxnAgg() *txnAgg { return &txnAgg{resp: results.NewHistogram(), svc: results.NewHistogram()} }

func (a *txnAgg) reset() {
	a.resp.Reset()
	a.svc.Reset()
	a.errs, a.retries, a.rollbacks = 0, 0, 0
}

func (a *txnAgg) empty() bool {
	return a.resp.TotalCount() == 0 && a.errs == 0 && a.retries == 0 && a.rollbacks == 0
}

// NewRecorder returns a recorder whose first interval starts at now.
func NewRecorder(now time.Time) *Recorder {
	return &Recorder{
		lastTick:   now,
		windowFrom: now,
		interval:   map[string]*txnAgg{},
		window:     map[string]*txnAgg{},
	}
}

// Handle is one worker's recording point. Never share a Handle between goroutines
// that record concurrently; that is what makes its lock uncontended.
type Handle struct {
	mu   sync.Mutex
	txns map[string]*workerTxn
}

// workerTxn holds a worker's values for one transaction type since the last tick.
// Sparse histograms: a worker records a few values per interval, and 300 workers ×
// 12 types × 2 dense histograms would cost over a gigabyte.
type workerTxn struct {
	resp, svc                *hdrhistogram.PackedHistogram
	errs, retries, rollbacks int64
}

// Handle registers and returns a new handle for one worker.
func (r *Recorder) Handle() *Handle {
	h := &Handle{txns: map[string]*workerTxn{}}
	r.mu.Lock()
	r.handles = append(r.handles, h)
	r.mu.Unlock()
	return h
}

// Record adds one finished transaction. response runs from the intended start
// (coordinated-omission safe), service from the first statement sent. Times are
// clamped into the histogram range, never dropped.
func (h *Handle) Record(txnName string, response, service time.Duration, o Outcome) {
	h.mu.Lock()
	t := h.txns[txnName]
	if t == nil {
		t = &workerTxn{resp: results.NewPacked(), svc: results.NewPacked()}
		h.txns[txnName] = t
	}
	if o.Failed {
		t.errs++
	} else {
		// Clamped values are always in range, so RecordValue cannot fail.
		_ = t.resp.RecordValue(results.ClampMicros(response))
		_ = t.svc.RecordValue(results.ClampMicros(service))
	}
	t.retries += int64(o.Retries)
	if o.RolledBack {
		t.rollbacks++
	}
	h.mu.Unlock()
}

// drainInto moves the handle's values into each of dsts (dense, per name) and
// empties the handle, keeping its sparse storage for reuse. Merging the sparse values
// into every destination costs the populated buckets only; merging one dense
// histogram into another walks all of its buckets.
func (h *Handle) drainInto(dsts ...map[string]*txnAgg) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for name, t := range h.txns {
		if t.resp.TotalCount() == 0 && t.errs == 0 && t.retries == 0 && t.rollbacks == 0 {
			continue
		}
		for _, dst := range dsts {
			a := dst[name]
			if a == nil {
				a = newTxnAgg()
				dst[name] = a
			}
			t.resp.MergeInto(a.resp)
			t.svc.MergeInto(a.svc)
			a.errs += t.errs
			a.retries += t.retries
			a.rollbacks += t.rollbacks
		}
		t.resp.Reset()
		t.svc.Reset()
		t.errs, t.retries, t.rollbacks = 0, 0, 0
	}
}

// Interval is one transaction type's figures over one tick.
type Interval struct {
	Name    string
	Now     time.Time
	Elapsed time.Duration // since the previous tick
	// Response and Service hold this interval only. They are reused by the next
	// Tick: copy (Clone) what must outlive the callback.
	Response, Service          *hdrhistogram.Histogram
	Errors, Retries, Rollbacks int64
}

// Tick moves every handle's values into per-transaction interval histograms, adds
// them to the current window, and calls fn once per transaction type seen in the
// interval, in name order. fn may be nil. Call it from one goroutine.
func (r *Recorder) Tick(now time.Time, fn func(Interval)) {
	r.tickMu.Lock()
	defer r.tickMu.Unlock()
	for _, a := range r.interval {
		if !a.empty() {
			a.reset()
		}
	}
	r.drainHandles(r.interval, r.window)
	elapsed := now.Sub(r.lastTick)
	r.lastTick = now
	names := make([]string, 0, len(r.interval))
	for name, a := range r.interval {
		if !a.empty() {
			names = append(names, name)
		}
	}
	if fn == nil {
		return
	}
	slices.Sort(names)
	for _, name := range names {
		a := r.interval[name]
		fn(Interval{
			Name: name, Now: now, Elapsed: elapsed,
			Response: a.resp, Service: a.svc,
			Errors: a.errs, Retries: a.retries, Rollbacks: a.rollbacks,
		})
	}
}

func (r *Recorder) drainHandles(dsts ...map[string]*txnAgg) {
	r.mu.Lock()
	hs := slices.Clone(r.handles)
	r.mu.Unlock()
	for _, h := range hs {
		h.drainInto(dsts...)
	}
}

// StartWindow begins a step's measured window at now (the end of its warm-up):
// values recorded so far, ticked or not, are discarded from the window.
// Values a worker records after StartWindow returns belong to the window; one that
// finished just before but was recorded just after may land in it, an error of at
// most one transaction per worker.
func (r *Recorder) StartWindow(now time.Time) {
	r.tickMu.Lock()
	defer r.tickMu.Unlock()
	scratch := map[string]*txnAgg{}
	r.drainHandles(scratch) // warm-up values: dropped
	for name := range r.window {
		delete(r.window, name)
	}
	r.windowFrom = now
	r.lastTick = now
}

// Window drains the handles into the window and returns its figures so far, one
// TxnStats per transaction type with Share filled, plus the window's start. It does
// not reset the window: call StartWindow for the next step.
func (r *Recorder) Window() (map[string]results.TxnStats, time.Time) {
	r.tickMu.Lock()
	defer r.tickMu.Unlock()
	r.drainHandles(r.window)
	out := make(map[string]results.TxnStats, len(r.window))
	for name, a := range r.window {
		out[name] = results.Summarize(a.resp, a.svc, a.errs, a.retries, a.rollbacks)
	}
	results.SetShares(out)
	return out, r.windowFrom
}
