package driver

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/brokerbench/brokerbench/schema/rnd"
	"github.com/brokerbench/brokerbench/txn"
)

// failureBackoff is how long a user pauses after a lost connection, so a server
// that is down is not hammered while the pool reconnects. Each further lost
// connection in a row doubles the pause, up to maxFailureBackoff: thousands of users
// retrying every 250 ms against a restarting server would be a reconnect storm.
const (
	failureBackoff    = 250 * time.Millisecond
	maxFailureBackoff = 4 * time.Second
)

// nextBackoff is the pause after a lost connection that followed prev (0: the first
// in a row). A user-dependent spread of up to a quarter keeps users that lost their
// connections together from coming back together.
func nextBackoff(prev time.Duration, id int) time.Duration {
	b := failureBackoff
	if prev > 0 {
		b = min(2*prev, maxFailureBackoff)
	}
	return b + b/4*time.Duration(id%8)/8
}

// user is one emulated customer: its own executor, deck and think-time stream.
type user struct {
	w      *worker
	deck   Deck
	r      *rnd.Rand
	cancel context.CancelFunc
	done   chan struct{}
	// intended is the start the user is waiting for or running (Unix ns on the
	// run's clock; 0 when stopped), for startsOwed.
	intended atomic.Int64
}

// setUsers starts or stops users to reach n. A stopped user finishes its
// transaction first; a slot started again reuses its executor once the old
// goroutine is gone.
func (d *Driver) setUsers(n int) {
	d.usersMu.Lock()
	defer d.usersMu.Unlock()
	if d.cfg.NominalTPSE > 0 {
		d.nominalThink.Store(int64(NominalThink(n, d.cfg.NominalTPSE)))
	}
	for len(d.users) < n {
		id := len(d.users)
		d.users = append(d.users, &user{
			w:    d.rec.newWorker(id, d.cfg.NewUserExecutor(id)),
			deck: d.cfg.NewDeck(id),
			r:    rnd.New(d.cfg.Seed, 0x7468696e6b, uint64(id)),
		})
	}
	for i := d.active; i < n; i++ {
		u := d.users[i]
		if u.done != nil {
			<-u.done
		}
		ctx, cancel := context.WithCancel(d.runCtx)
		u.cancel, u.done = cancel, make(chan struct{})
		go d.runUser(ctx, u)
	}
	for i := n; i < d.active; i++ {
		d.users[i].cancel()
	}
	d.active = n
}

// waitUsers stops every user and waits for them, giving in-flight transactions the
// grace period before cutting them through cancelTx.
func (d *Driver) waitUsers(cancelTx context.CancelFunc) {
	d.usersMu.Lock()
	users := append([]*user(nil), d.users...)
	d.usersMu.Unlock()
	for _, u := range users {
		if u.cancel != nil {
			u.cancel()
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, u := range users {
			if u.done != nil {
				<-u.done
			}
		}
	}()
	d.waitOrCut(done, cancelTx)
}

// waitOrCut waits for done, cutting the transactions in flight (cancelTx) after the
// shutdown grace period, or at once while the server answers nothing: a stalled
// server would keep them waiting until it continued, so an interrupt would do
// nothing for as long.
func (d *Driver) waitOrCut(done <-chan struct{}, cancelTx context.CancelFunc) {
	deadline := d.clock.Now().Add(d.cfg.ShutdownGrace)
	for {
		select {
		case <-done:
			return
		case <-d.clock.After(250 * time.Millisecond):
		}
		if d.watch.silent() || !d.clock.Now().Before(deadline) {
			cancelTx()
		}
	}
}

// meanThink is the users' mean think time: --think, or under nominal pacing the
// current step's (set with the user count).
func (d *Driver) meanThink() time.Duration {
	if d.cfg.NominalTPSE > 0 {
		return time.Duration(d.nominalThink.Load())
	}
	return d.cfg.Think
}

// runUser is the user loop (docs/workload.md §6.1): take the next intended start,
// wait for it, run, record from the intended start, pass Trade-Orders to the
// emulator. Think time is spent outside the measured transaction.
//
// With --think the think time follows the response (closed loop): a slower server
// is offered less, which is what a thinking user does. Under nominal pacing the
// user's starts are a schedule drawn in advance instead, intended start = previous
// intended start + draw (paceSchedule), so a slow response delays this user's next
// start but not the schedule: fast and slow storage are offered the same load, and
// a start made late carries its delay in its response time, as under --rate.
func (d *Driver) runUser(ctx context.Context, u *user) {
	defer close(u.done)
	defer u.intended.Store(0)
	last := d.clock.Now()
	paced := d.cfg.NominalTPSE > 0
	var backoff time.Duration // after the last lost connection in a row; 0 after a success
	for {
		mean := d.meanThink()
		intended := last.Add(ThinkTime(mean, u.r.Float64()))
		if paced {
			intended = d.catchUp(u, intended, mean)
		}
		u.intended.Store(intended.UnixNano())
		if sleepUntil(ctx, d.clock, intended) != nil {
			return
		}
		if s := d.sched.Load(); s != nil {
			intended = s.Next(d.clock.Now())
			if sleepUntil(ctx, d.clock, intended) != nil {
				return
			}
		}
		k := u.deck.Next()
		start := d.clock.Now()
		u.w.stats.start(intended, start)
		out, err := d.rec.attempt(k, func(ctx context.Context) (txn.Outcome, error) { return u.w.exec.Run(ctx, k) })
		end := d.clock.Now()
		last = end
		if paced {
			last = intended
		}
		if !d.rec.finish(u.w, k, txnTimes{intended, start, end}, &out, err) {
			return
		}
		if err == nil && !out.RolledBack && len(out.ToMarket) > 0 {
			d.mee.submit(out.ToMarket, end)
		}
		if err != nil && isConnectionFailure(err) {
			backoff = nextBackoff(backoff, u.w.id)
			if d.clock.Sleep(ctx, backoff) != nil {
				return
			}
			last = d.clock.Now()
		} else {
			backoff = 0
		}
	}
}

// catchUp drops the scheduled starts of a user more than LagHorizon behind its
// schedule, drawing the schedule on past them and counting each as dropped, as the
// rate pacer does: a user that cannot keep up would otherwise build a backlog
// without end, and its response times would only measure the backlog.
func (d *Driver) catchUp(u *user, intended time.Time, mean time.Duration) time.Time {
	horizon := d.clock.Now().Add(-LagHorizon)
	if mean <= 0 || !intended.Before(horizon) {
		return intended
	}
	var dropped int64
	for intended.Before(horizon) {
		intended = intended.Add(ThinkTime(mean, u.r.Float64()))
		dropped++
	}
	d.paceDropped.Add(dropped)
	return intended
}

// startsOwed is how many of the users' scheduled starts had fallen due by now
// and not been made: for each user running a transaction that started late, the
// expected number of schedule points between its intended start and now (the draws
// are exponential, so that is the time behind divided by the mean think time). A
// user waiting for a start still ahead owes none.
func (d *Driver) startsOwed(now time.Time) int64 {
	mean := d.meanThink()
	if d.cfg.NominalTPSE <= 0 || mean <= 0 {
		return 0
	}
	d.usersMu.Lock()
	defer d.usersMu.Unlock()
	var behind time.Duration
	for _, u := range d.users[:d.active] {
		if at := u.intended.Load(); at != 0 && now.UnixNano() > at {
			behind += now.Sub(time.Unix(0, at))
		}
	}
	return int64(float64(behind) / float64(mean))
}
