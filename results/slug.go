package results

import (
	"strings"
)

// Slug is a transaction name as gates and CSV columns spell it: lower case, every
// run of other characters than letters and digits turned into one '-'
// ("Trade-Result" → "trade-result", "Market Feed" → "market-feed").
func Slug(name string) string {
	var b strings.Builder
	sep := false
	for _, r := range strings.ToLower(name) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if sep && b.Len() > 0 {
				b.WriteByte('-')
			}
			sep = false
			b.WriteRune(r)
			continue
		}
		sep = true
	}
	return b.String()
}
