package compare

import (
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/stats"
)

// responseSeconds decodes one transaction type's per-second histograms into
// Sparse (value, count) lists, one per second; nil entries are empty seconds.
func responseSeconds(encoded []string) ([][]stats.ValueCount, error) {
	out := make([][]stats.ValueCount, len(encoded))
	for i, s := range encoded {
		if s == "" {
			continue
		}
		h, err := results.DecodeHistogram(s)
		if err != nil {
			return nil, err
		}
		out[i] = stats.Sparse(h)
	}
	return out, nil
}
