package driver

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/results"
)

// The lost-server policy (docs/faults.md, "When the server goes away during a run"). A server
// that goes away shows as seconds in which transactions fail with connection
// errors and none succeeds (an outage), or in which nothing comes back at all, not
// even the answer to the liveness probe's SELECT 1 (a stall: a stopped server, a
// network that drops packets). Either that ends within the grace period (a
// restart, a failover, a pause) is ridden out: the pools reconnect on their own and
// the step it ended in is flagged. One that lasts longer ends the run: the step in progress is
// cut, the finished steps are kept, and Run returns a *ServerLostError, so the
// caller skips what needs the server (the post-run check) and exits 1. Without it,
// every later step ran at 100 % errors and was written as if measured.

// DefaultLostGrace is how long every connection may fail before the server is
// declared lost: long enough for a fast restart or a failover, short enough that a
// dead server ends the run in seconds.
const DefaultLostGrace = 10 * time.Second

// ServerLostError ends a run whose server stopped answering for longer than the
// grace period: it refused or cut every connection (an outage), or answered
// nothing at all, not even the liveness probe (a stall: stopped, or a network
// that drops packets).
type ServerLostError struct {
	At time.Time // when the failures or the silence began
	// Refused, Reset, TimedOut and Failed count the transactions that failed on their
	// connection since then, by how (database.ConnectionKind).
	Refused, Reset, TimedOut, Failed int64
	// Stalled: nothing refused or cut a connection; the server just did not answer.
	// InFlight transactions were waiting for it when the run gave up.
	Stalled  bool
	InFlight int64
	Grace    time.Duration // the grace period that passed
	// AtEnd: the steps ended while it was down, before the grace period passed.
	AtEnd bool
}

func (e *ServerLostError) Error() string {
	at := e.At.Local().Format("15:04:05")
	if e.Stalled {
		what := fmt.Sprintf("%d transaction(s) in flight%s", e.InFlight, e.failures(", "))
		if e.AtEnd {
			return fmt.Sprintf("the server stopped answering at %s (%s; still silent when the last step ended)", at, what)
		}
		return fmt.Sprintf("the server stopped answering at %s (%s; no answer to them or to the liveness probe for %s)", at, what, e.Grace)
	}
	if e.AtEnd {
		return fmt.Sprintf("lost the database server at %s (%s; still down when the last step ended)", at, e.failures(""))
	}
	return fmt.Sprintf("lost the database server at %s (%s, none answered for %s)", at, e.failures(""), e.Grace)
}

// failures names the connection failures by kind, refusals first ("12 connections
// refused, 3 reset, 2 timed out"), after sep; "" when there were none and sep is
// not "" (a stall), "no connection failed" otherwise.
func (e *ServerLostError) failures(sep string) string {
	var parts []string
	for _, f := range []struct {
		n    int64
		kind database.ConnKind
	}{{e.Refused, database.ConnRefused}, {e.Reset, database.ConnReset}, {e.TimedOut, database.ConnTimeout}, {e.Failed, database.ConnOther}} {
		if f.n > 0 {
			noun := ""
			if len(parts) == 0 {
				noun = " connections"
				if f.n == 1 {
					noun = " connection"
				}
			}
			parts = append(parts, fmt.Sprintf("%d%s %s", f.n, noun, f.kind))
		}
	}
	switch {
	case len(parts) > 0:
		return sep + strings.Join(parts, ", ")
	case sep != "":
		return ""
	}
	return "no connection failed"
}

// IsServerLost reports whether err is (or wraps) a *ServerLostError.
func IsServerLost(err error) bool {
	var l *ServerLostError
	return errors.As(err, &l)
}

// Outage is one spell in which every connection failed, ended by the server
// answering again within the grace period.
type Outage struct {
	From, Until time.Time
	Refused     int64
}

// Stall is one spell in which the server answered nothing, neither a transaction
// nor the liveness probe, for longer than stallMin, ended within the grace period.
type Stall struct{ From, Until time.Time }

// signals are what the tick hands the watch beside the totals: when the server
// last answered (a transaction or the liveness probe), how many transactions wait
// for it, and the connection failures so far by kind.
type signals struct {
	answeredAt time.Time
	inFlight   int64
	kinds      [database.NumConnKinds]int64
}

// serverWatch follows, tick by tick, whether the server answers. The tick gives it
// the running totals of successes and connection failures and the signals; the
// step loop takes the outages and stalls of its window, and the run's end asks
// whether one is in progress.
type serverWatch struct {
	grace time.Duration
	// probed: a liveness probe runs, so silence counts even with nothing in
	// flight (without one, only transactions that wait for an answer are silence).
	probed     bool
	mu         sync.Mutex
	last       time.Time // the previous tick
	ok, conn   int64     // totals at the previous tick
	downSince  time.Time // zero: the server answers
	connAtDown int64     // connection failures before the outage began
	outages    []Outage  // ended in the current window
	// silentSince is when the server last answered, once it has been silent for
	// longer than stallMin; zero while it answers.
	silentSince time.Time
	// kindsAtGood are the failures by kind at the last tick the server answered
	// in: a loss counts the failures since.
	kindsAtGood [database.NumConnKinds]int64
	stalls      []Stall // ended in the current window
}

// stallMin is the shortest silence taken for a stall: three rounds of the
// liveness probe (one a second), so a busy machine's scheduling hiccup is not one.
const stallMin = 3 * time.Second

func newServerWatch(grace time.Duration, now time.Time, probed bool) *serverWatch {
	if grace <= 0 {
		grace = DefaultLostGrace
	}
	return &serverWatch{grace: grace, last: now, probed: probed}
}

