package driver

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/results/record"
	"github.com/brokerbench/brokerbench/txn"
)

// kindNames are the catalogue's names by kind: the keys of histograms and files.
var kindNames = func() (n [txn.NumKinds]string) {
	for _, s := range txn.Catalogue {
		n[s.Kind] = s.Name
	}
	return n
}()

// worker is one goroutine's recording point: its histogram handle, its counters and
// its executor. Never shared between goroutines that run at the same time.
type worker struct {
	id    int
	exec  txn.Executor
	h     *record.Handle
	stats *workerStats
}

// recording is what every worker records into.
type recording struct {
	rec   *record.Recorder
	stats statsRegistry
	// txCtx is the context transactions run under: it outlives the run's context so
	// in-flight transactions can finish after an interrupt, and ends after the grace
	// period.
	txCtx context.Context
	// deadlines are the transactions' deadlines by kind (stall.go); 0: none.
	deadlines [txn.NumKinds]time.Duration
	// inFlight counts transactions waiting for the server; lastAnswer is when it
	// last answered one (or the liveness probe), Unix ns; connKinds count the
	// connection failures by database.ConnKind. The watch reads them (lost.go).
	inFlight   atomic.Int64
	lastAnswer atomic.Int64
	connKinds  [database.NumConnKinds]atomic.Int64

	mu        sync.Mutex
	firstErr  [numClasses]error // first error of each class, for the log and aborts
	onNewFail func(class string, err error)
}

func (r *recording) newWorker(id int, exec txn.Executor) *worker {
	return &worker{id: id, exec: exec, h: r.rec.Handle(), stats: r.stats.add()}
}

// txnTimes are a transaction's instants: when the schedule meant it to start, when
// it started and when it ended.
type txnTimes struct {
	intended, start, end time.Time
}

// finish records one transaction: response time from its intended start, service time
// from the first statement. It returns false when the transaction was cut by shutdown:
// such a transaction is not recorded at all.
func (r *recording) finish(w *worker, k txn.Kind, at txnTimes, out *txn.Outcome, err error) bool {
	intended, start, end := at.intended, at.start, at.end
	w.stats.statements.Add(int64(out.Statements))
	if err != nil {
		switch database.Classify(err) {
		case database.Canceled:
			if r.txCtx.Err() != nil {
				return false
			}
		case database.Rollback:
			// The workload's intended rollback, passed up as an error: normal.
			out.RolledBack, err = true, nil
		}
	}
	if err != nil && isConnectionFailure(err) {
		r.connKinds[database.ConnectionKind(err)].Add(1)
	} else {
		r.answered(end)
	}
	retries := max(0, out.Attempts-1)
	w.stats.edge.Lock()
	defer w.stats.edge.Unlock()
	if err != nil {
		c := failureClass(err)
		w.stats.fails[c].Add(1)
		r.noteFailure(c, err)
		w.h.Record(kindNames[k], 0, 0, record.Outcome{Failed: true, Retries: retries})
		return true
	}
	svc := out.ServiceStart
	if svc.IsZero() || svc.Before(start) {
		svc = start
	}
	w.stats.ok.Add(1)
	w.h.Record(kindNames[k], end.Sub(intended), end.Sub(svc), record.Outcome{Retries: retries, RolledBack: out.RolledBack})
	return true
}

func (r *recording) noteFailure(class int, err error) {
	r.mu.Lock()
	first := r.firstErr[class] == nil
	if first {
		r.firstErr[class] = err
	}
	r.mu.Unlock()
	if first && r.onNewFail != nil {
		r.onNewFail(classNames[class], err)
	}
}

// anyFailure returns the first failure seen, preferring the most telling class.
func (r *recording) anyFailure() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range []int{3, 2, 0, 1} {
		if r.firstErr[c] != nil {
			return r.firstErr[c]
		}
	}
	return nil
}
