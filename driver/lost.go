package driver

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/brokerbench/brokerbench/results"
)

// The lost-server policy (docs/faults.md, "When the server goes away during a run"). A server
// that stops answering shows as seconds in which transactions fail with connection
// errors and none succeeds. Such an outage that ends within the grace period (a
// restart, a failover) is ridden out: the pools reconnect on their own and the step
// it fell in is flagged. One that lasts longer ends the run: the step in progress is
// cut, the finished steps are kept, and Run returns a *ServerLostError, so the
// caller skips what needs the server (the post-run check) and exits 1. Without it,
// every later step ran at 100 % errors and was written as if measured.

// DefaultLostGrace is how long every connection may fail before the server is
// declared lost: long enough for a fast restart or a failover, short enough that a
// dead server ends the run in seconds.
const DefaultLostGrace = 10 * time.Second

// ServerLostError ends a run whose server stopped answering for longer than the
// grace period.
type ServerLostError struct {
	At      time.Time     // when the failures began
	Refused int64         // connection failures since then
	Grace   time.Duration // the grace period that passed
	// AtEnd: the steps ended while it was down, before the grace period passed.
	AtEnd bool
}

func (e *ServerLostError) Error() string {
	if e.AtEnd {
		return fmt.Sprintf("lost the database server at %s (%d connections refused; still down when the last step ended)",
			e.At.Local().Format("15:04:05"), e.Refused)
	}
	return fmt.Sprintf("lost the database server at %s (%d connections refused, none answered for %s)",
		e.At.Local().Format("15:04:05"), e.Refused, e.Grace)
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

// serverWatch follows, tick by tick, whether the server answers. The tick gives it
// the running totals of successes and connection failures; the step loop takes the
// outages of its window, and the run's end asks whether one is in progress.
type serverWatch struct {
	grace      time.Duration
	mu         sync.Mutex
	last       time.Time // the previous tick
	ok, conn   int64     // totals at the previous tick
	downSince  time.Time // zero: the server answers
	connAtDown int64     // connection failures before the outage began
	outages    []Outage  // ended in the current window
}

func newServerWatch(grace time.Duration, now time.Time) *serverWatch {
	if grace <= 0 {
		grace = DefaultLostGrace
	}
	return &serverWatch{grace: grace, last: now}
}

// observe takes the totals at a tick. It returns a *ServerLostError once the server
// has failed every connection for longer than the grace period.
func (w *serverWatch) observe(now time.Time, ok, conn int64) *ServerLostError {
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
	case dOK == 0 && dConn > 0 && w.downSince.IsZero():
		// The failures began within the last tick.
		w.downSince, w.connAtDown = prev, conn-dConn
	}
	if !w.downSince.IsZero() && now.Sub(w.downSince) > w.grace {
		return &ServerLostError{At: w.downSince, Refused: conn - w.connAtDown, Grace: w.grace}
	}
	return nil
}

// lostAtEnd returns a *ServerLostError when the steps ended during an outage
// (shorter than the grace period so far): with no server answering, what follows
// the run (its check) must not take a refused connection for a finding.
func (w *serverWatch) lostAtEnd() *ServerLostError {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.downSince.IsZero() {
		return nil
	}
	return &ServerLostError{At: w.downSince, Refused: w.conn - w.connAtDown, Grace: w.grace, AtEnd: true}
}

// takeOutages returns the outages that ended since the last call.
func (w *serverWatch) takeOutages() []Outage {
	w.mu.Lock()
	defer w.mu.Unlock()
	ended := w.outages
	w.outages = nil
	return ended
}

// recordOutages adds the outages that ended in the step's window to its faults and
// flags it.
func recordOutages(st *results.Step, ended []Outage) {
	if len(ended) == 0 {
		return
	}
	f := ensureFaults(st)
	for _, o := range ended {
		f.ServerOutages++
		f.ServerDownS += o.Until.Sub(o.From).Seconds()
	}
	f.ServerDownS = round2(f.ServerDownS)
	st.Flags = append(st.Flags, results.FlagServerOutage)
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
