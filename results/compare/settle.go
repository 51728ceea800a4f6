package compare

import (
	"fmt"
)

// SettleWarnings names, for a comparison, every file whose settling ended before the
// database held still: its first step may still have been moving, as a run after a
// load climbs, and a verdict against it may show that climb.
func (c *Comparison) SettleWarnings() []string {
	var out []string
	for _, side := range c.Inputs {
		for _, in := range side.All() {
			if s := in.Run.Settle; s != nil && !s.Steady {
				out = append(out, fmt.Sprintf("%s (%s): %s.", side.Name(), in.Path, s.Summary()))
			}
		}
	}
	return out
}