// observe takes the totals at a tick. It returns a *ServerLostError once the server
// has failed every connection, or answered nothing, for longer than the grace
// period.
func (w *serverWatch) observe(now time.Time, ok, conn int64, sig signals) *ServerLostError {
	w.mu.Lock()
	defer w.mu.Unlock()
	dOK, dConn := ok-w.ok, conn-w.conn
	prev := w.last
	w.ok, w.conn, w.last = ok, conn, now
	switch {
	case dOK > 0 && dConn == 0 && !w.downSince.IsZero():
		// Back within the grace period: the step is flagged, the run goes on. A
		// second with successes and failures is not back yet: after a SIGKILL of the
		// postmaster, backends already running finish a few transactions before
		// they notice.
		w.outages = append(w.outages, Outage{From: w.downSince, Until: now, Refused: conn - w.connAtDown})
		w.downSince = time.Time{}
	case dOK == 0 && dConn > 0 && w.downSince.IsZero() && w.silentSince.IsZero():
		// The failures began within the last tick. In a silence they are its own
		// (a connect to a stopped server that timed out), not an outage.
		w.downSince, w.connAtDown = prev, conn-dConn
	}
	if lost := w.observeSilence(now, sig); lost != nil {
		return lost
	}
	if !w.downSince.IsZero() && now.Sub(w.downSince) > w.grace {
		return w.lost(w.downSince, sig, false)
	}
	return nil
}

// observeSilence follows the stall half of observe: how long the server has
// answered nothing.
func (w *serverWatch) observeSilence(now time.Time, sig signals) *ServerLostError {
	if sig.answeredAt.IsZero() {
		return nil
	}
	recent := now.Sub(sig.answeredAt) <= stallMin
	waiting := w.probed || sig.inFlight > 0
	switch {
	case !recent && waiting && w.silentSince.IsZero() && w.downSince.IsZero():
		w.silentSince = sig.answeredAt
	case recent && !w.silentSince.IsZero():
		// Answered again within the grace period. A silence in which connections
		// were refused or cut is an outage's, which the outage half records.
		cut := func(k [database.NumConnKinds]int64) int64 { return k[database.ConnRefused] + k[database.ConnReset] }
		if cut(sig.kinds) == cut(w.kindsAtGood) {
			w.stalls = append(w.stalls, Stall{From: w.silentSince, Until: sig.answeredAt})
		}
		w.silentSince = time.Time{}
	}
	if w.silentSince.IsZero() && w.downSince.IsZero() {
		w.kindsAtGood = sig.kinds
		return nil
	}
	if !w.silentSince.IsZero() && now.Sub(w.silentSince) > w.grace {
		return w.lost(w.silentSince, sig, true)
	}
	return nil
}

// lost describes the loss that began at since; a silence in which connections were
// refused or cut is told as an outage.
func (w *serverWatch) lost(since time.Time, sig signals, silence bool) *ServerLostError {
	k := sig.kinds
	g := w.kindsAtGood
	l := &ServerLostError{At: since, Grace: w.grace, InFlight: sig.inFlight,
		Refused: k[database.ConnRefused] - g[database.ConnRefused], Reset: k[database.ConnReset] - g[database.ConnReset],
		TimedOut: k[database.ConnTimeout] - g[database.ConnTimeout], Failed: k[database.ConnOther] - g[database.ConnOther]}
	l.Stalled = silence && l.Refused+l.Reset == 0
	return l
}

// silent reports whether the server has answered nothing for longer than stallMin
// (its transactions hang): a shutdown then cuts them at once rather than waiting
// for them.
func (w *serverWatch) silent() bool {
	if w == nil {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return !w.silentSince.IsZero()
}

// lostAtEnd returns a *ServerLostError when the steps ended during an outage or a
// silence (shorter than the grace period so far): with no server answering, what
// follows the run (its check) must not take a refused connection for a finding.
func (w *serverWatch) lostAtEnd(sig signals) *ServerLostError {
	w.mu.Lock()
	defer w.mu.Unlock()
	var l *ServerLostError
	switch {
	case !w.silentSince.IsZero():
		l = w.lost(w.silentSince, sig, true)
	case !w.downSince.IsZero():
		l = w.lost(w.downSince, sig, false)
	default:
		return nil
	}
	l.AtEnd = true
	return l
}

// takeEnded returns the outages and stalls that ended since the last call.
func (w *serverWatch) takeEnded() ([]Outage, []Stall) {
	w.mu.Lock()
	defer w.mu.Unlock()
	outages, stalls := w.outages, w.stalls
	w.outages, w.stalls = nil, nil
	return outages, stalls
}

// recordOutages adds the outages and stalls that ended in the step's window to its
// faults and flags it.
func recordOutages(st *results.Step, ended []Outage, stalls []Stall) {
	if len(ended) > 0 {
		f := ensureFaults(st)
		for _, o := range ended {
			f.ServerOutages++
			f.ServerDownS += o.Until.Sub(o.From).Seconds()
		}
		f.ServerDownS = round2(f.ServerDownS)
		st.Flags = append(st.Flags, results.FlagServerOutage)
	}
	if len(stalls) > 0 {
		f := ensureFaults(st)
		for _, s := range stalls {
			f.ServerStalls++
			f.ServerStallS += s.Until.Sub(s.From).Seconds()
		}
		f.ServerStallS = round2(f.ServerStallS)
		st.Flags = append(st.Flags, results.FlagServerStall)
	}
}

// markLost marks the step the run ended in because the server was lost.
func markLost(st *results.Step) {
	ensureFaults(st).ServerLost = true
	st.Flags = append(st.Flags, results.FlagServerLost)
}

func ensureFaults(st *results.Step) *results.Faults {
	if st.Faults == nil {
		st.Faults = &results.Faults{ByClass: map[string]int64{}}
	}
	return st.Faults
}
