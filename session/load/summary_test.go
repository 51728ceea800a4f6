package load

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/loader"
)

// A load on a server that cannot tell table sizes shows "-" and the reason, not
// sizes of 0 MB and a rate of 0 MB/s.
func TestLoadSummaryWithoutSizes(t *testing.T) {
	st := loader.Stats{Tables: []loader.TableStat{{Name: "trade", Rows: 288000}}, Elapsed: 2 * time.Second,
		SizesUnknown: "sys.allocation_units does not exist on this server"}
	var b bytes.Buffer
	printLoadSummary(&b, st, 7)
	out := b.String()
	for _, want := range []string{"trade                      288000          -          -", "sizes unknown: sys.allocation_units does not exist on this server", "loaded in 2.0 s: 144000 rows/s; seed 7"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "MB/s") || strings.Contains(out, " 0.0") {
		t.Errorf("unknown sizes shown as figures:\n%s", out)
	}
}

// The summary's MB are 10^6 bytes, as the plan above it and the progress lines count
// them: a table of 1.5 GB is 1500.0 MB, not 1430.5 (MiB labelled MB).
func TestLoadSummaryMBAreDecimal(t *testing.T) {
	st := loader.Stats{Tables: []loader.TableStat{{Name: "trade", Rows: 1000, HeapBytes: 1.5e9, TotalBytes: 2e9}}, Elapsed: 10 * time.Second}
	var b bytes.Buffer
	printLoadSummary(&b, st, 7)
	out := b.String()
	for _, want := range []string{"heap MB   total MB", "trade                        1000     1500.0     2000.0", "150.0 MB/s of table heap (200.0 MB/s with indexes)"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}
