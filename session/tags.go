package session

import (
	"strings"

	"github.com/brokerbench/brokerbench/results"
)

// ParseTags reads --tag key=value facts into the map a result file keeps, within
// the file's bounds.
func ParseTags(tags []string) (map[string]string, error) {
	if len(tags) == 0 {
		return nil, nil
	}
	if len(tags) > results.MaxTags {
		return nil, Usagef("%d --tag flags; a result file holds at most %d", len(tags), results.MaxTags)
	}
	m := map[string]string{}
	for _, t := range tags {
		k, v, ok := strings.Cut(t, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, Usagef("--tag %q: want key=value", t)
		}
		if len(k) > results.MaxTextBytes || len(v) > results.MaxTextBytes {
			return nil, Usagef("--tag %.40q…: keys and values are at most %d bytes", t, results.MaxTextBytes)
		}
		m[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return m, nil
}
