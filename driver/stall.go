package driver

import (
	"context"
	"fmt"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/txn"
)

// A server can stop answering without refusing anything: its processes stopped, its
// disks hung, or a network that drops packets. Its connections stay open and every
// transaction waits. The run notices it three ways (docs/faults.md, "When the server
// goes away during a run"):
//
//   - the liveness probe: once a second, SELECT 1 over a connection of its own
//     (Config.Probe). A slow server (a lock held for minutes, a saturated disk)
//     still answers it; a stopped one does not. The watch (lost.go) counts as
//     silence only the time in which neither a transaction nor the probe got an
//     answer, so a slow server is never taken for a stopped one;
//   - the transaction deadline: every transaction runs under one (TxnDeadline), so
//     a connection that hangs for good (a half-open TCP connection) ends in a
//     timeout instead of holding its user for ever;
//   - TCP keepalives on every connection (database.KeepAlive), which end idle
//     connections to a host that vanished.

// Transaction deadlines: DeadlineFactor times the transaction's response-time limit
// (the run's --limit, else the catalogue's), never under MinTxnDeadline nor twice the
// grace period. At 30 times its limit a transaction has failed its limit by far, yet
// a slow disk's long transaction is not cut: Trade-Status (1 s) may take a minute,
// Trade-Update (3 s) a minute and a half. A transaction without a limit
// (Data-Maintenance) gets the deadline of the longest limit.
const (
	DeadlineFactor = 30
	MinTxnDeadline = time.Minute
)

// TxnDeadline is the deadline of a transaction whose response-time limit is limit
// (0: none) in a run whose grace period is grace.
func TxnDeadline(limit, grace time.Duration) time.Duration {
	if limit <= 0 {
		for _, s := range txn.Catalogue {
			limit = max(limit, s.Limit)
		}
	}
	return max(DeadlineFactor*limit, MinTxnDeadline, 2*grace)
}

// deadlines gives every transaction kind its deadline for a run with limits
// (results.Limits: by name; absent names take the catalogue's limit).
func deadlines(limits results.Limits, grace time.Duration) (d [txn.NumKinds]time.Duration) {
	if grace <= 0 {
		grace = DefaultLostGrace
	}
	for _, s := range txn.Catalogue {
		limit := s.Limit
		if l, ok := limits[s.Name]; ok {
			limit = l
		}
		d[s.Kind] = TxnDeadline(limit, grace)
	}
	return d
}

// TxnTimeoutError is a transaction that passed its deadline: the server did not
// answer it in time. It counts as a connection failure that timed out.
type TxnTimeoutError struct {
	Txn   string
	After time.Duration
}

func (e *TxnTimeoutError) Error() string {
	return fmt.Sprintf("%s: no answer within %s (its deadline: %d times its response-time limit, docs/faults.md)", e.Txn, e.After, DeadlineFactor)
}

// Timeout and Temporary make it a net.Error that timed out, which is how
// database.Classify and database.ConnectionKind sort it.
func (e *TxnTimeoutError) Timeout() bool   { return true }
func (e *TxnTimeoutError) Temporary() bool { return true }

// attempt runs one transaction (run) under its deadline, counted in flight while it
// waits for the server. A transaction cut by its deadline, not by shutdown, returns
// a *TxnTimeoutError.
func (r *recording) attempt(k txn.Kind, run func(context.Context) (txn.Outcome, error)) (txn.Outcome, error) {
	r.inFlight.Add(1)
	defer r.inFlight.Add(-1)
	ctx := r.txCtx
	if limit := r.deadlines[k]; limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	out, err := run(ctx)
	if err != nil && ctx.Err() == context.DeadlineExceeded && r.txCtx.Err() == nil {
		err = &TxnTimeoutError{Txn: kindNames[k], After: r.deadlines[k]}
	}
	return out, err
}

// answered notes that the server answered at t (a transaction, or the probe). A
// plain store: two answers stored out of order move the time back by the few
// microseconds between taking t and storing it, nothing against the seconds of
// silence the watch looks for.
func (r *recording) answered(t time.Time) { r.lastAnswer.Store(t.UnixNano()) }

// signals are the watch's view of the recording now.
func (r *recording) signals() signals {
	s := signals{inFlight: r.inFlight.Load()}
	if ns := r.lastAnswer.Load(); ns != 0 {
		s.answeredAt = time.Unix(0, ns)
	}
	for i := range s.kinds {
		s.kinds[i] = r.connKinds[i].Load()
	}
	return s
}

// probeEvery is the liveness probe's period.
const probeEvery = time.Second

// probeLoop runs the liveness probe once a second until ctx ends. A probe may wait
// for its answer as long as the grace period: a slow answer is an answer.
func (d *Driver) probeLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-d.clock.After(probeEvery):
		}
		pctx, cancel := context.WithTimeout(ctx, d.watch.grace)
		err := d.cfg.Probe(pctx)
		cancel()
		if err == nil {
			d.rec.answered(d.clock.Now())
		}
	}
}

// isConnectionFailure: err says the connection failed, the server did not answer
// in time included.
func isConnectionFailure(err error) bool {
	return database.Classify(err) == database.Connection
}
