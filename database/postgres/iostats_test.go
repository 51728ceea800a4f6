package postgres

import (
	"strings"
	"testing"
)

// TestPGIOQueryByVersion checks that each server version reads the views it has: the
// real query runs against PostgreSQL 15 in internal/iostat's integration test; 14, 16,
// 17 and 18 cannot run here, so their statements are checked for the columns that
// differ between versions (docs/storage.md §2.4).
func TestPGIOQueryByVersion(t *testing.T) {
	cases := []struct {
		num        int
		want, deny []string
	}{
		{130011, []string{"pg_wal_lsn_diff(pg_current_wal_lsn()", "pg_stat_bgwriter", "buffers_backend"},
			[]string{"pg_stat_wal ", "pg_stat_io", "track_wal_io_timing"}},
		{150018, []string{"pg_stat_bgwriter", "pg_stat_wal", "pw.wal_write,", "wal_sync_time", "buffers_backend", "track_wal_io_timing"},
			[]string{"pg_stat_io", "pg_stat_checkpointer"}},
		{160004, []string{"FROM pg_stat_io WHERE object IN ('relation', 'temp relation')", "op_bytes", "pg_stat_bgwriter", "pw.wal_write,"},
			[]string{"pg_stat_checkpointer", "read_bytes)", "object = 'wal'"}},
		{170002, []string{"pg_stat_io", "op_bytes", "pg_stat_checkpointer", "num_requested", "pw.wal_write,"},
			[]string{"pg_stat_bgwriter", "buffers_backend"}},
		{180000, []string{"sum(read_bytes)", "sum(extend_bytes)", "object = 'wal'", "pg_stat_checkpointer", "pw.wal_bytes"},
			[]string{"op_bytes", "wal_write", "wal_sync", "pg_stat_bgwriter"}},
	}
	for _, c := range cases {
		q := pgIOQuery(c.num)
		for _, w := range c.want {
			if !strings.Contains(q, w) {
				t.Errorf("%d: query lacks %q", c.num, w)
			}
		}
		for _, d := range c.deny {
			if strings.Contains(q, d) {
				t.Errorf("%d: query uses %q, which this version does not have", c.num, d)
			}
		}
		// Every variant returns the same 18 columns in the same order.
		sel := q[:strings.Index(q, "\nFROM")]
		if n := strings.Count(topLevelCommas(sel), ","); n != 17 {
			t.Errorf("%d: %d top-level select columns, want 18:\n%s", c.num, n+1, sel)
		}
	}
}

// topLevelCommas drops everything inside parentheses so only the select list's own
// commas remain.
func topLevelCommas(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		default:
			if depth == 0 {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}
