package loader

import (
	"context"
	"fmt"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// Shard is one of Count processes that load one database together (load --shard I/N):
// each loads its own segments into the same tables, the first to arrive creates the
// schema, and the one that commits the last segment runs the post-load. Count 0 or 1
// is the whole load in one process.
type Shard struct{ Index, Count int }

func (s Shard) sharded() bool  { return s.Count > 1 }
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// shardOf returns the shard that loads job j. Segments are cut into Count contiguous
// ranges (so each shard's customers are whole fifths of load units), and every writer
// of a (table, segment) is in the segment's shard: ADDRESS, written by the fixed,
// market and customer jobs, commits each segment from one process. DAILY_MARKET is
// the exception, all of it by shard 0: one stream writes it in key order, so it stays
// in (dm_s_symb, dm_date) physical order; no other job writes it.
func shardOf(j job, sc schema.Scale, count int) int {
	if count <= 1 || j.kind == kindDaily {
		return 0
	}
	return int(segmentOf(j) * int64(count) / (sc.LoadUnits() * segmentsPerLU))
}

// jobsFor returns the jobs shard s loads.
func jobsFor(jobs []job, sc schema.Scale, s Shard) []job {
	if !s.sharded() {
		return jobs
	}
	var out []job
	for _, j := range jobs {
		if shardOf(j, sc, s.Count) == s.Index {
			out = append(out, j)
		}
	}
	return out
}

// loadLock is the name of the lock that serialises, between the processes of one
// load, the look at the database and the schema creation, and the post-load claim.
const loadLock = "brokerbench load"

// dropClaim removes an earlier claim before a resumed post-load claims it again.
const dropClaim = "DELETE FROM " + SegmentTable + " WHERE table_name = $1"

// claimPostLoad decides, under the load lock, whether this shard runs the post-load:
// only when every planned segment is committed (so the shard that commits the last
// one always finds them all; none waits for another) and no other shard claimed it,
// unless o.Resume takes a claim over (the claimer stopped). The claim is a row of
// SegmentTable. Without the claim it returns what the user is told instead.
func claimPostLoad(ctx context.Context, db database.DB, lk database.Locker, sql func(string) string, o Options, planned map[segKey]int) (bool, string, error) {
	unlock, err := lk.Lock(ctx, loadLock)
	if err != nil {
		return false, "", fmt.Errorf("take the load lock in %s: %w", db.Target(), err)
	}
	defer unlock()
	pr, err := readProgress(ctx, db)
	if err != nil {
		return false, "", err
	}
	if missing := len(planned) - pr.count(planned); missing > 0 {
		return false, fmt.Sprintf("shard %s has committed its segments; %d of %d segments are still to come from the other shards, and the shard that commits the last one builds the keys and indexes",
			o.Shard, missing, len(planned)), nil
	}
	if pr.claimedBy >= 0 && !o.Resume {
		return false, fmt.Sprintf("every segment is in and shard %d/%d runs the post-load (keys, indexes, statistics); if it stopped, run this shard again with --resume to finish it",
			pr.claimedBy, o.Shard.Count), nil
	}
	if _, err := db.Exec(ctx, sql(dropClaim), postLoadClaim); err != nil {
		return false, "", fmt.Errorf("claim the post-load: %w", err)
	}
	if _, err := db.Exec(ctx, sql(recordSegment), postLoadClaim, int32(o.Shard.Index), int64(0)); err != nil {
		return false, "", fmt.Errorf("claim the post-load: %w", err)
	}
	return true, "", nil
}
