// Package figures says what a step's figures mean: the metric catalogue gates and
// reports name (tps, p95 ms, reads/txn, ...), the figures derived from the recorded
// ones (overall response times, per-transaction I/O, cache hit ratio, nominal tpsE),
// the flags a step earns (storage- or CPU-bound, memory-resident, behind schedule,
// disturbed, unsteady) and the verdict of response-time limits. The transaction
// facts come from the command (results.Workload), never from a registry. It reads
// the file model and renders nothing.
package figures
