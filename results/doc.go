// Package results is the result file (format 1, a public contract: docs/result-format.md)
// and everything read from it: the types a file holds, Write and Read (an atomic write;
// bounds and validation on read, clear errors), the figures and flags of a step, the
// merge of a sharded run's files (Merge), comparisons with their intervals and verdicts
// (Compare), --fail-if gates (ParseGate), and the reports: text, CSV, JSON and HTML
// (WriteReport and its siblings). ARCHITECTURE.md ("results") maps its files.
//
// It also holds what the load driver records a step with: the Recorder.
//
// A Recorder gathers response and service times from many workers without locks
// shared between them, CockroachDB pkg/workload/histogram style:
//
//	rec := results.NewRecorder(clock.Now())
//	h := rec.Handle() // one per worker goroutine, never shared
//	...
//	// in the worker, per finished transaction:
//	h.Record("Trade-Order", end.Sub(intended), end.Sub(firstStatement),
//		results.Outcome{Retries: n, RolledBack: rb, Failed: err != nil})
//
// One goroutine (the driver's ticker) owns the rest of the life cycle of a step:
//
//	rec.Tick(now, func(iv results.Interval) { ... live line, Prometheus ... }) // every second
//	rec.StartWindow(now)          // at the end of the step's warm-up: drops warm-up values
//	txns, from := rec.Window()    // at the end of the step: TxnStats per transaction, Share set
//	step.Transactions = txns      // then TPS etc. from the counts and the measured seconds
//
// Tick merges every worker's interval histograms per transaction (sparse per worker,
// dense once merged) and adds them to the window; Interval histograms are reused by
// the next Tick. Failed transactions count in Errors only; their times are not
// recorded. Times are microseconds, clamped into [HistLowestMicros, HistHighestMicros].
package results
