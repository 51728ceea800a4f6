package txn

import (
	"context"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/schema"
)

// cpuTime is the process's user+system CPU time: the client's cost of a transaction
// (pgx encoding and decoding, our frames, the GC), not the server's.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	// Settle the heap first so the collection of earlier garbage (the test database's
	// load, when this process built it) is not charged to the transaction.
	runtime.GC()
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkTransactions reports each transaction's client CPU time per call
// (cpu-us/op) against the real server; ns/op is the round-trip latency of one
// worker on an idle database.
func BenchmarkTransactions(b *testing.B) {
	db := loadedDB(b, 4)
	ctx := context.Background()
	e := newTestExecutor(db, 1)
	var stmts int
	report := func(b *testing.B, cpu time.Duration) {
		b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-us/op")
		b.ReportMetric(float64(stmts)/float64(b.N), "stmts/op")
		stmts = 0
	}
	for _, k := range []Kind{BrokerVolume, CustomerPosition, MarketWatch, SecurityDetail, TradeLookup, TradeOrder, TradeStatus, TradeUpdate, DataMaintenance} {
		b.Run(k.String(), func(b *testing.B) {
			c0 := cpuTime(b)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				o, err := e.Run(ctx, k)
				if err != nil {
					b.Fatal(err)
				}
				stmts += o.Statements
			}
			b.StopTimer()
			report(b, cpuTime(b)-c0)
		})
	}
	b.Run(TradeResult.String(), func(b *testing.B) {
		// Submitted market orders to complete, placed outside the measurement.
		var orders []MarketRequest
		for len(orders) < b.N {
			in := e.gen.TradeOrder()
			in.Rollback, in.IsLimit = false, false
			in.TradeType = map[bool]string{true: schema.MarketSell, false: schema.MarketBuy}[in.IsSell]
			o, err := e.tradeOrder(ctx, in)
			if err != nil {
				b.Fatal(err)
			}
			orders = append(orders, o.ToMarket...)
		}
		c0 := cpuTime(b)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			o, err := e.TradeResult(ctx, orders[i].TradeID, orders[i].Price)
			if err != nil {
				b.Fatal(err)
			}
			stmts += o.Statements
		}
		b.StopTimer()
		report(b, cpuTime(b)-c0)
	})
	b.Run(MarketFeed.String(), func(b *testing.B) {
		r := e.gen.Rand()
		batches := make([][]TickerEntry, b.N)
		for i := range batches {
			for j := 0; j < 20; j++ {
				s := r.Int64N(testScale.Securities())
				batches[i] = append(batches[i], TickerEntry{Symbol: schema.Symbol(s), Price: schema.PriceAt(s, float64(i)), Qty: 100})
			}
		}
		c0 := cpuTime(b)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			o, err := e.MarketFeed(ctx, batches[i])
			if err != nil {
				b.Fatal(err)
			}
			stmts += o.Statements
		}
		b.StopTimer()
		report(b, cpuTime(b)-c0)
	})
	b.Run(TradeCleanup.String(), func(b *testing.B) {
		c0 := cpuTime(b)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			o, err := e.Run(ctx, TradeCleanup)
			if err != nil {
				b.Fatal(err)
			}
			stmts += o.Statements
		}
		b.StopTimer()
		report(b, cpuTime(b)-c0)
	})
}
