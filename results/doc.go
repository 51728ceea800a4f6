// Package results is the result file (format 1, a public contract:
// docs/result-format.md): every type a file holds, Write and Read (an atomic write;
// bounds and validation on read, clear errors), the names of the flags a step carries,
// and the workload's transaction facts the command hands in (Workload). It is the
// bottom of the results tree and imports none of it:
//
//	results/stats    intervals, batch means, bootstrap, Welch: no result file
//	results          the file model (this package)
//	results/record   what the driver records a step with (the Recorder)
//	results/figures  what the figures mean: metrics, derived figures, flags, limits
//	results/merge    a sharded run's files into one
//	results/compare  changes, intervals, verdicts, what differs, gates
//	results/report   text, CSV, JSON and HTML of runs and comparisons
//
// Each imports only those above it in this list (results/stats, the model's leaf,
// none of them); internal/testkit/archtest holds them to it.
package results
