package session

import (
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/results"
)

// OneLine keeps an error on one line: users get a sentence, never a dump, and
// never a terminal escape from a file or a server's message.
func OneLine(s string) string {
	return results.Printable(strings.Join(strings.Fields(s), " "))
}

// ShortDuration drops a duration's zero minutes and seconds ("168h", not "168h0m0s").
func ShortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
