package loader

import (
	"testing"

	"github.com/brokerbench/brokerbench/schema"
)

// Every job is loaded by exactly one shard, every (table, segment) by one shard only
// (two shards committing the same segment would collide on its progress row), and
// DAILY_MARKET by shard 0 alone, for N = 1..7.
func TestShardSplit(t *testing.T) {
	for _, lus := range []int64{1, 2, 3} {
		sc := schema.Scale{Customers: lus * schema.LoadUnit, TradeDays: 5}
		jobs := plan(newKeyspace(sc, DefaultSeed))
		for n := 1; n <= 7; n++ {
			owner := map[segKey]int{}
			count := 0
			for i := 0; i < n; i++ {
				mine := jobsFor(jobs, sc, Shard{Index: i, Count: n})
				count += len(mine)
				for _, j := range mine {
					if j.kind == kindDaily && i != 0 {
						t.Errorf("%d LU, %d shards: %s in shard %d", lus, n, j, i)
					}
					for _, tb := range j.tables {
						k := segKey{tb, segmentOf(j)}
						if o, ok := owner[k]; ok && o != i {
							t.Errorf("%d LU, %d shards: %s segment %d in shards %d and %d", lus, n, tb, k.seg, o, i)
						}
						owner[k] = i
					}
				}
			}
			if count != len(jobs) {
				t.Errorf("%d LU, %d shards: %d jobs in the shards, the plan has %d", lus, n, count, len(jobs))
			}
			if len(owner) != len(plannedSegments(jobs)) {
				t.Errorf("%d LU, %d shards: %d segments owned, %d planned", lus, n, len(owner), len(plannedSegments(jobs)))
			}
		}
	}
}

// Segments are fifths of a load unit: every job's segment is in range, and each
// segment of a load unit holds trade rows.
func TestSegmentsOfAPlan(t *testing.T) {
	sc := schema.Scale{Customers: 2000, TradeDays: 5}
	trade := map[int64]bool{}
	for _, j := range plan(newKeyspace(sc, DefaultSeed)) {
		s := segmentOf(j)
		if s < 0 || s >= sc.LoadUnits()*segmentsPerLU {
			t.Errorf("%s: segment %d", j, s)
		}
		if j.kind == kindTrade {
			trade[s] = true
		}
	}
	if int64(len(trade)) != sc.LoadUnits()*segmentsPerLU {
		t.Errorf("trade rows in %d segments, want %d", len(trade), sc.LoadUnits()*segmentsPerLU)
	}
}
