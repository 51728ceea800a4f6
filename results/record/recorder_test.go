package record

import (
	"sync"
	"testing"
	"time"
)

func TestRecorderTickAndWindow(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rec := NewRecorder(t0)
	h1, h2 := rec.Handle(), rec.Handle()

	// Warm-up values: must not reach the window.
	h1.Record("Trade-Order", 500*time.Millisecond, 400*time.Millisecond, Outcome{})
	rec.Tick(t0.Add(time.Second), nil)
	h2.Record("Trade-Order", 900*time.Millisecond, 800*time.Millisecond, Outcome{}) // not ticked yet
	rec.StartWindow(t0.Add(2 * time.Second))

	h1.Record("Trade-Order", 10*time.Millisecond, 8*time.Millisecond, Outcome{Retries: 2})
	h2.Record("Trade-Order", 20*time.Millisecond, 15*time.Millisecond, Outcome{RolledBack: true})
	h2.Record("Trade-Order", 5*time.Second, 5*time.Second, Outcome{Failed: true})
	h1.Record("Market-Feed", 3*time.Millisecond, 2*time.Millisecond, Outcome{})

	var got []Interval
	rec.Tick(t0.Add(3*time.Second), func(iv Interval) {
		iv.Response = iv.Response.Clone()
		got = append(got, iv)
	})
	if len(got) != 2 || got[0].Name != "Market-Feed" || got[1].Name != "Trade-Order" {
		t.Fatalf("intervals %+v", got)
	}
	to := got[1]
	if to.Response.TotalCount() != 2 || to.Errors != 1 || to.Retries != 2 || to.Rollbacks != 1 || to.Elapsed != time.Second {
		t.Fatalf("Trade-Order interval: count %d errs %d retries %d rb %d elapsed %v",
			to.Response.TotalCount(), to.Errors, to.Retries, to.Rollbacks, to.Elapsed)
	}

	// After the tick the next interval is empty, but the window keeps accumulating.
	h1.Record("Trade-Order", 30*time.Millisecond, 25*time.Millisecond, Outcome{})
	n := 0
	rec.Tick(t0.Add(4*time.Second), func(iv Interval) {
		n++
		if iv.Response.TotalCount() != 1 {
			t.Errorf("second interval count %d", iv.Response.TotalCount())
		}
	})
	if n != 1 {
		t.Fatalf("second tick reported %d names", n)
	}
	h2.Record("Trade-Order", 40*time.Millisecond, 35*time.Millisecond, Outcome{}) // reaches the window untick'd

	txns, from := rec.Window()
	if !from.Equal(t0.Add(2 * time.Second)) {
		t.Errorf("window from %v", from)
	}
	s := txns["Trade-Order"]
	if s.Count != 4 || s.Errors != 1 || s.Retries != 2 || s.Rollbacks != 1 {
		t.Fatalf("window Trade-Order %+v", s)
	}
	if s.MaxMS > 41 {
		t.Errorf("warm-up value leaked into the window: max %v ms", s.MaxMS)
	}
	if share := s.Share + txns["Market-Feed"].Share; share < 0.999 || share > 1.001 {
		t.Errorf("shares sum to %v", share)
	}

	rec.StartWindow(t0.Add(10 * time.Second))
	if txns, _ := rec.Window(); len(txns) != 0 {
		t.Fatalf("window not reset: %v", txns)
	}
}

// TestRecorderConcurrent runs workers against a ticking goroutine; with -race it
// proves the handle/tick hand-over, and the counts prove nothing is lost.
func TestRecorderConcurrent(t *testing.T) {
	t0 := time.Now()
	rec := NewRecorder(t0)
	const workers, each = 8, 2000
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var ticked int64
	tickDone := make(chan struct{})
	go func() {
		defer close(tickDone)
		for {
			select {
			case <-stop:
				return
			default:
				rec.Tick(time.Now(), func(iv Interval) { ticked += iv.Response.TotalCount() })
			}
		}
	}()
	for w := 0; w < workers; w++ {
		h := rec.Handle()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				h.Record("Trade-Status", time.Duration(i)*time.Microsecond, time.Microsecond, Outcome{})
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-tickDone
	rec.Tick(time.Now(), func(iv Interval) { ticked += iv.Response.TotalCount() })
	if ticked != workers*each {
		t.Fatalf("ticked %d values, want %d", ticked, workers*each)
	}
	txns, _ := rec.Window()
	if txns["Trade-Status"].Count != workers*each {
		t.Fatalf("window count %d", txns["Trade-Status"].Count)
	}
}

func BenchmarkHandleRecord(b *testing.B) {
	rec := NewRecorder(time.Now())
	h := rec.Handle()
	d := 3 * time.Millisecond
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		h.Record("Trade-Order", d+time.Duration(i%1000)*time.Microsecond, d, Outcome{})
	}
}

// BenchmarkTick is one tick of a 300-user step: 300 handles, each with a few
// transactions of 10 types since the previous tick.
func BenchmarkTick(b *testing.B) {
	rec := NewRecorder(time.Now())
	names := []string{"Broker-Volume", "Customer-Position", "Market-Feed", "Market-Watch", "Security-Detail",
		"Trade-Lookup", "Trade-Order", "Trade-Result", "Trade-Status", "Trade-Update"}
	hs := make([]*Handle, 300)
	for i := range hs {
		hs[i] = rec.Handle()
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, h := range hs {
			for k := 0; k < 3; k++ {
				h.Record(names[(i+k)%len(names)], time.Duration(1000+i*k)*time.Microsecond, time.Millisecond, Outcome{})
			}
		}
		rec.Tick(time.Now(), nil)
	}
}
