package driver

import (
	"context"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/results/record"
	"github.com/brokerbench/brokerbench/schema/rnd"
	"github.com/brokerbench/brokerbench/txn"
)

// noopExec returns at once: what is left is the driver's own cost per transaction.
type noopExec struct {
	n, limit int
	stop     func()
}

func (e *noopExec) Run(_ context.Context, k txn.Kind) (txn.Outcome, error) {
	if e.n++; e.n == e.limit {
		e.stop()
	}
	return txn.Outcome{Kind: k, Attempts: 1, Statements: 1, ServiceStart: time.Now()}, nil
}
func (e *noopExec) TradeResult(context.Context, int64, int64) (txn.Outcome, error) {
	return txn.Outcome{}, nil
}
func (e *noopExec) MarketFeed(context.Context, []txn.TickerEntry) (txn.Outcome, error) {
	return txn.Outcome{}, nil
}

// BenchmarkUserLoopOverhead is the driver's cost per transaction on the wall clock:
// pacing, dealing, timing and recording, with a transaction that costs nothing.
// Compare it with the client CPU per transaction that scripts/bench-driver.sh reports.
func BenchmarkUserLoopOverhead(b *testing.B) {
	for _, rate := range []float64{0, 1e9} {
		name := "closed"
		if rate > 0 {
			name = "rate"
		}
		b.Run(name, func(b *testing.B) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			clk := RealClock{}
			rec := &recording{rec: record.NewRecorder(clk.Now()), txCtx: context.Background()}
			d := &Driver{cfg: Config{Seed: 1}, clock: clk, rec: rec}
			if rate > 0 {
				d.sched.Store(NewRateSchedule(rate, clk.Now()))
			}
			d.mee = newMEE(DefaultMarket(1), clk, rec, 685, 1, clk.Now())
			exec := &noopExec{limit: b.N, stop: cancel}
			u := &user{w: rec.newWorker(0, exec), deck: txn.NewDeck(rnd.New(1, 2)), r: rnd.New(1, 3), done: make(chan struct{})}
			stopTick := make(chan struct{})
			go func() { // the recorder's tick, as in a run
				t := time.NewTicker(time.Second)
				defer t.Stop()
				for {
					select {
					case <-stopTick:
						return
					case now := <-t.C:
						rec.rec.Tick(now, nil)
					}
				}
			}()
			b.ReportAllocs()
			b.ResetTimer()
			d.runUser(ctx, u)
			b.StopTimer()
			close(stopTick)
		})
	}
}
