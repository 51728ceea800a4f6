package merge

import (
	"fmt"
	"slices"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// mergeHost takes the database host's figures once, as the storage's: every shard
// reads the same host. Shard 0's reading is preferred, else the first with figures.
// Each shard's own driver host stays with the shard (MergedShard.DriverHost).
func mergeHost(parts []shardStep) *results.StepHost {
	for _, p := range parts {
		if !figures.HostKnown(p.st.Host) {
			continue
		}
		h := *p.st.Host
		h.Interfaces = slices.Clone(h.Interfaces)
		h.Series = slices.Clone(h.Series)
		h.Note = joinNote(fmt.Sprintf("host figures from shard %d's reading (every shard reads the same database host)", p.index), h.Note)
		return &h
	}
	if len(parts) > 0 {
		return parts[0].st.Host
	}
	return nil
}

func joinNote(a, b string) string {
	if b == "" {
		return a
	}
	return a + "; " + b
}
