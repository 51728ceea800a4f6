package driver

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/results/record"
	"github.com/brokerbench/brokerbench/schema/rnd"
	"github.com/brokerbench/brokerbench/txn"
)

// fakeClock moves only when someone sleeps or works: Sleep jumps ahead by the asked
// duration plus a fixed oversleep, so the user loop runs without real waiting.
type fakeClock struct {
	mu        sync.Mutex
	now       time.Time
	oversleep time.Duration
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d > 0 {
		c.advance(d + c.oversleep)
	}
	return nil
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c.advance(d)
	ch <- c.Now()
	return ch
}

// clockExec takes a fixed service time on the fake clock, after a fixed queueing
// delay before its first statement.
type clockExec struct {
	c              *fakeClock
	queue, service time.Duration
	n              int
	stop           func()
	limit          int
}

func (e *clockExec) Run(ctx context.Context, k txn.Kind) (txn.Outcome, error) {
	e.c.advance(e.queue)
	first := e.c.Now()
	e.c.advance(e.service)
	if e.n++; e.n == e.limit {
		e.stop()
	}
	return txn.Outcome{Kind: k, Attempts: 1, Statements: 2, ServiceStart: first}, nil
}

func (e *clockExec) TradeResult(context.Context, int64, int64) (txn.Outcome, error) {
	return txn.Outcome{}, nil
}
func (e *clockExec) MarketFeed(context.Context, []txn.TickerEntry) (txn.Outcome, error) {
	return txn.Outcome{}, nil
}

// TestUserLoopFakeClock runs one user's loop on a fake clock: think time between
// transactions, response time from the intended start (think end), service time
// from the first statement, and late wake-ups counted as lag and in the response.
func TestUserLoopFakeClock(t *testing.T) {
	for _, tc := range []struct {
		name      string
		think     time.Duration
		oversleep time.Duration
		wantLate  int64
	}{
		{"no think time", 0, 0, 0},
		{"think time, punctual clock", 100 * time.Millisecond, 0, 0},
		{"think time, every wake-up 3 ms late", 100 * time.Millisecond, 3 * time.Millisecond, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := &fakeClock{now: time.Unix(1000, 0), oversleep: tc.oversleep}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			exec := &clockExec{c: clk, queue: 2 * time.Millisecond, service: 5 * time.Millisecond, stop: cancel, limit: 200}
			rec := &recording{rec: record.NewRecorder(clk.Now()), txCtx: context.Background()}
			d := &Driver{cfg: Config{Think: tc.think, Seed: 1}, clock: clk, rec: rec}
			d.mee = newMEE(DefaultMarket(1), clk, rec, 685, 1, clk.Now())
			u := &user{w: rec.newWorker(0, exec), deck: newTestDeck(rnd.New(1, 2)), r: rnd.New(1, 3), done: make(chan struct{})}
			start := clk.Now()
			d.runUser(ctx, u)

			txns, _ := rec.rec.Window()
			var count int64
			var respSum, svcSum float64
			for _, tx := range txns {
				count += tx.Count
				respSum += tx.AvgMS * float64(tx.Count)
				svcSum += tx.ServiceAvgMS * float64(tx.Count)
			}
			if count != 200 {
				t.Fatalf("%d transactions recorded, want 200", count)
			}
			// Response = queueing + service + lateness; service excludes queueing.
			wantResp := float64(7*time.Millisecond+tc.oversleep) / 1e6
			if got := respSum / float64(count); got < wantResp-0.01 || got > wantResp+0.01 {
				t.Errorf("average response %.3f ms, want %.3f", got, wantResp)
			}
			if got := svcSum / float64(count); got < 4.99 || got > 5.01 {
				t.Errorf("average service %.3f ms, want 5", got)
			}
			s := rec.stats.sum(false)
			if s.late != tc.wantLate || s.starts != 200 || s.statements != 400 {
				t.Errorf("late %d (want %d), starts %d, statements %d", s.late, tc.wantLate, s.starts, s.statements)
			}
			// The think times' mean shows in the elapsed fake time.
			if tc.think > 0 {
				elapsed := clk.Now().Sub(start)
				perTxn := (elapsed - 200*(7*time.Millisecond+tc.oversleep)) / 200
				if perTxn < 70*time.Millisecond || perTxn > 130*time.Millisecond {
					t.Errorf("mean think time %s, want about %s", perTxn, tc.think)
				}
			}
		})
	}
}
