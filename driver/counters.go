package driver

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/brokerbench/brokerbench/database"
)

// Failure classes of failed transactions, as the result file's faults.by_class names
// them.
const (
	classConnection = "connection"
	classGaveUp     = "retries_exhausted" // serialization failures or deadlocks past the bound
	classCheck      = "check"             // a reference output check failed
	classFatal      = "fatal"
	numClasses      = 4
)

var classNames = [numClasses]string{classConnection, classGaveUp, classCheck, classFatal}

// failureClass sorts a failed transaction's error by type and code, never by text.
func failureClass(err error) int {
	switch {
	case isGiveUp(err):
		return 1
	case isCheck(err):
		return 2
	case database.Classify(err) == database.Connection:
		return 0
	}
	return 3
}

// workerStats are one worker's running totals beside its histograms. The worker
// adds with atomics; the step loop reads sums at the window's edges and subtracts.
type workerStats struct {
	statements atomic.Int64
	starts     atomic.Int64 // paced starts (users only)
	late       atomic.Int64
	lateMicros atomic.Int64
	// lateMax is the worst start delay since the last window edge; the step loop
	// swaps it to zero there.
	lateMax atomic.Int64
	fails   [numClasses]atomic.Int64
	ok      atomic.Int64
	// edge is held while a finished transaction is counted here and recorded in its
	// histogram handle, and by the step loop across a window edge: a transaction
	// lands on the same side of the edge in both, so a step's faults by class add
	// up to its transactions' errors. Uncontended but at the edges.
	edge sync.Mutex
}

// lateThreshold: a start later than this counts as late. Below it is the ordinary
// cost of waking a goroutine.
const lateThreshold = time.Millisecond

func (w *workerStats) start(intended, actual time.Time) {
	w.starts.Add(1)
	d := actual.Sub(intended)
	if d <= lateThreshold {
		return
	}
	us := d.Microseconds()
	w.late.Add(1)
	w.lateMicros.Add(us)
	for {
		m := w.lateMax.Load()
		if us <= m || w.lateMax.CompareAndSwap(m, us) {
			return
		}
	}
}

// statsRegistry holds every worker's stats.
type statsRegistry struct {
	mu      sync.Mutex
	workers []*workerStats
}

func (r *statsRegistry) add() *workerStats {
	w := &workerStats{}
	r.mu.Lock()
	r.workers = append(r.workers, w)
	r.mu.Unlock()
	return w
}

// atEdge runs f with every worker's counting held still (workerStats.edge).
func (r *statsRegistry) atEdge(f func()) {
	r.mu.Lock()
	ws := append([]*workerStats(nil), r.workers...)
	r.mu.Unlock()
	for _, w := range ws {
		w.edge.Lock()
	}
	defer func() {
		for _, w := range ws {
			w.edge.Unlock()
		}
	}()
	f()
}

// statsSum is the registry's totals at one instant.
type statsSum struct {
	statements, starts, late, lateMicros, ok int64
	fails                                    [numClasses]int64
	lateMax                                  int64
}

// sum adds up every worker; with resetMax it also restarts the per-window maxima.
func (r *statsRegistry) sum(resetMax bool) statsSum {
	r.mu.Lock()
	ws := append([]*workerStats(nil), r.workers...)
	r.mu.Unlock()
	var s statsSum
	for _, w := range ws {
		s.statements += w.statements.Load()
		s.starts += w.starts.Load()
		s.late += w.late.Load()
		s.lateMicros += w.lateMicros.Load()
		s.ok += w.ok.Load()
		for i := range s.fails {
			s.fails[i] += w.fails[i].Load()
		}
		var m int64
		if resetMax {
			m = w.lateMax.Swap(0)
		} else {
			m = w.lateMax.Load()
		}
		s.lateMax = max(s.lateMax, m)
	}
	return s
}

func (s statsSum) minus(b statsSum) statsSum {
	d := statsSum{
		statements: s.statements - b.statements, starts: s.starts - b.starts,
		late: s.late - b.late, lateMicros: s.lateMicros - b.lateMicros, ok: s.ok - b.ok,
		lateMax: s.lateMax,
	}
	for i := range d.fails {
		d.fails[i] = s.fails[i] - b.fails[i]
	}
	return d
}

func (s statsSum) failed() int64 {
	var n int64
	for _, f := range s.fails {
		n += f
	}
	return n
}
