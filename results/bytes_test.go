package results

import (
	"testing"

	"github.com/brokerbench/brokerbench/internal/memcap"
)

// TestFormatBytesIsMemcaps: a report prints a size as the commands print it
// (memcap.FormatSize), so one run's database size and memory cap read the same in
// its log, its report and quickstart's closing line. results may not import memcap
// (ARCHITECTURE.md: it imports nothing of ours), so the rule is written in both
// places and held to one output here.
func TestFormatBytesIsMemcaps(t *testing.T) {
	sizes := []int64{0, 1, 999, 1023, 1024, 1536, 100 << 10, 150<<20 + 300<<10, 192_000_000,
		(99<<20 + 983<<10), (1<<30 - 1), 3 << 29, 8 << 30, 48 << 30, 1 << 40, 5 << 50}
	for _, b := range sizes {
		if got, want := FormatBytes(b), memcap.FormatSize(b); got != want {
			t.Errorf("formatBytes(%d) = %q, memcap.FormatSize says %q", b, got, want)
		}
	}
	// A cap given as 192MB: a figure above 100 keeps its decimal, as the log shows it.
	if got := FormatBytes(192_000_000); got != "183.1 MiB" {
		t.Errorf("formatBytes(192000000) = %q, want 183.1 MiB", got)
	}
}
