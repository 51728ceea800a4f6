// Package record is what the load driver records a step with: the Recorder, which
// gathers response and service times from many workers without locks shared between
// them (CockroachDB pkg/workload/histogram style), and the SampleCollector, which
// keeps a window second by second for compare's intervals.
//
//	rec := record.NewRecorder(clock.Now())
//	h := rec.Handle() // one per worker goroutine, never shared
//	...
//	// in the worker, per finished transaction:
//	h.Record("Trade-Order", end.Sub(intended), end.Sub(firstStatement),
//		record.Outcome{Retries: n, RolledBack: rb, Failed: err != nil})
//
// One goroutine (the driver's ticker) owns the rest of the life cycle of a step:
//
//	rec.Tick(now, func(iv record.Interval) { ... live line, Prometheus ... }) // every second
//	rec.StartWindow(now)          // at the end of the step's warm-up: drops warm-up values
//	txns, from := rec.Window()    // at the end of the step: TxnStats per transaction, Share set
//	step.Transactions = txns      // then TPS etc. from the counts and the measured seconds
//
// Tick merges every worker's interval histograms per transaction (sparse per worker,
// dense once merged) and adds them to the window; Interval histograms are reused by
// the next Tick. Failed transactions count in Errors only; their times are not
// recorded. Times are microseconds, clamped into [results.HistLowestMicros, results.HistHighestMicros].
// It knows the file model and nothing that judges or renders a step.
package record
