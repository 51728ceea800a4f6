package sqlserver

import (
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/database"
)

// TestCacheQuery pins the statement: the counters by their documented names, the
// Buffer Manager of any instance name.
func TestCacheQuery(t *testing.T) {
	for _, want := range []string{"sys.dm_os_performance_counters", "LIKE N'%:Buffer Manager'",
		"N'Page lookups/sec'", "N'Page reads/sec'", "RTRIM(counter_name)", "cntr_value"} {
		if !strings.Contains(cacheQuery, want) {
			t.Errorf("query lacks %q:\n%s", want, cacheQuery)
		}
	}
	if !strings.Contains(databaseSizeQuery, "sys.allocation_units") || !strings.Contains(databaseSizeQuery, "8192") {
		t.Errorf("size query %s", databaseSizeQuery)
	}
}

func TestCacheCounters(t *testing.T) {
	c, err := cacheCounters(map[string]int64{"Page lookups/sec": 1_000_000, "Page reads/sec": 70_000})
	if err != nil || c != (database.CacheCounters{Hits: 930_000, Reads: 70_000}) {
		t.Errorf("%+v, %v", c, err)
	}
	// A window's ratio comes from deltas: 10,000 lookups, 750 of them reads.
	d, _ := cacheCounters(map[string]int64{"Page lookups/sec": 1_010_000, "Page reads/sec": 70_750})
	if hits, reads := d.Hits-c.Hits, d.Reads-c.Reads; hits != 9_250 || reads != 750 {
		t.Errorf("window hits %d reads %d", hits, reads)
	}
	if _, err := cacheCounters(map[string]int64{"Page reads/sec": 5}); err == nil {
		t.Error("missing counter accepted")
	}
}
