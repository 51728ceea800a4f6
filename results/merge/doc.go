// Package merge joins a sharded run's files (run --shard, one per driver host) into
// one run file: it refuses shards that do not belong together, sums the counts and
// histograms step by step, and recomputes the derived figures and flags through
// package figures. Its tests build the shards as the driver records them
// (internal/testkit/shardfixture).
package merge
