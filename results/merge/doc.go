// Package merge joins a sharded run's files (run --shard, one per driver host) into
// one run file: it refuses shards that do not belong together, sums the counts and
// histograms step by step, and recomputes the derived figures and flags through
// package figures. Its tests live with the reports that read merged files
// (results/report).
package merge
