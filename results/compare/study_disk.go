package compare

import (
	"fmt"
	"strings"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
)

// diskHeadline is, for profiles, each profile's IOPS change at the highest depth
// both sides ran; for a replay, the share of the captured rate each side kept.
func diskHeadline(c *DiskComparison, r int) string {
	iops, _ := figures.LookupDiskMetric("iops")
	var parts []string
	for _, k := range c.HighestDepths(r) {
		if c.ReplayAt(k, 0) != nil && c.ReplayAt(k, r) != nil {
			if p := replayHeadlinePart(c, k, r); p != "" {
				parts = append(parts, p)
			}
			continue
		}
		if e, ok := c.Estimate(k, r, iops); ok {
			parts = append(parts, fmt.Sprintf("%s IOPS %s", results.Printable(k.Profile), EstimateText(e)))
		}
	}
	return strings.Join(parts, ", ")
}

// replayHeadlinePart is "IOPS of captured 60 % vs 100 %, -40 % [-42 … -38] worse".
func replayHeadlinePart(c *DiskComparison, k results.DiskKey, r int) string {
	e, ok := c.ReplayEstimate(k, r, "achieved")
	if !ok {
		return ""
	}
	b, okB := c.ReplayValue(k, 0, "achieved")
	v, okV := c.ReplayValue(k, r, "achieved")
	if !okB || !okV {
		return "IOPS of captured " + EstimateText(e)
	}
	return fmt.Sprintf("IOPS of captured %.0f %% vs %.0f %%, %s", v, b, EstimateText(e))
}

// HighestDepths are, per profile in the comparison's order, its key at the highest
// depth the base and side r both ran (r = 0: every profile's highest matched depth).
func (c *DiskComparison) HighestDepths(r int) []results.DiskKey {
	iops, _ := figures.LookupDiskMetric("iops")
	var out []results.DiskKey
	at := map[string]int{}
	for _, k := range c.Keys {
		if _, ok := c.Value(k, r, iops); !ok {
			continue
		}
		if i, seen := at[k.Profile]; seen {
			out[i] = k // Keys are depths ascending within a profile
			continue
		}
		at[k.Profile] = len(out)
		out = append(out, k)
	}
	return out
}
