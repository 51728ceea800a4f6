package loader

import (
	"context"
	"fmt"
	"sort"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// A segment is the unit a load commits and a resumed load skips: a fixed fifth of a
// load unit (two customer and two trade groups, one news part, one DAILY_MARKET
// slice; a load unit's market and broker jobs go with its first fifth; the fixed
// tables with segment 0). The same for every load of a scale, whatever the workers
// or shards. Each table's rows of one segment stream through one bulk operation that
// commits together with the segment's row in SegmentTable (docs/load-resume.md).
const segmentsPerLU = 5

// SegmentTable records every committed (table, segment) with its rows, in the same
// transaction as the rows; a resumed load or a shard reads it to know what is in.
// It also holds the post-load's claim (postLoadClaim). Dropped with the schema.
const SegmentTable = "bb_load_segment"

// postLoadClaim is the table_name of the row a shard writes when it takes the post-load
// over (segment_no: the shard's index), so no other shard starts it as well.
const postLoadClaim = "(post-load)"

func segmentTable() schema.Table {
	return schema.Table{Name: SegmentTable, PrimaryKey: []string{"table_name", "segment_no"}, Columns: []schema.Column{
		{Name: "table_name", Type: schema.VC(40)}, {Name: "segment_no", Type: schema.Int},
		{Name: "row_count", Type: schema.Ident}, {Name: "committed_at", Type: schema.TS}}}
}

// segmentOf returns the segment a job's rows belong to.
func segmentOf(j job) int64 {
	base := j.lu * segmentsPerLU
	switch j.kind {
	case kindFixed:
		return 0
	case kindMarket, kindBroker:
		return base
	case kindCustomer, kindTrade:
		return base + j.part/(groupsPerLU/segmentsPerLU)
	}
	return base + j.part // news and daily: segmentsPerLU parts per load unit
}

// segKey names one table's rows of one segment.
type segKey struct {
	table string
	seg   int64
}

// plannedSegments counts the writers of every (table, segment) of a whole load.
func plannedSegments(jobs []job) map[segKey]int {
	out := map[segKey]int{}
	for _, j := range jobs {
		for _, t := range j.tables {
			out[segKey{t, segmentOf(j)}]++
		}
	}
	return out
}

// segmentMajor orders jobs by segment, keeping plan order within one: workers take
// them in that order, so a table's segments complete one after the other (see
// generate).
func segmentMajor(jobs []job) []job {
	out := append([]job(nil), jobs...)
	sort.SliceStable(out, func(a, b int) bool { return segmentOf(out[a]) < segmentOf(out[b]) })
	return out
}

// progress is what SegmentTable says: the committed segments and the post-load claim.
type progress struct {
	committed map[segKey]int64 // rows
	claimedBy int              // shard index of the claim; -1 without one
}

func (p progress) count(planned map[segKey]int) (done int) {
	for k := range planned {
		if _, ok := p.committed[k]; ok {
			done++
		}
	}
	return done
}

// tableRows sums the committed rows per table.
func (p progress) tableRows() map[string]int64 {
	out := map[string]int64{}
	for k, n := range p.committed {
		out[k.table] += n
	}
	return out
}

func readProgress(ctx context.Context, db database.DB) (progress, error) {
	p := progress{committed: map[segKey]int64{}, claimedBy: -1}
	rows, err := db.Query(ctx, selectProgress)
	if err != nil {
		return p, fmt.Errorf("read the load's progress in %s: %w", db.Target(), err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var seg int32
		var n int64
		if err := rows.Scan(&name, &seg, &n); err != nil {
			return p, err
		}
		if name == postLoadClaim {
			p.claimedBy = int(seg)
			continue
		}
		p.committed[segKey{name, int64(seg)}] = n
	}
	return p, rows.Err()
}

const selectProgress = "SELECT table_name, segment_no, row_count FROM " + SegmentTable

// recordSegment is the statement a segment's transaction ends with.
const recordSegment = "INSERT INTO " + SegmentTable + " (table_name, segment_no, row_count, committed_at) VALUES ($1, $2, $3, CURRENT_TIMESTAMP)"

// discardRows takes the rows of a table whose segment is already committed: the job
// still draws them, so every later draw of the batch is the one a clean load makes.
type discardRows struct{}

func (discardRows) Int16(int16)        {}
func (discardRows) Int32(int32)        {}
func (discardRows) Int64(int64)        {}
func (discardRows) Bool(bool)          {}
func (discardRows) Decimal(int64, int) {}
func (discardRows) Text(string)        {}
func (discardRows) Date(int32)         {}
func (discardRows) Timestamp(int64)    {}
func (discardRows) Null()              {}
func (discardRows) EndRow()            {}
func (discardRows) Size() int          { return 0 }
func (discardRows) Take() chunk        { return chunk{} }

// tableStream is one table's segments of this load, streamed one after the other on
// one connection, each in its own transaction.
type tableStream struct {
	table  schema.Table
	prog   *TableProgress
	order  []int64 // segments, ascending
	sinks  map[int64]*sink
	freeze bool // the first segment may TRUNCATE and COPY FREEZE: nothing of the table is committed
}

// run streams the segments in order: a job of a later segment waits (its chunks
// queue, then its send blocks) until the earlier segment's writers are done. Jobs
// are taken in segment order, so the earliest running job's segments are always the
// current ones and the load cannot deadlock.
func (ts *tableStream) run(ctx context.Context, db database.DB, sql func(string) string, after func(string, int64)) error {
	sl := db.(database.SegmentLoader) // checked by Load
	for i, seg := range ts.order {
		s := ts.sinks[seg]
		before := ts.prog.Rows()
		seg := seg
		sg := database.Segment{Table: ts.table.Name, Columns: ts.table.ColumnNames(), Freeze: ts.freeze && i == 0,
			Record: func(ctx context.Context, tx database.Tx, n int64) error {
				_, err := tx.Exec(ctx, sql(recordSegment), ts.table.Name, int32(seg), n)
				return err
			}}
		if s.format != nil {
			sg.Binary = &chunkReader{ctx: ctx, s: s}
		} else {
			sg.Rows = &chunkSource{ctx: ctx, s: s}
		}
		n, err := sl.LoadSegment(ctx, sg)
		if err != nil {
			return fmt.Errorf("load %s segment %d: %w", ts.table.Name, seg, err)
		}
		if sent := ts.prog.Rows() - before; n != sent {
			return fmt.Errorf("load %s segment %d: the database took %d rows of the %d sent", ts.table.Name, seg, n, sent)
		}
		if after != nil {
			after(ts.table.Name, seg)
		}
	}
	return nil
}
