package compare

import (
	"fmt"
	"strings"

	"github.com/brokerbench/brokerbench/results"
)

// unresolvedMaxNote is what the compare headline adds when a maximum in it is not
// resolved: "; UNRESOLVED: B stopped at max-steps, a lower bound only".
func unresolvedMaxNote(ins ...results.Input) string {
	var parts []string
	for _, in := range ins {
		if m := in.Run.Max; m != nil && !m.Resolved() {
			parts = append(parts, fmt.Sprintf("%s stopped at %s, its maximum a lower bound only", in.Name(), m.Stopped))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "; UNRESOLVED: " + strings.Join(parts, "; ") + ", so the change is not the controllers' difference"
}
