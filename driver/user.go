package driver

import (
	"context"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema/rnd"
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
	grace := time.AfterFunc(d.cfg.ShutdownGrace, cancelTx)
	defer grace.Stop()
	for _, u := range users {
		if u.done != nil {
			<-u.done
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

// runUser is the user loop (docs/workload.md §6.1): think, take the pacer's intended start,
// wait for it, run, record from the intended start, pass Trade-Orders to the
// emulator. Think time is spent outside the measured transaction.
func (d *Driver) runUser(ctx context.Context, u *user) {
	defer close(u.done)
	last := d.clock.Now()
	var backoff time.Duration // after the last lost connection in a row; 0 after a success
	for {
		intended := last.Add(ThinkTime(d.meanThink(), u.r.Float64()))
		if sleepUntil(ctx, d.clock, intended) != nil {
			return
		}
		if d.sched != nil {
			intended = d.sched.Next(d.clock.Now())
			if sleepUntil(ctx, d.clock, intended) != nil {
				return
			}
		}
		k := u.deck.Next()
		start := d.clock.Now()
		u.w.stats.start(intended, start)
		out, err := u.w.exec.Run(d.rec.txCtx, k)
		end := d.clock.Now()
		last = end
		if d.cfg.NominalTPSE > 0 {
			// Nominal pacing: the think time runs from this start, a pacing interval,
			// so response times do not lower the offered rate. A transaction longer
			// than the next draw makes the next start late, and its response time
			// (from the intended start) says so.
			last = start
		}
		if !d.rec.finish(u.w, k, intended, start, end, &out, err) {
			return
		}
		if err == nil && !out.RolledBack && len(out.ToMarket) > 0 {
			d.mee.submit(out.ToMarket, end)
		}
		if err != nil && database.Classify(err) == database.Connection {
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
